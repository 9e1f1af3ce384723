"""The figures from the SParC, CHASE and OTTA papers (docs/statistics.md), each computed on a few crafted records and
checked against a computation of its own here: question overlap between turns, the schema links' match types, and
OTTA's MSTTR and components per query by collection mode; and each drawn as an SVG with its title."""

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from dialogs.log import DialogueRecord, UserTurn
from review.dataset import figures
from review.dataset.statistics import compute_statistics, link_match

SCHEMA = {
    "db_id": "shop",
    "table_names_original": ["Customer", "order_item"],
    "table_names": ["customer", "order item"],
    "column_names_original": [[-1, "*"], [0, "cust_name"], [0, "Age"], [1, "OrderDate"]],
    "column_names": [[-1, "*"], [0, "customer name"], [0, "age"], [1, "order date"]],
}
AT = datetime(2026, 1, 1, tzinfo=UTC)


def turn(seq: int, text: str, sql: str | None = "SELECT 1", links: list | None = None) -> UserTurn:
    labels = {"schema_linking": links} if links is not None else {}
    return UserTurn(seq=seq, text=text, created_at=AT, acts=["INFORM_SQL"], dropped=False, run_seq=None, sql=sql,
                    shown=None, labels=labels)  # fmt: skip


def record(number: int, turns: list[UserTurn], *, mode: str = "chat", imported: bool = False) -> DialogueRecord:
    return DialogueRecord(
        id=number, db_id="shop", status="approved", goal_question="", goal_sql="", score=None, score_comment="",
        created_at=AT, ended_at=None, imported=imported, interaction_id=None, user_turns=turns,
        messages=[("user", t) for t in turns], runs=[], annotations={}, events=[], mode=mode,
    )  # fmt: skip


def statistics(records):
    return compute_statistics(records, schemas={"shop": SCHEMA}, encoded={})


# Texts whose tokens are their words split at spaces (punctuation already apart), so the test can count on its own.
DIALOGUES = [
    ["how many customers are there ?", "how old are the customers ?", "and the oldest customers ' names ?"],
    ["show all orders", "orders of 2020 only", "how many orders of 2020 ?", "and in 2021 ?"],
    ["list every customer"],
]


def _expected_overlap(dialogues: list[list[str]]) -> dict[tuple[int, int], float]:
    shares: dict[tuple[int, int], list[float]] = {}
    for questions in dialogues:
        words = [{w.lower() for w in q.split() if w.isalnum()} for q in questions]
        for j in range(len(words)):
            for i in range(j):
                shares.setdefault((i + 1, j + 1), []).append(len(words[j] & words[i]) / len(words[j]))
    return {cell: round(100 * sum(values) / len(values), 1) for cell, values in shares.items()}


def test_question_overlap_is_the_mean_share_of_the_later_questions_tokens_found_in_the_earlier_one():
    records = [record(n, [turn(k, q) for k, q in enumerate(qs)]) for n, qs in enumerate(DIALOGUES, start=1)]
    overlap = statistics(records)["question_overlap"]
    expected = _expected_overlap(DIALOGUES)
    assert overlap["turns"] == [1, 2, 3, 4]
    for i in range(4):
        for j in range(4):
            assert overlap["percent"][i][j] == expected.get((i + 1, j + 1)), (i, j)
    # Turn 1 to turn 2: "how", "are", "customers" of {how, old, are, the, customers} in the first dialogue (3/5);
    # "orders" of {orders, of, 2020, only} in the second (1/4).
    assert overlap["percent"][0][1] == round(100 * (3 / 5 + 1 / 4) / 2, 1) == 42.5
    assert overlap["pairs"][0][1] == 2 and overlap["pairs"][2][3] == 1 and overlap["pairs"][1][0] is None


def test_question_overlap_leaves_out_turns_without_sql():
    records = [record(1, [turn(1, "show all orders"), turn(2, "thanks", sql=None), turn(3, "orders of 2020")])]
    overlap = statistics(records)["question_overlap"]
    assert overlap["turns"] == [1, 2] and overlap["percent"][0][1] == round(100 * 1 / 3, 1)


@pytest.mark.parametrize(
    ("mention", "names", "match"),
    [
        (["customer"], ["Customer", "customer"], "exact"),
        (["customer", "name"], ["cust_name", "customer name"], "exact"),
        (["order", "date"], ["OrderDate", "order date"], "exact"),  # camelCase splits
        (["orders"], ["order_item", "order item"], "partial"),  # an English plural folds to its singular
        (["customers"], ["Customer", "customer"], "partial"),  # but an exact match is of the text as written
        (["old"], ["Age", "age"], "none"),
        (["年", "龄"], ["年龄"], "exact"),
        (["年", "纪"], ["年龄"], "partial"),
    ],
)
def test_a_links_match_type(mention, names, match):
    assert link_match(mention, names) == match


