"""One naming of a column for the drafts and the suggestions (`annotation.wording.english.column_name`, issue 35
section 3): the schema's words spelled out, a participle and "year" in a response's order, a verb of coming about said
as its year, acronyms in capitals, and one check of what a participle is."""

import random

import pytest

from annotation.wording import english
from annotation.wording.response_drafts.names import _Names
from annotation.wording.suggestions import CATEGORIES, IntentError, recommend
from annotation.wording.suggestions.names import _Schema

# A schema written as real ones are: shortened names, a participle before "yr", a participle alone, an acronym.
SITES = {
    "db_id": "sites",
    "table_names_original": ["site", "staff"],
    "table_names": ["site", "staff"],
    "column_names_original": [
        [-1, "*"],
        [0, "site_id"],
        [0, "site_nm"],
        [0, "opened_yr"],
        [0, "founded"],
        [1, "staff_id"],
        [1, "site_id"],
        [1, "staff_nm"],
        [1, "fte_pct"],
        [1, "grade"],
    ],
    "column_names": [
        [-1, "*"],
        [0, "site id"],
        [0, "site nm"],
        [0, "opened yr"],
        [0, "founded"],
        [1, "staff id"],
        [1, "site id"],
        [1, "staff nm"],
        [1, "fte pct"],
        [1, "grade"],
    ],
    "column_types": ["text", "number", "text", "number", "number", "number", "number", "text", "number", "text"],
    "primary_keys": [1, 5],
    "foreign_keys": [[6, 1]],
}


def every_text(sql: str, schema: dict = SITES, seeds: int = 15) -> set[str]:
    """Every suggestion of every category after `sql`, drawn with seeds 0 to `seeds` - 1."""
    found = set()
    for category in CATEGORIES:
        for seed in range(seeds):
            try:
                found.add(recommend(sql, schema, category=category, rng=random.Random(seed)).text)
            except IntentError:
                continue
    return found


@pytest.mark.parametrize(
    ("name", "kind", "said"),
    [
        ("opened yr", "number", "year opened"),  # a participle and "year": a response's order
        ("founded", "number", "year founded"),  # a verb of coming about alone, of a number: its year
        ("founded", "text", "founded"),  # of text it names no year
        ("fte pct", "number", "fte percent"),  # shortenings spelled out (the capitals come with the sentence)
        ("birth yr", "number", "birth year"),  # no participle: as it is
    ],
)
def test_a_column_is_named_once_for_both_writers(name, kind, said):
    assert english.column_name(name, frozenset(), kind) == said


@pytest.mark.parametrize(
    ("table", "column", "number"),
    [("site", "opened_yr", 3), ("site", "founded", 4), ("staff", "fte_pct", 8), ("staff", "grade", 9)],
)
def test_the_drafts_and_the_suggestions_read_a_column_by_the_same_name(table, column, number):
    assert _Schema(SITES).lookup[(table, column)].label == _Names(SITES).column_names[number]


@pytest.mark.parametrize(
    ("word", "present", "expected"),
    [
        ("founded", False, True),
        ("used", False, True),  # four letters are enough
        ("written", False, True),  # -en and -wn participles are listed ...
        ("withdrawn", False, True),
        ("town", False, False),  # ... since by their form such words are nouns as often
        ("green", False, False),
        ("need", False, False),  # -eed is no -ed ending
        ("speed", False, False),
        ("built", False, True),
        ("working", False, False),
        ("working", True, True),  # a present participle when asked for ("years working")
        ("Founded", False, True),
    ],
)
def test_one_check_of_a_participle(word, present, expected):
    assert english.participle(word, present=present) is expected


def test_a_participle_and_year_are_said_in_a_responses_order():
    texts = every_text("SELECT site_nm FROM site")
    assert any("their year opened" in text for text in texts), texts
    assert not any("opened year" in text for text in texts)
    # a point in time: latest and earliest, never a span counted ("the most year founded")
    assert any("the earliest year founded" in text or "the latest year founded" in text for text in texts), texts
    assert not any(word in text for text in texts for word in ("most year", "fewest year", "number of year"))


def test_a_number_named_by_a_verb_of_coming_about_is_its_year():
    texts = every_text("SELECT site_nm FROM site")
    assert any("year founded" in text for text in texts), texts
    assert not any(f"{word} founded" in text for text in texts for word in ("their", "whose", "the"))


def test_acronyms_are_written_in_capitals_as_a_draft_writes_them():
    texts = every_text("SELECT staff_nm FROM staff")
    assert any("their FTE percent" in text for text in texts), texts
    assert not any("fte" in text for text in texts)


