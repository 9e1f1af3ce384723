"""The platform's one client of a language model: an OpenAI-compatible chat-completions endpoint chosen by
MODEL_BASE_URL, MODEL_API_KEY and MODEL_NAME (README "Model assistance", docs/model_assistance.md). Nothing set means
no model features anywhere: every screen and message that would use a model asks `model_configured()` first.

Standard library HTTP only: one POST and one JSON answer need no client library, and every failure is turned here
into a `ModelError` with a code a screen can act on and a message a person can read. The key is sent as a bearer
token and never written to a log or an error.
"""

import http.client
import json
import logging
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from django.utils.translation import gettext, ngettext

logger = logging.getLogger(__name__)

# An answer longer than this is not a chat completion of a few hundred tokens: it is refused, not read into memory.
ANSWER_MAX_BYTES = 1024 * 1024

ERROR_CODES = frozenset({"off", "timeout", "unavailable", "bad_answer", "rate_limited"})


class ModelError(Exception):
    """A model call that gave no answer. `code` is one of ERROR_CODES; `message` says what happened, for people."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


@dataclass(frozen=True)
class ModelReply:
    """A model's answer: its text, the model that wrote it (as the endpoint names it), the version of the prompt it
    was asked with, and how long the call took."""

    text: str
    model: str
    prompt_version: str
    seconds: float


def model_configured() -> bool:
    """Whether a model endpoint is set up (a base URL and a model name)."""
    return bool(settings.MODEL_BASE_URL and settings.MODEL_NAME)


def model_call_allowed(person_id: int) -> bool:
    """Count one model call started by `person_id`; False once MODEL_RATE_PER_MINUTE were started this minute.
    Counted in the cache, as a socket's openings are (dialogs.transport.socket_open_allowed): per process unless the
    deployment shares one cache."""
    key = f"model-calls:{person_id}:{int(timezone.now().timestamp() // 60)}"
    cache.add(key, 0, timeout=120)
    try:
        return cache.incr(key) <= settings.MODEL_RATE_PER_MINUTE
    except ValueError:  # expired between the two calls: the first of a new minute
        cache.add(key, 1, timeout=120)
        return True


def rate_limited_error() -> ModelError:
    return ModelError(
        "rate_limited",
        ngettext(
            "You asked the model %(count)s time this minute, the most allowed: wait a moment.",
            "You asked the model %(count)s times this minute, the most allowed: wait a moment.",
            settings.MODEL_RATE_PER_MINUTE,
        )
        % {"count": settings.MODEL_RATE_PER_MINUTE},
    )


def model_chat(
    messages: list[dict],
    *,
    prompt_version: str,
    person_id: int | None = None,
    max_tokens: int = 512,
    temperature: float = 0.0,
    timeout: float | None = None,
) -> ModelReply:
    """Ask the configured model to continue `messages` (chat-completions roles and contents) and return its answer.

    `person_id`, when given, counts the call against that person's MODEL_RATE_PER_MINUTE (ModelError `rate_limited`
    beyond it); a caller that counted the call already passes None. The whole call, from connecting to the last byte,
    is given up after `timeout` seconds (MODEL_TIMEOUT_SECONDS by default). Blocks: callers run it off any thread
    that others wait on. ModelError codes: off, timeout, unavailable, bad_answer, rate_limited.
    """
    if not model_configured():
        raise ModelError("off", gettext("No model is set up on this platform."))
    if person_id is not None and not model_call_allowed(person_id):
        raise rate_limited_error()
    limit = settings.MODEL_TIMEOUT_SECONDS if timeout is None else timeout
    body = {
        "model": settings.MODEL_NAME,
        "messages": messages,
        "max_tokens": max_tokens,
        "temperature": temperature,
    }
    started = time.monotonic()
    status, raw = _post_json(f"{settings.MODEL_BASE_URL.rstrip('/')}/chat/completions", body, limit)
    seconds = round(time.monotonic() - started, 3)
    if status == 429:
        raise ModelError(
            "rate_limited", gettext("The model's server is busy with too many requests (HTTP 429): try later.")
        )
    if status in (401, 403):
        raise ModelError(
            "unavailable",
            gettext("The model's server refused this platform's key (HTTP %(status)s).") % {"status": status},
        )
    if status >= 400:
        raise ModelError(
            "unavailable", gettext("The model's server answered with an error (HTTP %(status)s).") % {"status": status}
        )
    text, model = _completion_text(raw)
    logger.info("model %s answered in %.2f s (prompt %s)", model, seconds, prompt_version)
    return ModelReply(text=text, model=model, prompt_version=prompt_version, seconds=seconds)


def _post_json(url: str, body: dict, limit: float) -> tuple[int, bytes]:
    """POST `body` as JSON; (status, body bytes), the whole exchange within `limit` seconds."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ModelError("unavailable", gettext("MODEL_BASE_URL is not an http(s) address."))
    connection_class = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    deadline = time.monotonic() + limit
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if settings.MODEL_API_KEY:
        headers["Authorization"] = f"Bearer {settings.MODEL_API_KEY}"
    connection = connection_class(parts.hostname, parts.port, timeout=limit)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    try:
        connection.request("POST", path, body=json.dumps(body).encode("utf-8"), headers=headers)
        _time_left(connection, deadline)
        response = connection.getresponse()
        chunks, size = [], 0
        while True:
            # A socket timeout bounds each read; the deadline bounds them all (a server trickling bytes is given up).
            _time_left(connection, deadline)
            chunk = response.read1(65536)
            if not chunk:
                break
            size += len(chunk)
            if size > ANSWER_MAX_BYTES:
                raise ModelError("bad_answer", gettext("The model's answer was far too long to be a chat completion."))
            chunks.append(chunk)
        return response.status, b"".join(chunks)
    except TimeoutError as exc:  # socket.timeout is TimeoutError since Python 3.10
        raise ModelError(
            "timeout", gettext("The model did not answer within %(seconds)s seconds.") % {"seconds": f"{limit:g}"}
        ) from exc
    except ConnectionRefusedError as exc:
        raise ModelError("unavailable", gettext("The model's server is not running (connection refused).")) from exc
    except (OSError, http.client.HTTPException) as exc:
        raise ModelError(
            "unavailable",
            gettext("The model's server could not be reached (%(error)s).") % {"error": type(exc).__name__},
        ) from exc
    finally:
        connection.close()


def _time_left(connection: http.client.HTTPConnection, deadline: float) -> None:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError
    if connection.sock is not None:
        connection.sock.settimeout(left)


def _completion_text(raw: bytes) -> tuple[str, str]:
    """The first choice's message text and the model's name from a chat-completions answer, or ModelError."""
    try:
        answer = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise ModelError("bad_answer", gettext("The model's server answered with something that is not JSON.")) from exc
    try:
        text = answer["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError) as exc:
        raise ModelError(
            "bad_answer", gettext("The model's answer holds no message (no choices[0].message.content).")
        ) from exc
    if not isinstance(text, str):
        raise ModelError("bad_answer", gettext("The model's answer holds no text."))
    model = answer.get("model") if isinstance(answer.get("model"), str) else ""
    return text, model or settings.MODEL_NAME
