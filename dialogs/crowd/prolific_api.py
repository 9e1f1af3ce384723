"""The platform's one client of Prolific's researcher API (docs/prolific_api.md says which endpoints, and why each is
retried or not). Off unless PROLIFIC_API_TOKEN is set; PROLIFIC_API_URL names the server (Prolific's own, or the
loopback stand-in of the tests, tools/prolific_server.py).

Standard library HTTP only, as annotation.model_client: every failure becomes a `ProlificError` whose `code` a screen
acts on and whose `message` a person reads. Every attempt is recorded (`ProlificCall`: who, when, what, why, the
answer's status and a summary) after it ends, never inside a database transaction, and never with the token: it goes
in the Authorization header only, and is cut out of anything an answer echoes.

Retries, one policy per request (`Retry`):
- SAFE: reads, and writes Prolific documents as idempotent (a submission's approval or rejection). Retried after a
  429 (waiting what Retry-After asks, within RETRY_WAIT_MAX_SECONDS), a 5xx, a timeout or a lost connection.
- REFUSED_ONLY: writes whose repetition would do the thing twice (a new draft study, a study's transition, which the
  caller checks by reading the study back). Retried only when Prolific certainly did nothing: a 429, or a connection
  that was never made. Any other failure is reported with `outcome_unknown` set.
- NEVER: paying a bulk bonus. Never repeated here, whatever happened: the caller records the attempt first and reads
  Prolific's records before anything else (dialogs.crowd.prolific).
"""

import enum
import http.client
import json
import logging
import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext

from annotation.sql.sandbox import refuse_inside_transaction
from dialogs.models import ProlificCall

logger = logging.getLogger(__name__)

# The most attempts one request gets, and the longest wait between two: a page waits for these, so they stay short.
ATTEMPTS = 3
RETRY_WAIT_MAX_SECONDS = 10.0
# Between attempts without a Retry-After: 0.5 s, then 1 s.
BACKOFF_SECONDS = (0.5, 1.0)
# An answer longer than this is not an answer of this API (a page of submissions is a few hundred kB at most).
ANSWER_MAX_BYTES = 8 * 1024 * 1024
SUMMARY_MAX_CHARS = 500


class Retry(enum.Enum):
    SAFE = "safe"
    REFUSED_ONLY = "refused_only"
    NEVER = "never"


class ProlificError(Exception):
    """A call to Prolific that did not succeed, or one refused before it was made.

    `code`: off, forbidden, invalid (refused here, nothing sent); auth (the token was refused), rate_limited,
    server (a 5xx), timeout, unreachable, refused (another 4xx: Prolific said no), bad_answer. `status` is the HTTP
    status when Prolific answered. `outcome_unknown`: the request may have reached Prolific and been carried out
    although no success came back (a timeout, a lost connection, a 5xx)."""

    def __init__(self, code: str, message: str, *, status: int | None = None, outcome_unknown: bool = False):
        super().__init__(message)
        self.code, self.message, self.status, self.outcome_unknown = code, message, status, outcome_unknown


@dataclass(frozen=True)
class ProlificAnswer:
    status: int
    data: object


def prolific_configured() -> bool:
    """Whether the integration is on: a token is set. Every screen and service asks this first."""
    return bool(settings.PROLIFIC_API_TOKEN)


def off_error() -> ProlificError:
    return ProlificError(
        "off",
        gettext(
            "The Prolific integration is off: set PROLIFIC_API_TOKEN (a token from Prolific's API tokens page) in the "
            "platform's environment and restart it."
        ),
    )