# Yes/no columns named as real schemas name them: by a noun ("hub", "timing point"), by a set phrase ("full time"),
# and one on a table no foreign key joins to the query's.
DEPOTS = {
    "db_id": "depots",
    "table_names_original": ["depot", "stop", "part"],
    "table_names": ["depot", "stop", "part"],
    "column_names_original": [
        [-1, "*"],
        [0, "depot_id"],
        [0, "depot_nm"],
        [0, "hub"],
        [0, "xray_flg"],
        [0, "qa_flg"],
        [1, "stop_id"],
        [1, "depot_id"],
        [1, "stop_nm"],
        [1, "timing_point"],
        [1, "full_time"],
        [2, "part_id"],
        [2, "part_nm"],
        [2, "own_brand"],
        [2, "weight"],
    ],
    "column_names": [
        [-1, "*"],
        [0, "depot id"],
        [0, "depot nm"],
        [0, "hub"],
        [0, "xray flg"],
        [0, "qa flg"],
        [1, "stop id"],
        [1, "depot id"],
        [1, "stop nm"],
        [1, "timing point"],
        [1, "full time"],
        [2, "part id"],
        [2, "part nm"],
        [2, "own brand"],
        [2, "weight"],
    ],
    "column_types": ["text", "number", "text", "number", "number", "number", "number", "number", "text", "number"]
    + ["number", "number", "text", "number", "number"],
    "primary_keys": [1, 6, 11],
    "foreign_keys": [[7, 1]],
}
ZERO_ONE = {"rows": 40, "distinct": 2, "min": 0, "max": 1}
DEPOT_FIGURES = {
    ("depot", "hub"): ZERO_ONE,
    ("depot", "xray_flg"): ZERO_ONE,
    ("depot", "qa_flg"): ZERO_ONE,
    ("stop", "timing_point"): ZERO_ONE,
    ("stop", "full_time"): ZERO_ONE,
    ("part", "own_brand"): ZERO_ONE,
    ("part", "weight"): {"rows": 40, "distinct": 30, "min": 1, "max": 90},
}


def flag_texts(sql: str, seeds: int = 40) -> set[str]:
    """Every suggestion after `sql` showed 12 rows, the columns' figures read (`DEPOT_FIGURES`)."""
    rows = [[f"Name {number}"] for number in range(12)]
    found = set()
    for category in CATEGORIES:
        for seed in range(seeds):
            try:
                found.add(
                    recommend(
                        sql,
                        DEPOTS,
                        category=category,
                        rng=random.Random(seed),
                        result={"rows": rows, "truncated": False, "total_rows": None},
                        statistics=lambda table, column: DEPOT_FIGURES.get((table, column)),
                    ).text
                )
            except IntentError:
                continue
    return found


def test_a_flag_named_by_a_noun_is_said_in_the_plural():
    texts = flag_texts("SELECT stop_nm FROM stop")
    assert any("that are timing points" in text for text in texts), texts
    assert not any("that are timing point" in text.removesuffix("s") for text in texts if "points" not in text)
    # a set phrase said of a thing keeps its words: "full time", never "full times"
    assert any("that are full time" in text for text in texts), texts
    assert not any("full times" in text for text in texts)
    # since set 14's round, a noun alone before the rows' own noun: "hub depots" (a depot is a hub, but a branch is
    # no airport: `test_a_flag_named_by_a_noun_is_said_before_the_rows_noun`)
    depots = flag_texts("SELECT depot_nm FROM depot")
    assert any("that are hub depots" in text for text in depots), depots


def test_a_flag_of_a_table_no_key_joins_is_no_detail():
    texts = flag_texts("SELECT part_nm FROM part")
    assert any("Ask about the depots instead" in text or "Ask about the stops instead" in text for text in texts)
    assert not any(f"their {flag}" in text for text in texts for flag in ("hub", "timing point", "full time")), texts


FLIGHTS = {
    "db_id": "flights",
    "table_names_original": ["flight"],
    "table_names": ["flight"],
    "column_names_original": [
        [-1, "*"],
        [0, "flight_id"],
        [0, "flight_no"],
        [0, "dep_dt"],
        [0, "dep_mon"],
        [0, "start_ts"],
        [0, "delay_min"],
        [0, "status"],
    ],
    "column_names": [
        [-1, "*"],
        [0, "flight id"],
        [0, "flight no"],
        [0, "dep dt"],
        [0, "dep mon"],
        [0, "start ts"],
        [0, "delay min"],
        [0, "status"],
    ],
    "column_types": ["text", "number", "text", "time", "number", "time", "number", "text"],
    "primary_keys": [1],
    "foreign_keys": [],
}


def test_a_shortening_no_rule_spells_out_is_no_detail():
    texts = every_text("SELECT flight_no FROM flight", FLIGHTS)
    assert any("their status" in text for text in texts), texts
    for raw in ("dep", "mon", " ts", "delay min"):
        assert not any(raw in text for text in texts), (raw, texts)