def test_link_matches_count_tables_and_columns_by_match_type():
    def link(kind, beg, end, key, number, value):
        return {"beg": beg, "end": end, "entity": {key: number, "value": value}, "type": kind}

    first = turn(1, "customer name and age of the oldest customer", links=[
        link("column", 0, 1, "columnId", 1, "cust_name"),  # "customer name": the readable name, exact
        link("column", 3, 3, "columnId", 2, "Age"),  # exact
        link("table", 7, 7, "tableId", 0, "Customer"),  # exact
    ])  # fmt: skip
    second = turn(2, "their orders by date", links=[
        link("table", 1, 1, "tableId", 1, "order_item"),  # "orders" against order / item: partial
        link("column", 3, 3, "columnId", 3, "OrderDate"),  # "date": partial
        {"beg": 0, "end": 0, "entity": {"column": "Age", "columnId": 2, "value": "30"}, "type": "value"},  # not counted
    ])  # fmt: skip
    third = turn(3, "how old are they", links=[link("column", 1, 1, "columnId", 2, "Age")])  # "old": no match
    matches = statistics([record(1, [first, second, third]), record(2, [turn(1, "nothing linked")])])["link_matches"]
    assert matches["table"] == {"exact": 1, "partial": 1, "none": 0}
    assert matches["column"] == {"exact": 2, "partial": 1, "none": 1}
    assert matches["all"] == {"exact": 3, "partial": 2, "none": 1} and matches["links"] == 6
    assert matches["turns_linked"] == 3
    assert matches["percent"] == {"exact": 50.0, "partial": round(100 * 2 / 6, 1), "none": round(100 / 6, 1)}


def _msttr(tokens: list[str], size: int = 50) -> float | None:
    segments = [tokens[start : start + size] for start in range(0, len(tokens) - size + 1, size)]
    return round(sum(len(set(s)) / size for s in segments) / len(segments), 4) if segments else None


def test_otta_msttr_and_components_are_split_by_collection_mode():
    live_questions = [" ".join(f"w{n % 30}" for n in range(k, k + 20)) for k in range(0, 120, 20)]
    solo_questions = ["how many rows ?"]
    live = record(1, [
        turn(k, q, sql="SELECT count(*) FROM a JOIN b ON a.x = b.x GROUP BY a.y ORDER BY a.y")
        for k, q in enumerate(live_questions)
    ])  # fmt: skip
    solo = record(2, [turn(1, solo_questions[0], sql="SELECT x FROM a WHERE y IN (SELECT y FROM b)")], mode="solo")
    first = record(3, [turn(1, "who is oldest ?", sql="SELECT name FROM a ORDER BY age DESC LIMIT 1")],
                   mode="query_first")  # fmt: skip
    rows = {row["mode"]: row for row in statistics([live, solo, first])["otta_by_collection"]}
    assert list(rows) == ["live", "solo", "query_first"]
    live_tokens = [w for q in live_questions for w in q.split()]
    assert rows["live"]["question_tokens"] == len(live_tokens) == 120
    assert rows["live"]["msttr"] == _msttr(live_tokens) == 0.6
    assert rows["solo"]["msttr"] is None and rows["solo"]["question_tokens"] == 4
    assert rows["live"]["components_per_query"] == {
        "JOIN": 1.0, "GROUP BY": 1.0, "ORDER BY": 1.0, "NESTED": 0.0, "HAVING": 0.0, "SET OP": 0.0, "AGG": 1.0,
    }  # fmt: skip
    assert rows["solo"]["components_per_query"]["NESTED"] == 1.0 and rows["solo"]["sql_turns"] == 1
    assert rows["query_first"]["components_per_query"]["ORDER BY"] == 1.0
    # The query-first row is the existing OTTA figure's own numbers.
    stats = statistics([live, solo, first])
    assert stats["query_first"]["components_per_query"] == rows["query_first"]["components_per_query"]


@pytest.mark.parametrize("name", ["question_overlap", "link_matches", "otta_by_collection"])
def test_the_new_figures_render_as_svg_with_their_title(name):
    linked = turn(2, "the customer", links=[{"beg": 1, "end": 1, "entity": {"tableId": 0, "value": "Customer"},
                                             "type": "table"}])  # fmt: skip
    records = [record(1, [turn(1, "how many customers ?"), linked]), record(2, [turn(1, "all customers")])]
    for stats in (statistics(records), statistics([])):
        svg = figures.render(name, stats, "svg")
        assert svg.startswith((b"<?xml", b"<svg")) and figures.FIGURES[name].encode() in svg
    assert b"no data in this selection" in figures.render(name, statistics([]), "svg")


@pytest.mark.django_db
def test_the_statistics_page_shows_the_new_tables_and_figures(client, ada, dorm_dialogue):
    client.force_login(ada)
    page = client.get(reverse("review:statistics"), {"statuses": ["completed"], "origin": "all", "seed": "1"})
    html = page.content.decode()
    assert page.status_code == 200
    for testid in ("stats-question-overlap", "stats-link-matches", "stats-otta-by-collection"):
        assert f'data-testid="{testid}"' in html
    for name in ("question_overlap", "link_matches", "otta_by_collection"):
        assert f'data-figure="{name}"' in html
        svg = client.get(reverse("review:statistics_figure", args=[name, "svg"]))
        assert svg.status_code == 200 and figures.FIGURES[name].encode() in svg.content
    data = client.get(reverse("review:statistics_json")).json()
    assert data["question_overlap"]["turns"] == [1, 2, 3] and data["otta_by_collection"][0]["mode"] == "live"
    assert data["link_matches"]["links"] > 0  # the links detected in the room are read
