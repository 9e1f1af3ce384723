"""A stand-in for Prolific's researcher API on loopback, for the tests and for a lab rehearsing a campaign offline.

    python tools/prolific_server.py --port 8766 --token rehearsal-token

It speaks the part of the API the platform uses, as docs/prolific_api.md describes it: studies (create a draft,
list, read, transition: PUBLISH, PAUSE, START, STOP), submissions (list a study's, read one with its bonus payments,
approve or reject with a category and a message), and bulk bonus payments (set up from `participant_id,amount` lines,
then pay). Every request needs `Authorization: Token <token>`. Paying the same bulk bonus twice pays it twice, as
Prolific warns: the tests count how often each one was paid.

Its state and its failures are driven at runtime, so one server serves a whole test session:
    POST /control/reset {"token": "..."}     forget everything; this token is the one accepted from now on
    POST /control/submissions {"study": id, "submissions": [{"id", "participant", "status"}]}   participants arrive
    POST /control/faults {"faults": [fault, ...]}   the next requests that match fail so:
        {"method": "POST", "path": "/pay/$", "kind": "status", "status": 500, "retry_after": "1", "times": 1}
        {"kind": "timeout", "seconds": 5}      no answer: the connection is held, then closed
        {"kind": "lose_response"}              the request is carried out, then the connection closes unanswered
    GET  /control                             the requests received (never the token: whether it was right), and state
Nothing here reaches the network beyond loopback, and nothing is paid.
"""

import argparse
import contextlib
import json
import re
import secrets
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

# The token the tests' server accepts and the tests' platform sends (conftest.py): not a secret of anyone's.
TEST_TOKEN = "wozsql-prolific-test-token-0123456789"
STUDY_TRANSITIONS = {
    # action → (the statuses it applies to, the status it leads to)
    "PUBLISH": ({"UNPUBLISHED"}, "ACTIVE"),
    "PAUSE": ({"ACTIVE"}, "PAUSED"),
    "START": ({"PAUSED"}, "ACTIVE"),
    "STOP": ({"ACTIVE", "PAUSED"}, "AWAITING REVIEW"),
}
REJECTION_CATEGORIES = {
    "TOO_QUICKLY",
    "TOO_SLOWLY",
    "FAILED_INSTRUCTIONS",
    "INCOMP_LONGITUDINAL",
    "FAILED_CHECK",
    "LOW_EFFORT",
    "MALINGERING",
    "NO_CODE",
    "BAD_CODE",
    "NO_DATA",
    "UNSUPP_DEVICE",
    "OTHER",
}
STUDY_FIELDS = (
    "name",
    "description",
    "external_study_url",
    "prolific_id_option",
    "completion_codes",
    "total_available_places",
    "estimated_completion_time",
    "reward",
)


def _new_id() -> str:
    return secrets.token_hex(12)  # Prolific's ids are 24 hexadecimal digits


class _State:
    def __init__(self, token: str):
        self.lock = threading.Lock()
        self.released = threading.Event()
        self.reset(token)

    def reset(self, token: str) -> None:
        with self.lock:
            self.token = token
            self.studies: dict[str, dict] = {}
            self.submissions: dict[str, dict] = {}
            self.bulks: dict[str, dict] = {}
            self.faults: list[dict] = []
            self.requests: list[dict] = []
        # A request held by a "timeout" fault is let go: no thread of the server waits past a reset.
        self.released.set()
        self.released = threading.Event()

    def take_fault(self, method: str, path: str) -> dict | None:
        with self.lock:
            for fault in self.faults:
                if fault.get("method", "*") not in ("*", method):
                    continue
                if not re.search(fault.get("path", ""), path):
                    continue
                fault["times"] = fault.get("times", 1) - 1
                if fault["times"] <= 0:
                    self.faults.remove(fault)
                return dict(fault)
        return None

    def snapshot(self) -> dict:
        with self.lock:
            return json.loads(
                json.dumps(
                    {
                        "requests": self.requests,
                        "studies": self.studies,
                        "submissions": self.submissions,
                        "bulks": self.bulks,
                    }
                )
            )


