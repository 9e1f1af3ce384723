"""Suggestions read against the result the worker was just shown and said in a worker's words (issue 35, section 3;
rules written on the fresh16 sheets and unrated CHASE-T draws, tuning material). No database file: the columns'
figures and values are given as the room's callables give them."""

import re

from annotation.tests.test_intents_seen import CATEGORIES, schema_of, suggested

GALLERY = schema_of(
    {
        "exhibition": ["Exhibition_ID", "Year", "Theme", "Ticket_Price"],
        "college": ["College_ID", "Name", "Region"],
        "season": ["Season_ID", "College_ID", "Position", "Player"],
    },
    primary=["exhibition.Exhibition_ID", "college.College_ID", "season.Season_ID"],
    foreign=[("season.College_ID", "college.College_ID")],
    types={"exhibition.Year": "number", "exhibition.Ticket_Price": "number"},
)
FIGURES = {
    ("exhibition", "Year"): {"rows": 6, "distinct": 6, "min": 2004, "max": 2009},
    ("exhibition", "Ticket_Price"): {"rows": 6, "distinct": 4, "min": 9.95, "max": 29.95},
    ("season", "Position"): {"rows": 16, "distinct": 3},
    ("season", "Player"): {"rows": 16, "distinct": 16},
}
VALUES = {("season", "Position"): ["Defender", "Forward"], ("exhibition", "Theme"): ["Santa Claus", "Christmas Tree"]}


def texts(sql, rows, schema=GALLERY, categories=CATEGORIES):
    return suggested(
        sql,
        schema,
        rows,
        categories,
        seeds=40,
        figures=FIGURES,
        values=lambda table, column: VALUES.get((table, column), []),
    )


def test_no_other_side_beyond_the_highest_value():
    # "year < 2009" when 2009 is the last year: "those whose year is after 2009" is nobody
    found = texts("SELECT avg(Ticket_Price) FROM exhibition WHERE Year < 2009", [[20.35]])
    assert found and not any("after 2009" in text for text in found), set(found)
    found = texts("SELECT avg(Ticket_Price) FROM exhibition WHERE Year > 2004", [[20.35]])
    assert not any("before 2004" in text for text in found), set(found)
    # a value inside the range keeps its other side
    found = texts("SELECT avg(Ticket_Price) FROM exhibition WHERE Year < 2007", [[20.35]])
    assert any("after 2007" in text for text in found), set(found)


def test_no_figure_per_group_that_having_fixes():
    # "HAVING count(*) = 1": each college's count is 1; neither "how many each has" nor a count per position as well
    sql = "SELECT College_ID FROM season GROUP BY College_ID HAVING count(*) = 1"
    found = texts(sql, [[1], [2], [3], [4], [5], [6]])
    assert not any("how many" in text or "number of seasons" in text for text in found), set(found)
    # a HAVING with a range leaves the counts to ask
    sql = "SELECT College_ID FROM season GROUP BY College_ID HAVING count(*) > 1"
    found = texts(sql, [[1], [2], [3], [4], [5], [6]])
    assert any("how many" in text or "number of seasons" in text for text in found), set(found)


CITIES = schema_of(
    {
        "city": ["City_ID", "Name", "White", "Asian", "Population"],
        "party": ["Party_ID", "Minister", "Took_office", "Left_office", "In_office", "First_elected", "Left_wing"],
    },
    primary=["city.City_ID", "party.Party_ID"],
    types={"city.White": "number", "city.Asian": "number", "city.Population": "number"},
)


def test_no_column_said_by_a_word_that_names_no_detail():
    found = texts("SELECT Name FROM city ORDER BY Population DESC LIMIT 5", [["A"], ["B"], ["C"], ["D"], ["E"]], CITIES)
    said = " | ".join(found)
    assert found and not any(word in said for word in ("their asian", "their white", "whose asian", "whose white"))
    found = texts("SELECT Minister FROM party", [["A"], ["B"], ["C"], ["D"]], CITIES)
    said = " | ".join(found)
    for raw in ("took office", "left office", "in office", "first elected"):
        assert raw not in said, (raw, set(found))
    assert "left wing" in said, set(found)  # "left" before a side is no verb


def test_no_fewer_columns_that_tell_less_than_was_shown():
    # of a name and a figure, dropping one leaves what is in view
    found = texts("SELECT Name, Population FROM city", [["A", 10], ["B", 20], ["C", 30], ["D", 40]], CITIES)
    assert found and not any("without their" in text for text in found), set(found)
    # of three, one dropped still leaves a question
    found = texts("SELECT Name, Population, White FROM city", [["A", 10, 1], ["B", 20, 2], ["C", 30, 3]], CITIES)
    assert any("without their population" in text for text in found), set(found)
    # a number alone out of every detail tells nothing of which row it is
    rows = [[1, 2004, "Santa Claus", 19.95], [2, 2005, "Christmas Tree", 14.95], [3, 2006, "Elves", 9.95]]
    found = texts("SELECT * FROM exhibition", rows)
    assert not any(re.search(r"just their (ticket price|year) instead", text) for text in found), set(found)
    assert any("just their theme instead" in text for text in found), set(found)


def test_a_plural_measure_before_per_takes_are():
    from annotation.wording.suggestions.writing import _whose

    assert _whose("hours per week") == "whose hours per week are"
    assert _whose("number of factories") == "whose number of factories is"
    assert _whose("price per night") == "whose price per night is"
