"""annotation/plumbing/jsoncodec.py: orjson where it can, the json module where orjson refuses, and the event log read
the same
either way."""

import json

import pytest

from annotation.plumbing import jsoncodec


def test_round_trip_keeps_what_the_json_module_keeps():
    value = {"text": "Combien d’élèves ? 学生", "rows": [[1, 2.5, None, True, "x"]], "nested": {"a": [{}]}}
    text = jsoncodec.dumps(value)
    assert json.loads(text) == value
    assert "学生" in text  # characters as they are, not \u-escaped
    assert jsoncodec.loads(text) == value
    assert jsoncodec.loads(text.encode("utf-8")) == value


def test_sorted_keys():
    assert jsoncodec.dumps({"b": 1, "a": [1]}, sort_keys=True) == '{"a":[1],"b":1}'


def test_what_orjson_refuses_falls_back():
    # Integers beyond 64 bits: written and read by the json module.
    huge = 2**70
    assert json.loads(jsoncodec.dumps({"n": huge})) == {"n": huge}
    assert jsoncodec.loads(json.dumps({"n": huge})) == {"n": huge}
    # Keys that are not strings are written as the json module writes them.
    assert json.loads(jsoncodec.dumps({1: "a"})) == {"1": "a"}
    # NaN and Infinity, as the json module wrote them into older payloads, are still read.
    again = jsoncodec.loads('{"x": NaN, "y": Infinity}')
    assert again["x"] != again["x"] and again["y"] == float("inf")
    # A float that is no number is written as null: NaN is no JSON, and a browser's JSON.parse refuses it.
    assert jsoncodec.dumps({"x": float("nan")}) == '{"x":null}'


def test_not_json_is_an_error():
    with pytest.raises(ValueError):
        jsoncodec.loads("{not json")
    with pytest.raises(TypeError):
        jsoncodec.dumps({"x": object()})


@pytest.mark.django_db
def test_event_payload_read_through_the_codec(demo_databases):
    from dialogs.models import Event
    from tests.builders import dorm_dialogue

    dialogue, _, _ = dorm_dialogue(demo_databases)
    event = Event.objects.create(dialogue=dialogue, seq=1, kind="utterance", payload={"text": "é", "n": [1, 2]})
    assert Event.objects.get(pk=event.pk).payload == {"text": "é", "n": [1, 2]}
    assert Event.objects.values_list("payload__text", flat=True).get(pk=event.pk) == "é"


def _indented(value, sort_keys=False) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1, sort_keys=sort_keys)


# Floats where orjson and Python's repr part (one-digit exponents, decimals below 0.0001) and where they agree.
_FLOATS = [1e-07, -1e-07, 1.5212603486793025e-05, -6.389814116186164e-05, 1e-05, 0.0001, 1e16, 1.5e17, 5e-324]
_FLOATS += [2000.0, -0.0, 0.1, 1e300, 1.2345678901234568e17, 123456780000000.0, 3.14e-10, 10.00001]