class _Handler(BaseHTTPRequestHandler):
    server_version = "wozsql-prolific-server"
    protocol_version = "HTTP/1.1"
    state: _State

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass  # quiet: the tests read /control, not a log

    # --- plumbing ----------------------------------------------------------------------------------------------------

    def _send(self, status: int, value, headers: dict | None = None) -> None:
        body = json.dumps(value).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, header in (headers or {}).items():
            self.send_header(name, header)
        self.end_headers()
        with contextlib.suppress(OSError):  # the client gave up (a timeout test): nothing to tell it
            self.wfile.write(body)

    def _body(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw) if raw else {}
        except ValueError:
            return None

    def do_GET(self):
        self._handle("GET")

    def do_POST(self):
        self._handle("POST")

    def _handle(self, method: str) -> None:
        parts = urlsplit(self.path)
        path, query = parts.path, {key: values[-1] for key, values in parse_qs(parts.query).items()}
        body = self._body() if method == "POST" else {}
        if path.startswith("/control"):
            self._control(method, path, body)
            return
        authorized = self.headers.get("Authorization") == f"Token {self.state.token}"
        with self.state.lock:
            self.state.requests.append(
                {
                    "method": method,
                    "path": path,
                    "query": query,
                    "body": body,
                    "authorized": authorized,
                    "at": time.time(),
                }
            )
        fault = self.state.take_fault(method, path)
        if fault and fault.get("kind") == "timeout":
            self.state.released.wait(float(fault.get("seconds", 5)))
            self.close_connection = True
            return
        if fault and fault.get("kind") == "status":
            headers = {"Retry-After": str(fault["retry_after"])} if fault.get("retry_after") is not None else {}
            self._send(int(fault["status"]), {"error": {"detail": "the test server was told to fail"}}, headers)
            return
        if not authorized:
            self._send(401, {"error": {"detail": "Invalid token."}})
            return
        if body is None:
            self._send(400, {"error": {"detail": "The body is not JSON."}})
            return
        status, value = self._api(method, path, query, body)
        if fault and fault.get("kind") == "lose_response":
            # Carried out, and then the answer never arrives: the client cannot know it happened.
            self.close_connection = True
            return
        self._send(status, value)

    # --- the API -----------------------------------------------------------------------------------------------------

    def _api(self, method: str, path: str, query: dict, body: dict) -> tuple[int, object]:
        routes = [
            ("GET", r"/api/v1/studies/", self._studies_list),
            ("POST", r"/api/v1/studies/", self._study_create),
            ("GET", r"/api/v1/studies/(?P<id>\w+)/", self._study_get),
            ("POST", r"/api/v1/studies/(?P<id>\w+)/transition/", self._study_transition),
            ("GET", r"/api/v1/submissions/", self._submissions_list),
            ("POST", r"/api/v1/submissions/bonus-payments/", self._bonus_set_up),
            ("GET", r"/api/v1/submissions/(?P<id>\w+)/", self._submission_get),
            ("POST", r"/api/v1/submissions/(?P<id>\w+)/transition/", self._submission_transition),
            ("POST", r"/api/v1/bulk-bonus-payments/(?P<id>\w+)/pay/", self._bonus_pay),
        ]
        for route_method, pattern, handler in routes:
            match = re.fullmatch(pattern, path)
            if match and route_method == method:
                with self.state.lock:
                    return handler(query=query, body=body, **match.groupdict())
        return 404, {"error": {"detail": "Not found."}}

    def _studies_list(self, query, body):
        return 200, {"results": list(self.state.studies.values()), "_links": {"next": {"href": None}}}

    def _study_create(self, query, body):
        missing = [name for name in STUDY_FIELDS if body.get(name) in (None, "", [])]
        if missing:
            return 400, {"error": {"detail": {name: ["This field is required."] for name in missing}}}
        for item in body.get("filters", []):
            if not isinstance(item, dict) or "filter_id" not in item:
                return 400, {"error": {"detail": {"filters": ["Each filter needs a filter_id."]}}}
            if "selected_values" not in item and "selected_range" not in item:
                return 400, {"error": {"detail": {"filters": [f"{item['filter_id']}: no selection."]}}}
        study = {**body, "id": _new_id(), "status": "UNPUBLISHED"}
        self.state.studies[study["id"]] = study
        return 201, study

    def _study_get(self, query, body, id):  # noqa: A002 (the route's name)
        study = self.state.studies.get(id)
        return (200, study) if study else (404, {"error": {"detail": "Not found."}})

    def _study_transition(self, query, body, id):  # noqa: A002
        study = self.state.studies.get(id)
        if study is None:
            return 404, {"error": {"detail": "Not found."}}
        rule = STUDY_TRANSITIONS.get(body.get("action"))
        if rule is None:
            return 400, {"error": {"detail": {"action": ["Not a valid choice."]}}}
        sources, target = rule
        if study["status"] not in sources:
            return 400, {"error": {"detail": f"A study that is {study['status']} cannot take {body['action']}."}}
        study["status"] = target
        return 200, study

    def _submissions_list(self, query, body):
        rows = [
            {key: value for key, value in submission.items() if key != "bonus_payments"}
            for submission in self.state.submissions.values()
            if not query.get("study") or submission["study_id"] == query["study"]
        ]
        size, page = int(query.get("page_size", 20)), int(query.get("page", 1))
        shown = rows[(page - 1) * size : page * size]
        more = page * size < len(rows)
        following = f"/api/v1/submissions/?{urlencode({**query, 'page': page + 1})}" if more else None
        return 200, {"results": shown, "_links": {"next": {"href": following}}, "meta": {"count": len(rows)}}

    def _submission_get(self, query, body, id):  # noqa: A002
        submission = self.state.submissions.get(id)
        return (200, submission) if submission else (404, {"error": {"detail": "Not found."}})

    def _submission_transition(self, query, body, id):  # noqa: A002
        submission = self.state.submissions.get(id)
        if submission is None:
            return 404, {"error": {"detail": "Not found."}}
        action = body.get("action")
        target = {"APPROVE": "APPROVED", "REJECT": "REJECTED"}.get(action)
        if target is None:
            return 400, {"error": {"detail": {"action": ["Not a valid choice."]}}}
        if submission["status"] == target:
            return 200, submission  # Prolific ignores the same request made twice
        if action == "REJECT":
            errors = {}
            if body.get("rejection_category") not in REJECTION_CATEGORIES:
                errors["rejection_category"] = ["Not a valid choice."]
            if len(body.get("message") or "") < 100:
                errors["message"] = ["The message must be at least 100 characters long."]
            if errors:
                return 400, {"error": {"detail": errors}}
        if submission["status"] != "AWAITING REVIEW":
            return 400, {"error": {"detail": f"A submission that is {submission['status']} cannot be {target}."}}
        submission["status"] = target
        return 200, submission

    def _bonus_set_up(self, query, body):
        study_id = body.get("study_id")
        if study_id not in self.state.studies:
            return 400, {"error": {"detail": {"study_id": ["No such study."]}}}
        in_study = {s["id"]: s for s in self.state.submissions.values() if s["study_id"] == study_id}
        by_participant = {s["participant"]: s for s in in_study.values()}
        lines, wrong = [], []
        for line in str(body.get("csv_bonuses") or "").splitlines():
            if not line.strip():
                continue
            key, _, amount = line.partition(",")
            submission = in_study.get(key.strip()) or by_participant.get(key.strip())
            try:
                cents = int(Decimal(amount.strip()) * 100)
            except InvalidOperation:
                cents = 0
            if submission is None or cents <= 0:
                wrong.append(key.strip())
            else:
                lines.append([submission["id"], cents])
        if wrong or not lines:
            return 400, {"error": {"detail": {"csv_bonuses": [f"Not in this study: {', '.join(wrong) or 'nobody'}"]}}}
        amount = sum(cents for _, cents in lines)
        fees = round(amount / 3, 2)
        bulk = {"id": _new_id(), "study": study_id, "lines": lines, "paid_times": 0}
        self.state.bulks[bulk["id"]] = bulk
        return 201, {
            "id": bulk["id"],
            "study": study_id,
            "amount": amount,
            "fees": fees,
            "vat": 0,
            "total_amount": amount + fees,
        }

    def _bonus_pay(self, query, body, id):  # noqa: A002
        bulk = self.state.bulks.get(id)
        if bulk is None:
            return 404, {"error": {"detail": "Not found."}}
        # Not idempotent, as Prolific warns: each call pays every line again.
        bulk["paid_times"] += 1
        for submission_id, cents in bulk["lines"]:
            self.state.submissions[submission_id]["bonus_payments"].append(cents)
        return 202, "Successfully received bonus payments request. The bonuses will be paid asynchronously."

    # --- control -----------------------------------------------------------------------------------------------------

    def _control(self, method: str, path: str, body) -> None:
        if method == "GET" and path == "/control":
            self._send(200, self.state.snapshot())
        elif method == "POST" and path == "/control/reset":
            self.state.reset(str((body or {}).get("token", "")))
            self._send(200, {"reset": True})
        elif method == "POST" and path == "/control/faults":
            with self.state.lock:
                self.state.faults.extend((body or {}).get("faults", []))
            self._send(200, {"faults": len(self.state.faults)})
        elif method == "POST" and path == "/control/submissions":
            with self.state.lock:
                for item in (body or {}).get("submissions", []):
                    self.state.submissions[item["id"]] = {
                        "id": item["id"],
                        "study_id": body["study"],
                        "participant": item["participant"],
                        "participant_id": item["participant"],
                        "status": item.get("status", "AWAITING REVIEW"),
                        "started_at": "2026-11-28T10:00:00Z",
                        "completed_at": item.get("completed_at", "2026-11-28T10:30:00Z"),
                        "bonus_payments": [],
                    }
            self._send(200, {"submissions": len(self.state.submissions)})
        else:
            self._send(404, {"error": "not found"})