# written after suggestions set 13 was read (tuned)
BATCHES = {
    "db_id": "batches",
    "table_names_original": ["batch"],
    "table_names": ["batch"],
    "column_names_original": [[-1, "*"], [0, "batch_id"], [0, "batch_nm"], [0, "og"], [0, "bal_amt"], [0, "eff_dt"]]
    + [[0, "status"]],
    "column_names": [[-1, "*"], [0, "batch id"], [0, "batch nm"], [0, "og"], [0, "bal amt"], [0, "eff dt"]]
    + [[0, "status"]],
    "column_types": ["text", "number", "text", "number", "number", "time", "text"],
    "primary_keys": [1],
    "foreign_keys": [],
}


def test_a_two_letter_shortening_alone_and_common_schema_shortenings_are_no_detail():
    texts = every_text("SELECT batch_nm FROM batch", BATCHES)
    assert any("their status" in text for text in texts), texts
    for raw in ("og", "bal", "eff"):
        assert not any(f" {raw} " in f" {text} " for text in texts), (raw, texts)


PEOPLE = {
    "db_id": "people",
    "table_names_original": ["staff"],
    "table_names": ["staff"],
    "column_names_original": [[-1, "*"], [0, "staff_id"], [0, "first_nm"], [0, "last_nm"], [0, "town_nm"]],
    "column_names": [[-1, "*"], [0, "staff id"], [0, "first nm"], [0, "last nm"], [0, "town nm"]],
    "column_types": ["text", "number", "text", "text", "text"],
    "primary_keys": [1],
    "foreign_keys": [],
}


def test_no_narrowing_by_a_persons_own_name():
    # written after suggestions set 13 was read (tuned)
    sql = "SELECT first_nm FROM staff"
    found = set()
    for seed in range(40):
        try:
            found.add(recommend(sql, PEOPLE, category="different_instances", rng=random.Random(seed)).text)
        except IntentError:
            continue
    narrowed = {text for text in found if text.startswith("Narrow it down")}
    assert narrowed, found
    assert any("their town name" in text for text in narrowed), narrowed
    assert not any("last name" in text or "first name" in text for text in narrowed), narrowed


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("labour hrs", "labour hours"),  # shortenings of time with one reading, spelled out
        ("pts cnt", "number of points"),  # spelled out, then a count of many ("players count")
        ("dur min", "duration in minutes"),  # a unit of time after a length of time is that unit ...
        ("duration secs", "duration in seconds"),
        ("delay min", "delay min"),  # ... elsewhere "min" is as often a minimum: left as it is
        ("min stock", "min stock"),
    ],
)
def test_time_shortenings_are_spelled_out_and_a_durations_unit_is_said(name, said):
    assert english.column_name(name) == said


def test_oem_is_an_acronym():
    assert english.acronyms_capitalised("those that are oem instead") == "those that are OEM instead"


def _shop_rows_and_figures():
    from annotation.tests.test_intents_seen import schema_of, suggested

    schema = schema_of(
        {"shop": ["shop_id", "shop_nm", "seat_cnt", "pets", "overseas"], "till": ["till_id", "shop_id", "float_amt"]},
        primary=["shop.shop_id", "till.till_id"],
        foreign=[("till.shop_id", "shop.shop_id")],
        types={"shop.seat_cnt": "number", "till.float_amt": "number", "shop.pets": "number"}
        | {"shop.overseas": "number", "shop.shop_id": "number", "till.till_id": "number", "till.shop_id": "number"},
    )
    figures = {("shop", "pets"): {"rows": 9, "distinct": 2, "min": 0, "max": 1}}
    figures |= {("shop", "overseas"): {"rows": 9, "distinct": 2, "min": 0, "max": 1}}
    figures |= {("shop", "seat_cnt"): {"rows": 9, "distinct": 7, "min": 20, "max": 80}}
    figures |= {("till", "float_amt"): {"rows": 30, "distinct": 6, "min": 50, "max": 200}}
    return schema, figures, suggested


def test_a_flag_named_by_a_plural_noun_says_the_rows_have_them():
    schema, figures, suggested = _shop_rows_and_figures()
    rows = [[f"Shop {number}"] for number in range(6)]
    texts = set(suggested("SELECT shop_nm FROM shop", schema, rows, seeds=60, figures=figures))
    texts |= set(suggested("SELECT shop_nm FROM shop WHERE pets = 1", schema, rows, seeds=60, figures=figures))
    said = " ".join(texts)
    assert "that have pets" in said or "having pets" in said, texts
    assert "are pets" not in said and "being pets" not in said, texts
    assert "have overseas" not in said and "having overseas" not in said, texts  # an adverb in -s is no plural


def test_listing_the_values_of_an_average_names_what_each_is_of():
    schema, figures, suggested = _shop_rows_and_figures()
    same = ["same_instances"]
    texts = set(suggested("SELECT avg(seat_cnt) FROM shop", schema, [[51.5]], same, seeds=60, figures=figures))
    assert "Ask for the seat count of each shop instead of the average seat count" in texts, texts
    # a table without a name for each row has nothing to list them by: the values themselves
    texts = set(suggested("SELECT avg(float_amt) FROM till", schema, [[120.0]], same, seeds=60, figures=figures))
    assert "Ask to list each float amount instead of the average float amount" in texts, texts


