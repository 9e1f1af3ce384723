"""bench/chat_load.py refuses a round its workers could not end, before it starts any server."""

import pytest

from bench import chat_load


def test_fewer_questions_than_a_dialogue_needs_is_refused(monkeypatch, capsys):
    monkeypatch.delenv("DIALOGUE_MIN_QUESTIONS", raising=False)
    with pytest.raises(SystemExit) as refused:
        chat_load.parse_args(["--questions", "2"])
    assert refused.value.code == 2
    assert "--questions 2 is below the 3 questions a dialogue needs" in capsys.readouterr().err
    assert chat_load.parse_args(["--questions", "3"]).questions == 3
    # The servers take the minimum from the same environment: a lower one allows fewer questions.
    monkeypatch.setenv("DIALOGUE_MIN_QUESTIONS", "2")
    assert chat_load.parse_args(["--questions", "2"]).questions == 2
