"""An export's large files written a part at a time (review/dataset/writer.py `write_json_parts`): the same bytes
as the whole written at once, validated part by part with problems placed where they are in the file. No database."""

import json

import pytest

from review.dataset import validation
from review.dataset.writer import write_json, write_json_parts

ITEMS = [{"b": [1, 2.5e-7, {"x": "é\n\t"}], "a": number, "c": {}, "d": []} for number in range(23)]
SPLITS_OF_ITEMS = ([], [[]], [ITEMS], [ITEMS[:5], [], ITEMS[5:12], ITEMS[12:]])


@pytest.mark.parametrize("indent", [True, False])
@pytest.mark.parametrize("sort_keys", [False, True])
@pytest.mark.parametrize("parts", SPLITS_OF_ITEMS, ids=["none", "empty", "one", "several"])
def test_a_list_in_parts_has_the_bytes_of_the_whole(tmp_path, indent, sort_keys, parts):
    whole = [item for part in parts for item in part]
    write_json(tmp_path / "whole.json", whole, kind=None, sort_keys=sort_keys, indent=indent)
    write_json_parts(tmp_path / "parts.json", iter(parts), kind=None, sort_keys=sort_keys, indent=indent)
    assert (tmp_path / "parts.json").read_bytes() == (tmp_path / "whole.json").read_bytes()


@pytest.mark.parametrize("indent", [True, False])
def test_an_object_in_parts_has_the_bytes_of_the_whole(tmp_path, indent):
    keyed = {str(number): item for number, item in enumerate(ITEMS)}
    for parts in ([], [{}], [keyed], [dict(list(keyed.items())[:7]), {}, dict(list(keyed.items())[7:])]):
        whole = {key: value for part in parts for key, value in part.items()}
        write_json(tmp_path / "whole.json", whole, kind=None, indent=indent)
        write_json_parts(tmp_path / "parts.json", iter(parts), kind=None, indent=indent, container=dict)
        assert (tmp_path / "parts.json").read_bytes() == (tmp_path / "whole.json").read_bytes()


def test_a_part_that_breaks_the_schema_is_placed_in_the_file_and_leaves_no_file(tmp_path):
    good = {"database_id": "db", "utterance": "hi", "utterance_toks": ["hi"], "intent": ["GREETING"]}
    parts = [[good, good], [good, {**good, "intent": []}]]
    with pytest.raises(validation.SchemaViolation, match=r"^cosql_train\.json does not match .*: 3/intent"):
        write_json_parts(tmp_path / "cosql_train.json", iter(parts), kind="cosql_user_intent", indent=False)
    assert list(tmp_path.iterdir()) == []


TEXTS = ["[]", " [ ] ", '[1, {"a": [1, 2]}, "x", 123456, -1.5e-7, null, true]', '[\n {\n  "a": "é\\n"\n },\n {}\n]']
OBJECTS = ["{}", '{"a": 1, "b": {"c": [1]}, "é": "\\u00e9"}', ' { "x" : [ ] , "y": 12345 } ']
BROKEN = ["[1,", "[1 2]", "[1]x", '{"a" 1}', "", "[", "[1,]", '["abc', '{"a": 1,}']


@pytest.mark.parametrize("read", [3, 7, 1 << 22])
def test_items_are_read_from_a_file_a_piece_at_a_time(tmp_path, monkeypatch, read):
    from annotation.plumbing import jsoncodec

    monkeypatch.setattr(jsoncodec._Items, "READ", read)
    for text, opening in [(text, "[") for text in TEXTS] + [(text, "{") for text in OBJECTS]:
        (tmp_path / "f.json").write_text(text, encoding="utf-8")
        with open(tmp_path / "f.json", "rb") as handle:
            got = list(jsoncodec.iter_items(handle, opening=opening))
        assert (got if opening == "[" else dict(got)) == json.loads(text), text
        assert list(jsoncodec.iter_items(text, opening=opening)) == got
    for text in BROKEN:
        (tmp_path / "f.json").write_text(text, encoding="utf-8")
        opening = "{" if text.startswith("{") else "["
        with open(tmp_path / "f.json", "rb") as handle, pytest.raises(ValueError):
            list(jsoncodec.iter_items(handle, opening=opening))