# written after suggestions set 14 was read (tuned)
HELPERS = {
    "db_id": "helpers",
    "table_names_original": ["volunteer", "vol_shift", "evt"],
    "table_names": ["volunteer", "vol shift", "evt"],
    "column_names_original": [[-1, "*"], [0, "vol_id"], [0, "last_nm"], [0, "phone_no"], [0, "ret_dt"], [1, "vol_id"]]
    + [[1, "evt_id"], [1, "role_cd"], [2, "evt_id"], [2, "evt_nm"], [2, "venue_nm"], [2, "camp_nm"]],
    "column_names": [[-1, "*"], [0, "vol id"], [0, "last nm"], [0, "phone no"], [0, "ret dt"], [1, "vol id"]]
    + [[1, "evt id"], [1, "role cd"], [2, "evt id"], [2, "evt nm"], [2, "venue nm"], [2, "camp nm"]],
    "column_types": ["text", "number", "text", "text", "time", "number", "number", "text", "number", "text", "text"]
    + ["text"],
    "primary_keys": [1, 8],
    "foreign_keys": [[5, 1], [6, 8]],
}


def test_vehicle_and_event_are_spelled_out_and_shortenings_with_two_readings_are_no_detail():
    assert english.column_name("veh class") == "vehicle class"
    from annotation.tests.test_intents_seen import suggested

    rows = [["Shaw"], ["Holt"], ["Mason"], ["Ellis"], ["Shaw"], ["Parker"]]
    texts = set(suggested("SELECT last_nm FROM volunteer", HELPERS, rows, seeds=40, figures={}))
    rows = [["Fun Run 2024"], ["Pub Quiz 2025"], ["Bake Sale 2023"], ["Charity Gala 2026"]]
    texts |= set(suggested("SELECT evt_nm FROM evt", HELPERS, rows, seeds=40, figures={}))
    said = " ".join(texts)
    assert "these events" in said, texts
    for raw in (" evt", "vol shift", "ret date", "camp name"):
        assert raw not in said, (raw, texts)


def test_a_persons_own_name_replaces_no_condition_but_another_name():
    """Written after suggestions set 14 was read (tuned): "for those whose last name is Shaw instead" of a condition
    on hours picks a few people nobody asked about; after a name, another name is the same kind of question."""
    from annotation.tests.test_intents_seen import schema_of, suggested

    schema = schema_of(
        {"helper": ["helper_id", "first_nm", "last_nm", "hrs_per_wk", "town"]},
        primary=["helper.helper_id"],
        types={"helper.helper_id": "number", "helper.hrs_per_wk": "number"},
    )
    figures = {("helper", "hrs_per_wk"): {"rows": 40, "distinct": 8, "min": 1, "max": 20}}
    values = {"last_nm": ["Shaw", "Holt"], "first_nm": ["Neil", "Susan"], "town": ["Leeds", "York"]}

    def texts(sql):
        rows = [["Neil", "Shaw"], ["Susan", "Holt"], ["Neil", "Mason"], ["Alice", "Holt"], ["Brian", "Ellis"]]
        found = suggested(
            sql, schema, rows, ["different_instances", "combination"], seeds=80, figures=figures,
            values=lambda table, column: values.get(column, []),
        )  # fmt: skip
        return " ".join(found)

    by_hours = texts("SELECT first_nm, last_nm FROM helper WHERE hrs_per_wk > 5")
    assert "whose town is" in by_hours and "whose last name is" not in by_hours, by_hours
    assert "whose first name is" not in by_hours, by_hours
    by_name = texts("SELECT first_nm, last_nm FROM helper WHERE first_nm = 'Neil'")
    assert "whose last name is" in by_name, by_name


