"""Statistics of a selection: the paper's rows, distributions, hardness, coverage, timing and the figures."""

from types import SimpleNamespace

import pytest

from review.dataset import figures
from review.dataset.selectors import statistics_for
from review.dataset.statistics import _IntentFigures, sql_keyword_counts

pytestmark = pytest.mark.django_db


def test_the_rows_of_the_papers_tables(dorm_dialogue):
    stats = statistics_for(seed=0)
    overview = stats["overview"]
    # 5 user utterances, 5 responses (one of them a clarification): 10 messages.
    assert overview["dialogues"] == 1 and overview["turns"] == 10 and overview["questions"] == 5
    assert overview["sql_turns"] == 3 and overview["folded_clarifications"] == 1
    assert overview["avg_turns_per_dialogue"] == 10
    assert overview["databases"] == 1 and overview["tables"] == 5
    assert overview["share_with_8_turns_or_more"] == 1.0
    assert 0 < overview["avg_tokens_per_turn"] < 20 and overview["vocabulary"] > 20
    assert sum(split["dialogues"] for split in stats["splits"].values()) == 1


def test_the_values_row_counts_each_columns_distinct_values_from_the_kept_profile(dorm_dialogue):
    """CoSQL Table 1's "# values": the slot-value pairs of the databases used, from each file's kept profile."""
    import sqlite3

    from annotation.databases.curation import database_version_profile

    database = dorm_dialogue.database
    database_version_profile(version=database.current_version)
    with sqlite3.connect(f"file:{database.path}?mode=ro", uri=True) as connection:
        expected = sum(
            connection.execute(f'SELECT count(DISTINCT "{column}") FROM "{table}"').fetchone()[0]
            for table, column in (
                (table, row[1])
                for (table,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
                for row in connection.execute(f'PRAGMA table_info("{table}")').fetchall()
            )
        )
    connection.close()
    overview = statistics_for()["overview"]
    assert overview["values"] == expected > 100 and overview["values_databases"] == overview["databases"] == 1


def test_act_distributions_keywords_by_turn_and_hardness(dorm_dialogue):
    stats = statistics_for()
    assert stats["user_acts"]["INFORM_SQL"] == 3 and stats["user_acts"]["AMBIGUOUS"] == 1
    assert stats["user_acts"]["THANK_YOU"] == 1
    assert stats["system_acts"]["CONFIRM_SQL"] == 3 and stats["system_acts"]["CLARIFY"] == 1
    assert stats["dialogue_lengths"] == {"10": 1}
    assert stats["sql_keywords"]["AGG"] == 1 and stats["sql_keywords"]["WHERE"] == 1
    assert stats["sql_keywords"]["ORDER BY"] == 1 and stats["sql_keywords"]["LIMIT"] == 1
    by_turn = stats["keywords_by_turn"]
    assert by_turn["turns"] == [1, 2, 3]
    assert by_turn["percent"]["AGG"] == [100.0, 0.0, 0.0] and by_turn["percent"]["WHERE"] == [0.0, 100.0, 0.0]
    assert stats["hardness"]["easy"] + stats["hardness"]["medium"] == 3


def test_coverage_counts_the_tables_and_columns_the_sql_uses(dorm_dialogue):
    [row] = statistics_for()["coverage"]["databases"]
    # student (count(*), last_name, age) and dorm (dorm_name, student_capacity).
    assert row["db_id"] == "dorm_demo" and row["tables_used"] == 2 and row["tables"] == 5
    assert row["columns_used"] == 4
    assert row["column_coverage"] == round(4 / row["columns"], 4)


def test_timing_uses_collected_dialogues_only(dorm_dialogue):
    timing = statistics_for()["timing"]
    assert timing["dialogues_timed"] == 1 and timing["questions_timed"] == 5
    assert timing["median_seconds_per_dialogue"] >= 0 and timing["median_seconds_per_question"] >= 0


def test_keyword_counts_on_a_nested_query():
    counts = sql_keyword_counts(
        "SELECT count(*) FROM a WHERE x NOT IN (SELECT y FROM b GROUP BY y HAVING count(*) > 1) ORDER BY z LIMIT 3"
    )
    assert counts == {"AGG": 2, "WHERE": 1, "NOT": 1, "IN": 1, "NESTED": 1, "GROUP BY": 1, "HAVING": 1,
                      "ORDER BY": 1, "LIMIT": 1}  # fmt: skip


def test_statistics_are_cached_until_the_data_changes(dorm_dialogue, open_room, django_assert_max_num_queries):
    first = statistics_for()
    with django_assert_max_num_queries(3):
        assert statistics_for() == first
    room = open_room("library_demo")
    turn = room.ask("How many books?")
    room.answer(turn, "SELECT count(*) FROM book")
    room.end()
    assert statistics_for()["overview"]["dialogues"] == 2


@pytest.mark.parametrize("fmt", ["svg", "pdf"])
def test_every_figure_renders_for_a_paper(dorm_dialogue, fmt):
    stats = statistics_for()
    for name in figures.FIGURES:
        data = figures.render(name, stats, fmt)
        if fmt == "svg":
            assert data.startswith(b"<?xml") and b"<svg" in data
            assert figures.FIGURES[name].encode() in data  # text stays text (svg.fonttype none)
        else:
            assert data.startswith(b"%PDF")


def test_an_empty_selection_still_has_figures(db):
    stats = statistics_for()
    assert stats["overview"]["dialogues"] == 0
    assert b"no data in this selection" in figures.render("hardness", stats, "svg")


def test_a_recommendation_counts_as_followed_by_its_turns_judgement_not_by_category():
    def turn(asked, followed):
        recommended = {"category": "same_instances", "relation": "R1", "text": "Ask for their age too"}
        return SimpleNamespace(
            labels={"intent": {"category": asked, "relations": []}}, recommended=recommended, followed=followed
        )

    figures = _IntentFigures()
    # Two questions of the suggested category: one did what was suggested, one asked something else of that kind.
    for asked, followed in [("same_instances", True), ("same_instances", False), ("display", False)]:
        figures.add_turn(turn(asked, followed), None)
    found = figures.figures()["recommendation_followed"]
    assert (found["compared"], found["followed"], found["share"]) == (3, 1, round(1 / 3, 4))
    assert found["matrix"]["same_instances"]["same_instances"] == 2


def test_a_figure_speaks_the_pages_language_in_svg_and_english_in_pdf(recwarn):
    """review.dataset.figures.words_for: an SVG's words are the page's (its text stays text, drawn by the browser),
    without warnings about the plotting font's missing CJK glyphs; a PDF, which carries its glyphs, stays English."""
    from django.utils import translation

    stats = {"overview": {"dialogues": 1, "sql_turns": 1}, "dialogue_lengths": {"1": 2, "2": 3}}
    with translation.override("zh-hans"):
        svg = figures.render("dialogue_lengths", stats, "svg").decode()
        pdf_words = str(figures.FIGURES["dialogue_lengths"])
        with figures.words_for("pdf"):
            english = str(figures.FIGURES["dialogue_lengths"])
    assert "每个对话的轮数" in svg and "turns per dialogue" not in svg
    assert pdf_words != english == "Distribution of dialogue lengths (turns = messages)"
    assert not [w for w in recwarn if "Glyph" in str(w.message)]
