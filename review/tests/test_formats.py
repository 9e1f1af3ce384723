"""Format details that need no database: tokens, schemas, folding, gold files, limit quirk."""

import json

import jsonschema_rs
import pytest

from annotation.labels.tokens import utterance_toks
from annotation.sql.encoding import limit_as_one
from review.dataset import validation
from review.dataset.formats.gold import gold_text
from review.dataset.readers import unfold


def test_every_schema_is_valid_draft_2020_12():
    for kind in validation.SCHEMAS:
        assert jsonschema_rs.meta.is_valid(validation.load_schema(kind)), kind


def test_the_schemas_refuse_what_the_tools_could_not_read():
    turn = {"utterance": "q", "utterance_toks": ["q"], "query": "SELECT 1", "sql": {"select": [False, []]}}
    problems = validation.schema_errors("sparc", [{"database_id": "x", "interaction": [turn], "final": {}}])
    assert any("required property" in problem for problem in problems)
    assert any("'from' is a required property" in problem or '"from" is a required' in problem for problem in problems)


def test_gold_file_checks():
    assert validation.gold_errors(gold_text([("db", ["SELECT 1", "SELECT\t2"])])) == []
    assert validation.gold_errors("SELECT 1\tdb\n") == ["the file must end with an empty line"]
    assert validation.gold_errors("SELECT 1\n\n") == ["line 1: expected 'SQL<TAB>db_id'"]


def test_unfold_splits_alternating_parts_only():
    assert unfold("q | c | a") == ([("q", "c")], "a")
    assert unfold("q | c1 | a1 | c2 | a2") == ([("q", "c1"), ("a1", "c2")], "a2")
    assert unfold("a | b") == ([], "a | b")
    assert unfold("no fold") == ([], "no fold")


SCHEMA = {
    "db_id": "shop",
    "table_names_original": ["item", "sale"],
    "table_names": ["item", "sale"],
    "column_names_original": [[-1, "*"], [0, "id"], [0, "name"], [0, "price"], [1, "item_id"], [1, "qty"]],
    "column_names": [[-1, "*"], [0, "id"], [0, "name"], [0, "price"], [1, "item id"], [1, "qty"]],
    "column_types": ["text", "number", "text", "number", "number", "number"],
    "primary_keys": [1],
    "foreign_keys": [[4, 1]],
}


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT name FROM item ORDER BY price DESC LIMIT 3",
        "SELECT name FROM item WHERE id IN (SELECT item_id FROM sale ORDER BY qty DESC LIMIT 5)",
        "SELECT count(*) FROM (SELECT name FROM item LIMIT 7)",
        "SELECT name FROM item UNION SELECT name FROM item ORDER BY name LIMIT 2",
        "SELECT name FROM item WHERE price > (SELECT avg(price) FROM item LIMIT 4) LIMIT 9",
        "SELECT name FROM item",
    ],
)
def test_limit_as_one_equals_encoding_with_the_quirk(sql):
    from annotation.sql.spider import encode_sql

    kept = encode_sql(sql, SCHEMA, limit_mode="value")
    before = json.dumps(kept)
    assert limit_as_one(kept) == encode_sql(sql, SCHEMA, limit_mode="one")
    assert json.dumps(kept) == before  # the input is left as it was


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("What's the name of that semester?", ["What", "'s", "the", "name", "of", "that", "semester", "?"]),
        ('the word "computer"', ["the", "word", "``", "computer", "''"]),
        ("Ok. Who graduated?", ["Ok.", "Who", "graduated", "?"]),
        ("who cannot", ["who", "can", "not"]),
        ("哪些球队拿过NBA总冠军？", ["哪", "些", "球", "队", "拿", "过", "NBA", "总", "冠", "军", "？"]),
    ],
)
def test_utterance_tokens(text, tokens):
    assert utterance_toks(text) == tokens


@pytest.mark.conformance
@pytest.mark.parametrize("sample", ["sparc_dev_sample.json", "cosql_dev_sample.json", "chase_dev_sample.json"])
def test_tokens_match_the_releases(shared_path, sample):
    turns = [turn for item in json.loads(shared_path("samples", sample).read_text()) for turn in item["interaction"]]
    different = [turn["utterance"] for turn in turns if utterance_toks(turn["utterance"]) != turn["utterance_toks"]]
    print(f"{sample} utterance_toks: {len(turns) - len(different)}/{len(turns)}")
    assert not different, different[:5]


def test_schema_links_move_onto_the_tokens_of_a_folded_turn():
    from review.dataset.formats.chase import chase_links

    span = {"beg": 1, "end": 1, "entity": {"tableId": 1, "value": "dorm"}, "type": "table"}
    own = ["the", "dorms"]
    folded = ["big", "dorms", "?", "|", "which", "ones", "?", "|", "the", "dorms"]
    assert chase_links([span], own=own, tokens=folded) == [{**span, "beg": 9, "end": 9}]
    # Tokenised differently once folded (a Chinese part splits the whole text by character): found by its words.
    assert chase_links([span], own=own, tokens=["宿", "舍", " ", "|", " ", "the", " ", "dorms"]) == [
        {**span, "beg": 7, "end": 7}
    ]
    assert chase_links([span], own=own, tokens=["宿", "舍"]) is None