# written after suggestions set 14 was read (tuned)
def _branch_schema():
    from annotation.tests.test_intents_seen import schema_of

    numbers = ["branch.bay_cnt", "branch.airport", "branch.franchised", "shift.hrs", "shift.no_show"]
    numbers += ["fund.target_amt", "fund.restricted", "award.award_amt"]
    schema = schema_of(
        {
            "branch": ["branch_cd", "branch_nm", "city_nm", "bay_cnt", "airport", "franchised"],
            "shift": ["shift_id", "role_nm", "hrs", "no_show"],
            "fund": ["fund_cd", "fund_nm", "restricted", "target_amt"],
            "award": ["award_ref", "fund_cd", "partner_nm", "award_amt"],
        },
        primary=["branch.branch_cd", "shift.shift_id", "fund.fund_cd", "award.award_ref"],
        foreign=[("award.fund_cd", "fund.fund_cd")],
        types=dict.fromkeys(numbers, "number"),
    )
    yes_no = {"rows": 9, "distinct": 2, "min": 0, "max": 1}
    figures = {("branch", "airport"): yes_no, ("branch", "franchised"): yes_no, ("shift", "no_show"): yes_no}
    figures |= {("fund", "restricted"): yes_no}
    figures |= {("branch", "bay_cnt"): {"rows": 9, "distinct": 7, "min": 20, "max": 140}}
    figures |= {("shift", "hrs"): {"rows": 90, "distinct": 5, "min": 2, "max": 8}}
    figures |= {("fund", "target_amt"): {"rows": 6, "distinct": 3, "min": 120000, "max": 250000}}
    figures |= {("award", "award_amt"): {"rows": 40, "distinct": 6, "min": 5000, "max": 60000}}
    values = {"city_nm": ["Leeds", "Glasgow", "Manchester"], "role_nm": ["Steward", "Marshal", "Catering"]}
    values |= {"partner_nm": ["WaterAid Uganda", "Hope Schools Trust"], "fund_nm": ["General Fund", "Legacy Fund"]}
    return schema, figures, values


def test_a_flag_named_by_a_noun_is_said_before_the_rows_noun():
    """Written after suggestions set 14 was read (tuned): a branch is no airport and a shift no "no show"; the flag
    before the rows' noun says what they are ("the airport branches", "the no-show shifts"); a participle stays."""
    from annotation.tests.test_intents_seen import suggested

    schema, figures, values = _branch_schema()
    rows = [["Manchester Airport"], ["Leeds City"], ["Glasgow Central"], ["Edinburgh Waverley"]]
    categories = ["different_instances", "combination"]
    found = []
    for sql in ("SELECT branch_nm FROM branch WHERE franchised = 0", "SELECT branch_nm FROM branch WHERE airport = 1"):
        found += suggested(sql, schema, rows, categories, seeds=60, figures=figures, values=lambda t, c: values.get(c))
    rows = [["Steward", 31], ["Marshal", 24], ["Catering", 22]]
    sql = "SELECT role_nm, count(*) FROM shift GROUP BY role_nm"
    found += suggested(sql, schema, rows, categories, seeds=60, figures=figures, values=lambda t, c: values.get(c, []))
    said = " ".join(found)
    assert "that are airport branches" in said and "that are not airport branches" in said, found
    assert "that are no-show shifts" in said, found
    for wrong in ("are airports", "being airports", "are no show", "are not airports"):
        assert wrong not in said, (wrong, found)
    from annotation.wording.suggestions.names import _Column
    from annotation.wording.suggestions.writing import _noun_flag

    def noun_named(words):
        return _noun_flag(_Column("t", words.replace(" ", "_"), f"{words} flag", "number", False))

    assert all(noun_named(words) for words in ("airport", "gift aid", "no show", "hub", "vip")), "nouns"
    for state in ("franchised", "smoker", "has cafe", "full time", "pets", "on call", "chronic", "seasonal"):
        assert not noun_named(state), state


def test_no_order_by_a_column_the_rows_have_no_value_of():
    """Written after suggestions set 14 was read (tuned): grants of unrestricted funds sorted by their fund's target
    amount, which those funds do not have, order nothing."""
    from annotation.tests.test_intents_seen import suggested

    schema, figures, values = _branch_schema()
    sql = "SELECT T1.partner_nm FROM award AS T1 JOIN fund AS T2 ON T1.fund_cd = T2.fund_cd WHERE T2.restricted = 0"
    rows = [["WaterAid Uganda"], ["Hope Schools Trust"], ["Sahel Relief Network"], ["Bright Futures Malawi"]] * 2

    def said(targets):
        held = {"target_amt": targets, "award_amt": [5000, 25000, 60000], "partner_nm": [row[0] for row in rows]}
        return suggested(
            sql, schema, rows, ["display", "combination"], seeds=60, figures=figures,
            values=lambda t, c: values.get(c, []), row_values=lambda table, column: held.get(column, []),
        )  # fmt: skip

    assert "target amount" in " ".join(said([120000, 250000]))
    empty = said([None, None, None])
    same_rows = [text for text in empty if "restricted" not in text]
    assert not any("target amount" in text for text in same_rows), empty
    assert any("award amount" in text for text in same_rows), empty
    # after a change that reads other rows, their values are not those read: "drop the condition on being
    # restricted, just the 3 with the highest target amount" sorts funds that have one (written after suggestions set
    # 15 was read, tuned)
    assert any(text.startswith("Drop or relax") and "target amount" in text for text in empty), empty