def prolific_request(
    method: str,
    path: str,
    *,
    purpose: str,
    retry: Retry,
    body: dict | None = None,
    query: dict | None = None,
    campaign=None,
    by=None,
) -> ProlificAnswer:
    """Send one request to Prolific (`path` from /api/v1/), retrying as `retry` allows, and return its answer.

    Every attempt is audited as a `ProlificCall` with `purpose` (one of ProlificCall.Purpose), the campaign and the
    person it was made for. Raises ProlificError. Blocks for up to ATTEMPTS × PROLIFIC_TIMEOUT_SECONDS plus the
    waits: never call it inside a database transaction (refused) or on a thread others wait on."""
    if not prolific_configured():
        raise off_error()
    refuse_inside_transaction("a call to Prolific")
    url = f"{settings.PROLIFIC_API_URL.rstrip('/')}/api/v1/{path.lstrip('/')}"
    if query:
        url += "?" + urlencode(query)
    attempt = 0
    while True:
        attempt += 1
        started = time.monotonic()
        try:
            status, headers, raw = _exchange(method, url, body)
        except ProlificError as error:
            _audit(method, path, purpose, campaign, by, None, error.message, started, attempt)
            if attempt < ATTEMPTS and _may_repeat(retry, error):
                time.sleep(BACKOFF_SECONDS[min(attempt, len(BACKOFF_SECONDS)) - 1])
                continue
            raise
        data = _decode(raw)
        summary = _summary(status, data)
        _audit(method, path, purpose, campaign, by, status, summary, started, attempt)
        if 200 <= status < 300:
            return ProlificAnswer(status, data)
        error = _status_error(status, data, headers, method)
        if attempt < ATTEMPTS and _may_repeat(retry, error):
            time.sleep(_wait_before_retry(headers, attempt))
            continue
        if error.code == "rate_limited" and attempt > 1:
            error.message = gettext("%(message)s It was tried %(attempts)s times.") % {
                "message": error.message,
                "attempts": attempt,
            }
        raise error


def _may_repeat(retry: Retry, error: ProlificError) -> bool:
    if retry is Retry.NEVER:
        return False
    # A 429, or a connection never made (refused, or timed out while connecting): Prolific did nothing.
    never_arrived = error.code in ("unreachable", "timeout") and not error.outcome_unknown
    certainly_not_done = error.code == "rate_limited" or never_arrived
    if retry is Retry.REFUSED_ONLY:
        return certainly_not_done
    return certainly_not_done or error.code in ("server", "timeout", "unreachable")


def _wait_before_retry(headers, attempt: int) -> float:
    """What Retry-After asks (seconds, or an HTTP date), within RETRY_WAIT_MAX_SECONDS; else the backoff."""
    value = (headers.get("Retry-After") or "").strip() if headers else ""
    wait = None
    if value.isdigit():
        wait = float(value)
    elif value:
        try:
            wait = (parsedate_to_datetime(value) - timezone.now()).total_seconds()
        except (TypeError, ValueError):
            wait = None
    if wait is None:
        wait = BACKOFF_SECONDS[min(attempt, len(BACKOFF_SECONDS)) - 1]
    return max(0.0, min(wait, RETRY_WAIT_MAX_SECONDS))


