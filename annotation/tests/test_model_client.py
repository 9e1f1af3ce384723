"""The model client against the test model server (tools/model_server.py): the real HTTP exchange, its timeouts and
its failures, each turned into a ModelError a screen can act on."""

import pytest

from annotation.model_client import ModelError, model_chat, model_configured
from tools.test_stack import free_port

ASK = [{"role": "system", "content": "You write SQL."}, {"role": "user", "content": "How many students are there?"}]


def _error(**kwargs) -> ModelError:
    with pytest.raises(ModelError) as raised:
        model_chat(ASK, prompt_version="test-1", **kwargs)
    return raised.value


def test_nothing_configured_means_no_model(settings):
    settings.MODEL_BASE_URL, settings.MODEL_NAME = "", ""
    assert not model_configured()
    assert _error().code == "off"


def test_a_good_answer_says_which_model_and_prompt_wrote_it(model_on, settings):
    settings.MODEL_API_KEY = "sk-secret-key"
    reply = model_chat(ASK, prompt_version="test-1")
    assert "SELECT count(*) FROM student" in reply.text
    assert (reply.model, reply.prompt_version) == ("fixture-model", "test-1")
    assert 0 <= reply.seconds < settings.MODEL_TIMEOUT_SECONDS
    (request,) = model_on.requests()
    assert request["body"]["model"] == "fixture-model"
    assert request["body"]["messages"] == ASK
    assert request["authorized"]  # the key went as a bearer token


def test_a_slow_model_is_given_up_with_a_clear_note(model_on):
    model_on.set_mode("hold")  # never answers until told: the client's own limit must end the call
    error = _error(timeout=1)
    assert error.code == "timeout"
    assert "1 seconds" in error.message


def test_a_server_error_is_unavailable(model_on):
    model_on.set_mode("error")
    error = _error()
    assert error.code == "unavailable"
    assert "HTTP 500" in error.message


def test_an_answer_that_is_not_json_is_a_bad_answer(model_on):
    model_on.set_mode("malformed")
    assert _error().code == "bad_answer"


def test_a_server_that_is_not_running_is_unavailable(settings):
    settings.MODEL_BASE_URL, settings.MODEL_NAME = f"http://127.0.0.1:{free_port()}/v1", "any"
    error = _error()
    assert (error.code, "connection refused" in error.message) == ("unavailable", True)


def test_each_person_has_a_rate_per_minute(model_on, settings, alice, erin):
    settings.MODEL_RATE_PER_MINUTE = 2
    for _ in range(2):
        model_chat(ASK, prompt_version="test-1", person_id=erin.pk)
    error = _error(person_id=erin.pk)
    assert error.code == "rate_limited"
    assert len(model_on.requests()) == 2  # the refused call never reached the model
    model_chat(ASK, prompt_version="test-1", person_id=alice.pk)  # another person still may


def test_the_key_is_never_in_an_error(settings):
    settings.MODEL_BASE_URL, settings.MODEL_NAME = f"http://127.0.0.1:{free_port()}/v1", "any"
    settings.MODEL_API_KEY = "sk-never-shown"
    assert "sk-never-shown" not in _error().message