def test_no_one_of_a_plural_without_repeats():
    """Written after suggestions set 15 was read (tuned): "ask for each gross tons only once"."""
    from annotation.tests.test_intents_seen import schema_of, suggested

    schema = schema_of(
        {"vessel": ["imo_no", "vessel_nm", "gross_tons", "pax_cap"]},
        primary=["vessel.imo_no"],
        types=dict.fromkeys(["vessel.imo_no", "vessel.gross_tons", "vessel.pax_cap"], "number"),
    )
    figures = {("vessel", "gross_tons"): {"rows": 8, "distinct": 7, "min": 4719, "max": 54975}}
    figures |= {("vessel", "pax_cap"): {"rows": 8, "distinct": 7, "min": 600, "max": 2120}}
    rows = [[12307], [12307], [5902], [8680], [4719]]
    sql = "SELECT gross_tons FROM vessel WHERE pax_cap < 1000"
    found = suggested(sql, schema, rows, ["display"], seeds=40, figures=figures)
    assert "Ask for their gross tons without repeats" in found, found
    assert not any("each gross tons" in text for text in found), found


def test_another_value_is_named_or_nothing_is_asked():
    """Written after suggestions set 14 was read (tuned): "ask the same about another volunteer" after a pattern on
    first names names nobody to ask about."""
    from annotation.tests.test_intents_seen import schema_of, suggested

    schema = schema_of(
        {"volunteer": ["vol_id", "first_nm", "last_nm", "hrs_per_wk"]},
        primary=["volunteer.vol_id"],
        types={"volunteer.vol_id": "number", "volunteer.hrs_per_wk": "number"},
    )
    figures = {("volunteer", "hrs_per_wk"): {"rows": 45, "distinct": 6, "min": 1.5, "max": 8}}
    names = {"first_nm": ["David", "Alice", "Carol"], "last_nm": ["Shaw", "Holt"]}
    rows = [[2], [3], [7], [21], [30], [33]]
    found = suggested(
        "SELECT vol_id FROM volunteer WHERE first_nm LIKE '%Da%'", schema, rows, ["different_instances", "combination"],
        seeds=80, figures=figures, values=lambda table, column: names.get(column, []),
    )  # fmt: skip
    assert found, found
    assert not any("another volunteer" in text and " than " not in text for text in found), found
    # nor another of many dates (tuning draw after set 14)
    schema = schema_of(
        {"member": ["member_no", "first_nm", "join_dt", "plan_nm"]},
        primary=["member.member_no"],
        types={"member.member_no": "number"},  # a date stored as text, as SQLite hosts it
    )
    sql = "SELECT member_no FROM member WHERE join_dt = '2024-12-05' UNION "
    sql += "SELECT member_no FROM member WHERE join_dt = '2023-09-02'"
    dates = {"join_dt": ["2024-12-05", "2023-09-02"], "first_nm": ["Ann", "Bob"]}
    found = suggested(
        sql, schema, rows, ["different_instances", "combination"], seeds=80, figures={},
        values=lambda table, column: dates.get(column, []),
    )  # fmt: skip
    assert found and not any("another join date" in text for text in found), found
    assert english.column_name("duration in minutes") == "duration in minutes"
    from annotation.wording.suggestions.writing import _one

    assert _one("duration in minutes") == "duration in minutes" and _one("languages") == "language"


def test_rows_of_a_link_counted_are_not_listed_as_one_side():
    """Written on tuning draws after set 14's round: "the number of speakers" of talk-speaker rows counts pairs;
    "list the speakers themselves" lists a speaker once per talk and no talk. A flag named by the rows' own kind
    is said in the plural ("lead tenants" of tenancy tenants, never "lead tenant tenancy tenants")."""
    from annotation.tests.test_intents_seen import schema_of, suggested

    schema = schema_of(
        {
            "talk": ["talk_id", "title"],
            "speaker": ["speaker_id", "first_nm", "last_nm", "keynote"],
            "talk_speaker": ["talk_id", "speaker_id", "presenting"],
            "tenancy_tenant": ["tenancy_id", "tenant_nm", "lead_tenant"],
        },
        primary=["talk.talk_id", "speaker.speaker_id", "tenancy_tenant.tenancy_id"],
        foreign=[("talk_speaker.talk_id", "talk.talk_id"), ("talk_speaker.speaker_id", "speaker.speaker_id")],
        types=dict.fromkeys(["talk_speaker.presenting", "speaker.keynote", "tenancy_tenant.lead_tenant"], "number"),
    )
    yes_no = {"rows": 80, "distinct": 2, "min": 0, "max": 1}
    figures = {("talk_speaker", "presenting"): yes_no, ("speaker", "keynote"): yes_no}
    figures |= {("tenancy_tenant", "lead_tenant"): yes_no}
    same = ["same_instances"]
    pairs = suggested(
        "SELECT count(*) FROM talk_speaker WHERE presenting = 0", schema, [[80]], CATEGORIES, seeds=40, figures=figures
    )
    assert pairs and not any("themselves" in text for text in pairs), pairs
    people = suggested(
        "SELECT count(*) FROM speaker WHERE keynote = 0", schema, [[60]], same, seeds=40, figures=figures
    )
    assert any("the speakers themselves" in text for text in people), people
    rows = [["Ann Lee"], ["Bo Chan"], ["Cy Dale"], ["Di Eve"]]
    tenants = " ".join(
        suggested(
            "SELECT tenant_nm FROM tenancy_tenant", schema, rows, ["different_instances"], seeds=40, figures=figures
        )
    )
    assert "that are lead tenants" in tenants and "lead tenant tenancy" not in tenants, tenants