def serve(port: int, token: str) -> ThreadingHTTPServer:
    handler = type("Handler", (_Handler,), {"state": _State(token)})
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    return server


class ProlificServer:
    """A running server as a test sees it: its base URL (as PROLIFIC_API_URL takes it) and its control endpoints."""

    def __init__(self, port: int):
        self.port = port
        self.url = f"http://127.0.0.1:{port}"

    def _control(self, path: str, body: dict | None = None) -> dict:
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(f"{self.url}{path}", data=data, method="POST" if data else "GET")
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 (loopback, our own server)
            return json.loads(response.read())

    def reset(self, token: str) -> None:
        self._control("/control/reset", {"token": token})

    def fail(self, **fault) -> None:
        """The next request(s) matching `method` and `path` (a regular expression) fail as `kind` says."""
        self._control("/control/faults", {"faults": [fault]})

    def add_submissions(self, study: str, submissions: list[dict]) -> None:
        self._control("/control/submissions", {"study": study, "submissions": submissions})

    def state(self) -> dict:
        return self._control("/control")

    def requests(self) -> list[dict]:
        return self.state()["requests"]


@contextlib.contextmanager
def prolific_server(token: str = "") -> Iterator[ProlificServer]:
    """Start the server in its own process on a free loopback port; yield it; stop it."""
    from tools.test_stack import free_port, wait_for_port

    port = free_port()
    process = subprocess.Popen(  # noqa: S603 (our own script)
        [sys.executable, str(Path(__file__).resolve()), "--port", str(port), "--token", token]
    )
    try:
        wait_for_port(port)
        yield ProlificServer(port)
    finally:
        process.terminate()
        process.wait(timeout=10)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="A stand-in for Prolific's researcher API, on loopback.")
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--token", default="", help="the API token it accepts (PROLIFIC_API_TOKEN of the platform)")
    args = parser.parse_args(argv)
    server = serve(args.port, args.token)
    print(f"prolific_server: http://127.0.0.1:{args.port} (PROLIFIC_API_URL)", file=sys.stderr)
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