def _random_value(rng, depth=0):
    """A JSON value as releases hold them and worse: nesting, empty containers, tuples, numeric keys, floats of every
    range, and strings holding quotes, backslashes, newlines, control characters, number-like text and a leading
    space (which the re-indentation must not touch)."""
    pick = rng.random()
    if depth > 7 or pick < 0.45:
        return rng.choice(
            [
                lambda: rng.randint(-(2**63), 2**63 - 1),
                lambda: rng.choice(_FLOATS),
                lambda: rng.uniform(-1, 1) * 10 ** rng.randint(-12, 20),
                lambda: "".join(
                    rng.choice(["a", "é", '"', "\\", "\n", "\t", "\x01", " ", "1", "e-", "0.0000", ",", "𝄞"])
                    for _ in range(rng.randint(0, 9))
                ),
                lambda: None,
                lambda: rng.random() < 0.5,
            ]
        )()
    if pick < 0.75:
        return [_random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    if pick < 0.82:
        return tuple(_random_value(rng, depth + 1) for _ in range(rng.randint(0, 3)))
    return {
        (f" k{rng.random()}\n" if rng.random() < 0.9 else rng.randint(0, 99)): _random_value(rng, depth + 1)
        for _ in range(rng.randint(0, 4))
    }


def test_indented_text_is_the_json_modules_byte_for_byte():
    import random

    rng = random.Random(20261126)
    compared = 0
    for _ in range(2000):
        value = _random_value(rng)
        for sort_keys in (False, True):
            try:
                expected = _indented(value, sort_keys)
            except TypeError:  # numeric and text keys mixed: the json module cannot sort them
                continue
            assert jsoncodec.dumps_indented(value, sort_keys=sort_keys) == expected.encode("utf-8"), expected
            compared += 1
    assert compared > 3000
    for (
        number
    ) in _FLOATS:  # a text that is one number, and the same numbers at the end of lines, with and without a comma
        assert jsoncodec.dumps_indented(number) == _indented(number).encode()
        assert jsoncodec.dumps_indented({"a": [number, number]}) == _indented({"a": [number, number]}).encode()


def test_indented_text_is_the_same_whatever_the_chunks(monkeypatch):
    # Re-indentation works a few MiB of lines at a time; chunks of a few bytes put lines of every depth at their ends.
    import random

    rng = random.Random(7)
    values = [_random_value(rng) for _ in range(300)]
    for chunk in (1, 7, 64):
        monkeypatch.setattr(jsoncodec, "_CHUNK", chunk)
        for value in values:
            try:
                expected = _indented(value)
            except TypeError:
                continue
            assert jsoncodec.dumps_indented(value) == expected.encode("utf-8")


def test_indented_text_falls_back_where_orjson_refuses():
    value = {"n": [2**70, {"deep": 1e-07}]}
    assert jsoncodec.dumps_indented(value) == _indented(value).encode()
    # Keys that are not strings: sorted by value (9 before 10), a float key spelt by repr, as the json module does.
    for value in ({10: "a", 9: "b", 100: "c"}, {"x": {1e-05: 1, True: 2, None: 3}}):
        for sort_keys in (False, True):
            if sort_keys and None in value.get("x", {}):
                continue  # the json module cannot sort keys of different types either
            assert jsoncodec.dumps_indented(value, sort_keys=sort_keys) == _indented(value, sort_keys).encode()
    # A float that is no number: null, as the compact writer writes it (the json module's NaN is no JSON).
    assert jsoncodec.dumps_indented([float("nan")]) == b"[\n null\n]"


def test_packed_reads_like_the_dict_it_holds():
    table = {"columns": ["name", "n"], "rows": [["Zoë", 1], ["Bo", 2**70]], "row_count": 2, "truncated": False}
    packed = jsoncodec.Packed(table)
    # The compact text, not the dict.
    compact = b'{"columns":["name","n"],"rows":[["Zo\xc3\xab",1],["Bo",%d]],"row_count":2,"truncated":false}'
    assert packed.text == compact % 2**70
    assert dict(packed) == table  # the integer beyond 64 bits too (orjson refuses it: the json module writes it)
    assert packed["rows"][0] == ["Zoë", 1] and packed.get("total_rows") is None and "columns" in packed
    other = jsoncodec.Packed({"columns": ["x"], "rows": []})
    # Reads of two tables in turn each give their own (the one kept decoded is the last read).
    assert packed.get("columns") == ["name", "n"] and other.get("columns") == ["x"] and len(packed) == 4
    with pytest.raises(KeyError):
        packed["missing"]


def test_records_of_an_export_pack_the_tables_shown(demo_databases):
    """An export's records keep each result table as its text (review.records.dialogue_records(pack_tables=True)); the
    records read alike, and a turn and its message still hold one table."""
    from dialogs.models import Dialogue
    from review.records import dialogue_records
    from tests.builders import reviewable_dialogue

    questions = [
        ("How many dorms?", "SELECT count(*) FROM dorm"),
        ("Their names?", "SELECT dorm_name FROM dorm"),
        ("And their capacity?", "SELECT dorm_name, student_capacity FROM dorm"),
    ]
    selection = Dialogue.objects.filter(pk=reviewable_dialogue("dorm_demo", questions))
    plain, packed = dialogue_records(selection)[0], dialogue_records(selection, pack_tables=True)[0]
    shared = [turn for turn in packed.user_turns if turn.shown is not None]
    assert shared and all(isinstance(turn.shown, jsoncodec.Packed) for turn in shared)
    items = [item for kind, item in packed.messages if kind == "sql"]
    assert {id(item["shown"]) for item in items} >= {id(turn.shown) for turn in shared}
    assert [dict(turn.shown) for turn in shared] == [turn.shown for turn in plain.user_turns if turn.shown is not None]