def test_a_flag_named_by_a_noun_in_ing_says_the_rows_have_it():
    """Written on suggestions set 15's rated sheet (tuning): "drop the condition on being parking" of sites with
    parking; a word in -ing English never writes after "is" or "are" names a thing a row has, a progressive stays a
    state ("presenting", "pending")."""
    from annotation.tests.test_intents_seen import schema_of, suggested

    schema = schema_of(
        {"site": ["site_cd", "site_nm", "parking", "refurbished"]},
        primary=["site.site_cd"],
        types=dict.fromkeys(["site.parking", "site.refurbished"], "number"),
    )
    figures = {("site", "parking"): {"rows": 6, "distinct": 2, "min": 0, "max": 1}}
    figures |= {("site", "refurbished"): {"rows": 6, "distinct": 2, "min": 0, "max": 1}}
    values = {"parking": [0, 1], "refurbished": [0, 1]}
    rows = [["Cardiff Bay"], ["Marina Quay"], ["Cabot Circus"]]
    found = []
    for sql in ("SELECT site_nm FROM site WHERE parking = 1", "SELECT site_nm FROM site WHERE refurbished = 0"):
        found += suggested(sql, schema, rows, seeds=60, figures=figures, values=lambda t, c: values.get(c))
    said = " ".join(found)
    assert "having parking" in said or "have parking" in said, found
    assert "being parking" not in said and "are parking" not in said and "are not parking" not in said, found
    assert all(english.noun_in_ing(word) for word in ("parking", "catering", "fishing"))
    assert not any(english.noun_in_ing(word) for word in ("presenting", "pending", "standing", "owing", "recurring"))


def test_half_of_a_two_column_key_names_its_own_row_for_both_writers():
    """Written on suggestions set 15's rated sheet (tuning): sites grouped by a screening's site code were "each
    screen"; the site code, half of the screen's key (site and screen number), names a site as the screen's own site
    code does. One rule for the drafts and the suggestions (`english.key_targets`)."""
    from annotation.tests.test_intents_seen import schema_of, suggested

    schema = schema_of(
        {
            "site": ["site_cd", "site_nm"],
            "screen": ["site_cd", "screen_no", "seat_cnt"],
            "screening": ["scr_id", "site_cd", "screen_no", "sold_cnt"],
        },
        primary=["site.site_cd", "screen.site_cd", "screen.screen_no", "screening.scr_id"],
        foreign=[
            ("screen.site_cd", "site.site_cd"),
            ("screening.site_cd", "screen.site_cd"),
            ("screening.screen_no", "screen.screen_no"),
        ],
        types=dict.fromkeys(["screen.screen_no", "screen.seat_cnt", "screening.scr_id"], "number")
        | {"screening.sold_cnt": "number"},
    )
    assert _Schema(schema).references[("screening", "site_cd")] == "site"
    assert _Schema(schema).references[("screening", "screen_no")] == "screen"
    site_code = schema["column_names_original"].index([0, "site_cd"])
    assert _Names(schema).foreign[schema["column_names_original"].index([2, "site_cd"])] == site_code
    figures = {("screening", "sold_cnt"): {"rows": 420, "distinct": 19, "min": 0, "max": 18}}
    figures |= {("screening", "site_cd"): {"rows": 420, "distinct": 6}}
    rows = [["BRS-CAB", 105], ["BTH-SOU", 70], ["CDF-BAY", 89]]
    sql = "SELECT site_cd, count(*) FROM screening GROUP BY site_cd HAVING count(*) >= 70"
    found = suggested(sql, schema, rows, seeds=60, figures=figures)
    assert not any("each screen" in text or "per screen" in text for text in found), found


def test_pax_is_spelled_out_and_shortenings_with_two_readings_are_said_of_nothing():
    """Written on suggestions set 15's rated sheet (tuning): "their pax count", "the conc items", "their car cap",
    "their certificate exp date"."""
    from annotation.wording.suggestions.names import _unread_table, _vague

    assert english.column_name("pax count", frozenset(), "number") == "passenger count"
    assert english.column_name("pax", frozenset(), "number") == "passengers"
    assert _unread_table("conc items") and _unread_table("conc sale")
    assert _vague("car cap") and _vague("certificate exp date")
    assert not _unread_table("sale lines") and not _vague("capacity")


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("unit price amt", "unit price"),  # a price is an amount already
        ("fee amt", "fee"),
        ("total amt", "total amount"),  # "total" is no amount of money of its own
        ("players cnt", "number of players"),  # a noun before another is singular: a count of many
        ("series cnt", "series count"),  # a plural that is its own singular stays
    ],
)
def test_an_amount_of_money_and_a_count_of_many_read_as_english(name, said):
    """Written on an unrated goals draw of the made orchestra, bakery, pharmacy and marina (seed 16616, tuning):
    "their unit price amount", "their players count"."""
    assert english.column_name(name, frozenset(), "number") == said