def _exchange(method: str, url: str, body: dict | None):
    """One HTTP exchange within PROLIFIC_TIMEOUT_SECONDS: (status, headers, body bytes), or ProlificError."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ProlificError("unreachable", gettext("PROLIFIC_API_URL is not an http(s) address."))
    limit = settings.PROLIFIC_TIMEOUT_SECONDS
    connection_class = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    connection = connection_class(parts.hostname, parts.port, timeout=limit)
    headers = {"Authorization": f"Token {settings.PROLIFIC_API_TOKEN}", "Accept": "application/json"}
    payload = None
    if body is not None:
        payload = json.dumps(body).encode("utf-8")
        headers["Content-Type"] = "application/json"
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    deadline = time.monotonic() + limit
    sent = False
    try:
        connection.connect()
        sent = True  # from here on, Prolific may have the request
        connection.request(method, target, body=payload, headers=headers)
        _time_left(connection, deadline)
        response = connection.getresponse()
        chunks, size = [], 0
        while True:
            _time_left(connection, deadline)
            chunk = response.read1(65536)
            if not chunk:
                break
            size += len(chunk)
            if size > ANSWER_MAX_BYTES:
                raise ProlificError("bad_answer", gettext("Prolific's answer was far too long to be one of its API's."))
            chunks.append(chunk)
        return response.status, response.headers, b"".join(chunks)
    except TimeoutError as exc:  # socket.timeout is TimeoutError since Python 3.10
        raise ProlificError(
            "timeout",
            gettext("Prolific did not answer within %(seconds)s seconds.") % {"seconds": f"{limit:g}"},
            outcome_unknown=sent,
        ) from exc
    except ConnectionRefusedError as exc:
        raise ProlificError("unreachable", gettext("Prolific could not be reached (connection refused).")) from exc
    except (OSError, http.client.HTTPException) as exc:
        # A connection that closed before the answer (RemoteDisconnected, a reset): whatever was asked may be done.
        raise ProlificError(
            "unreachable",
            gettext("The connection to Prolific broke before its answer arrived (%(error)s).")
            % {"error": type(exc).__name__},
            outcome_unknown=sent,
        ) from exc
    finally:
        connection.close()


def _time_left(connection, deadline: float) -> None:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError
    if connection.sock is not None:
        connection.sock.settimeout(left)


def _decode(raw: bytes):
    if not raw:
        return None
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return raw.decode("utf-8", "replace")


def _detail(data) -> str:
    """What Prolific said was wrong, in one line (its errors come as {"error": {"detail": ...}})."""
    detail = data
    if isinstance(data, dict):
        detail = data.get("error", data)
        if isinstance(detail, dict):
            detail = detail.get("detail", detail)
    if isinstance(detail, dict):
        return "; ".join(
            f"{key}: {' '.join(map(str, value)) if isinstance(value, list) else value}" for key, value in detail.items()
        )
    return str(detail or "").strip()


def _status_error(status: int, data, headers, method: str) -> ProlificError:
    detail = _scrub(_detail(data))[:300]
    if status in (401, 403):
        return ProlificError(
            "auth",
            gettext(
                "Prolific refused this platform's API token (HTTP %(status)s): check PROLIFIC_API_TOKEN; a deleted or "
                "mistyped token is refused."
            )
            % {"status": status},
            status=status,
        )
    if status == 429:
        wait = (headers.get("Retry-After") or "").strip() if headers else ""
        message = (
            gettext("Prolific is limiting requests (HTTP 429). Prolific asked to wait %(seconds)s s.")
            % {"seconds": wait}
            if wait
            else gettext("Prolific is limiting requests (HTTP 429).")
        )
        return ProlificError("rate_limited", message, status=status)
    if status >= 500:
        return ProlificError(
            "server",
            gettext("Prolific had an error of its own (HTTP %(status)s) and did not say whether it did what was asked.")
            % {"status": status},
            status=status,
            outcome_unknown=method != "GET",
        )
    return ProlificError(
        "refused",
        (
            gettext("Prolific refused the request (HTTP %(status)s): %(detail)s.")
            % {"status": status, "detail": detail}
            if detail
            else gettext("Prolific refused the request (HTTP %(status)s).") % {"status": status}
        ),
        status=status,
    )


def _scrub(text: str) -> str:
    """`text` without the token, were an answer to echo it."""
    token = settings.PROLIFIC_API_TOKEN
    return text.replace(token, "[token]") if token else text


def _summary(status: int, data) -> str:
    """A line on what came back: the object's id and status where it has them, else what Prolific said."""
    if isinstance(data, dict) and 200 <= status < 300:
        parts = []
        if isinstance(data.get("results"), list):
            parts.append(f"{len(data['results'])} result(s)")
        for key in ("id", "status", "total_amount"):
            if data.get(key) not in (None, ""):
                parts.append(f"{key} {data[key]}")
        text = ", ".join(parts) or "ok"
    else:
        text = _detail(data) or ("ok" if 200 <= status < 300 else "")
    return _scrub(f"HTTP {status}: {text}")[:SUMMARY_MAX_CHARS]


def _audit(method, path, purpose, campaign, by, status, summary, started, attempt) -> None:
    """Record one attempt. Its own short write, after the exchange: an audit row never holds a transaction open
    across the network."""
    try:
        ProlificCall.objects.create(
            campaign=campaign,
            made_by=by if getattr(by, "pk", None) else None,
            purpose=purpose,
            method=method,
            path=f"/api/v1/{path.lstrip('/')}"[:300],
            status=status,
            attempt=attempt,
            summary=_scrub(summary or "no answer")[:SUMMARY_MAX_CHARS],
            milliseconds=round(1000 * (time.monotonic() - started)),
        )
    except Exception:  # the call happened whatever the audit's fate: say so loudly, do not hide the call's outcome
        logger.exception("could not record a Prolific call (%s %s, %s)", method, path, purpose)
