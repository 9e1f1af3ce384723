"""annotation/jsoncodec.py: orjson where it can, the json module where orjson refuses, and the event log read the same
either way."""

import json

import pytest

from annotation import jsoncodec


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