def test_a_group_of_a_number_named_by_a_plural_is_a_number_of_them():
    """Written on the same tuning draw: "the total fee amount of each night" of visits grouped by their nights (1, 2,
    3 nights); a measure in a plural unit ("gross tons") and a limit ("max months") stay as they are."""
    from annotation.tests.test_intents_seen import schema_of, suggested

    schema = schema_of(
        {"visit": ["visit_id", "nights", "fee_amt", "gross_tons", "max_months"]},
        primary=["visit.visit_id"],
        types=dict.fromkeys(["visit.visit_id", "visit.nights", "visit.fee_amt", "visit.gross_tons"], "number")
        | {"visit.max_months": "number"},
    )
    figures = {("visit", "nights"): {"rows": 260, "distinct": 8, "min": 1, "max": 14}}
    figures |= {("visit", "fee_amt"): {"rows": 260, "distinct": 90, "min": 12, "max": 400}}
    rows = [[1, 120], [2, 61], [3, 32]]
    found = suggested(
        "SELECT nights, count(*) FROM visit GROUP BY nights HAVING count(*) >= 30", schema, rows,
        ["same_instances"], seeds=60, figures=figures,
    )  # fmt: skip
    said = " ".join(found)
    assert "each number of nights" in said, found
    assert "each night" not in said and "fee amount" not in said, found
    from annotation.wording.suggestions.writing import _how_many

    reading = _Schema(schema)
    assert _how_many(reading.lookup[("visit", "gross_tons")]) == "gross tons"
    assert _how_many(reading.lookup[("visit", "max_months")]) == "max months"


def test_a_table_named_by_two_letters_of_a_shortening_is_no_thing_to_ask_about():
    """Written on the same tuning draw: "ask about the rx instead" (a prescription), "the rx items"; a two-letter
    word text uses ("tv") names things; "days sup" (supplied or supply) is no detail."""
    from annotation.wording.suggestions.names import _unread_table, _vague

    assert _unread_table("rx") and _unread_table("rx items")
    assert not _unread_table("tv shows")
    assert _vague("days sup")


def test_a_unit_after_in_goes_with_it():
    """Written on an unrated goals draw of the made airline, retail, library, logistics, vet and festival (seed
    16717, tuning): "ask to list each distance in instead of the lowest distance in" of a distance in km."""
    from annotation.wording.suggestions.names import _without_unit

    assert _without_unit("distance in km") == "distance in km"
    assert _without_unit("out in km") == "out in"  # no measure named: still no detail (`_vague`)
    assert _without_unit("profits billion") == "profits"
    assert _without_unit("duration in minutes") == "duration in minutes"  # a unit of time is kept


def test_no_instead_of_a_condition_the_other_side_of_a_set_operation_holds():
    """Written after suggestions set 16 was read (tuned): "ask about those that are seasonal instead" of staff an
    INTERSECT kept to seasonal ones; the shortenings est, comm, prem, act, hr said as written; "those that are
    shipping" (a thing paid for, text writes "the shipping" nine times as often as "is shipping")."""
    from annotation.tests.test_intents_seen import schema_of, suggested
    from annotation.wording.suggestions.names import _unread_table, _vague

    schema = schema_of(
        {"staff": ["staff_id", "first_nm", "start_dt", "hrs_per_wk", "seasonal", "lifeguard"]},
        primary=["staff.staff_id"],
        types=dict.fromkeys(["staff.staff_id", "staff.hrs_per_wk", "staff.seasonal", "staff.lifeguard"], "number"),
    )
    figures = {
        ("staff", column): {"rows": 70, "distinct": 2, "min": 0, "max": 1} for column in ("seasonal", "lifeguard")
    }
    values = {"seasonal": [0, 1], "lifeguard": [0, 1]}
    sql = "SELECT start_dt FROM staff WHERE hrs_per_wk = 35 INTERSECT SELECT start_dt FROM staff WHERE seasonal = 1"
    found = suggested(
        sql, schema, [["2013-08-14"], ["2014-03-03"]], ["different_instances"], seeds=60, figures=figures,
        values=lambda t, c: values.get(c),
    )  # fmt: skip
    assert not any("seasonal instead" in text for text in found), found
    assert _vague("est high amount") and _vague("comm percent") and _vague("prem amount") and _vague("start hr")
    assert _unread_table("act bookings")
    assert english.noun_in_ing("shipping") and not english.noun_in_ing("winning")
