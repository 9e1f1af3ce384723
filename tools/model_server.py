"""A small chat-completions server on loopback, for the tests and for a lab rehearsing a campaign offline.

    python tools/model_server.py --port 8765 --fixtures tests/fixtures/model_answers.json

It answers POST /v1/chat/completions (OpenAI-compatible, the shape annotation.model_client reads) from a fixtures file:
    {"model": "fixture-model", "default": "SELECT 1", "rules": [{"contains": "how many", "answer": "..."}]}
the first rule whose `contains` is in the last user message (case-insensitive) gives the answer, else `default`.

Its behaviour is switched at runtime, so one server serves a whole test session:
    POST /control {"mode": "normal" | "slow" | "error" | "malformed" | "hold", "delay": seconds}
    GET  /control               the mode and the requests received so far (their bodies and whether a key was sent)
    POST /control/reset         back to normal, requests forgotten
"slow" answers after `delay` seconds; "error" answers HTTP 500; "malformed" answers text that is not JSON; "hold"
keeps every request waiting until the mode changes, then answers it as the new mode says (a test decides when a
pending call ends, and never waits on a duration). Nothing here is a model: no weights, no network beyond loopback.
"""

import argparse
import contextlib
import json
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

MODES = ("normal", "slow", "error", "malformed", "hold")


class _State:
    def __init__(self, fixtures: dict):
        self.fixtures = fixtures
        self.changed = threading.Condition()
        self.mode, self.delay, self.requests = "normal", 0.0, []

    def set(self, mode: str, delay: float) -> None:
        with self.changed:
            self.mode, self.delay = mode, delay
            self.changed.notify_all()

    def settled_mode(self) -> tuple[str, float]:
        """The mode to answer in: while "hold", wait for the next change (at most ten minutes)."""
        with self.changed:
            self.changed.wait_for(lambda: self.mode != "hold", timeout=600)
            return self.mode, self.delay

    def answer(self, messages: list) -> str:
        users = [m.get("content", "") for m in messages if isinstance(m, dict) and m.get("role") == "user"]
        last = str(users[-1]).lower() if users else ""
        for rule in self.fixtures.get("rules", []):
            if rule["contains"].lower() in last:
                return rule["answer"]
        return self.fixtures.get("default", "")


class _Handler(BaseHTTPRequestHandler):
    server_version = "wozsql-model-server"
    state: _State

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass  # quiet: the tests read /control, not a log

    def _json(self, status: int, value) -> None:
        self._send(status, json.dumps(value).encode("utf-8"), "application/json")

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        with contextlib.suppress(OSError):  # the client gave up (a timeout test): nothing to tell it
            self.wfile.write(body)

    def _body(self):
        length = int(self.headers.get("Content-Length") or 0)
        try:
            return json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            return None

    def do_GET(self):
        if self.path == "/control":
            state = self.state
            self._json(200, {"mode": state.mode, "delay": state.delay, "requests": state.requests})
        else:
            self._json(404, {"error": "not found"})

    def do_POST(self):
        body = self._body()
        if self.path == "/control/reset":
            self.state.set("normal", 0.0)
            self.state.requests.clear()
            self._json(200, {"mode": "normal"})
        elif self.path == "/control":
            if not isinstance(body, dict) or body.get("mode") not in MODES:
                self._json(400, {"error": f"mode must be one of {', '.join(MODES)}"})
                return
            self.state.set(body["mode"], float(body.get("delay", 0)))
            self._json(200, {"mode": body["mode"]})
        elif self.path.rstrip("/").endswith("/chat/completions"):
            self._completion(body)
        else:
            self._json(404, {"error": "not found"})

    def _completion(self, body) -> None:
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            self._json(400, {"error": {"message": "a JSON body with 'messages' is needed"}})
            return
        self.state.requests.append({"body": body, "authorized": self.headers.get("Authorization") is not None})
        mode, delay = self.state.settled_mode()
        if mode == "slow":
            time.sleep(delay)  # the server's own slowness is what is being simulated
        if mode == "error":
            self._json(500, {"error": {"message": "the test server was told to fail"}})
            return
        if mode == "malformed":
            self._send(200, b"<html>not json", "text/html")
            return
        text = self.state.answer(body["messages"])
        model = self.state.fixtures.get("model", "fixture-model")
        self._json(
            200,
            {
                "id": f"chatcmpl-{len(self.state.requests)}",
                "object": "chat.completion",
                "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            },
        )


def serve(port: int, fixtures: dict) -> ThreadingHTTPServer:
    handler = type("Handler", (_Handler,), {"state": _State(fixtures)})
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    return server


class ModelServer:
    """A running server as a test sees it: its base URL (as MODEL_BASE_URL takes it) and its control endpoint."""

    def __init__(self, port: int):
        self.port = port
        self.url = f"http://127.0.0.1:{port}/v1"

    def _control(self, path: str, body: dict | None = None) -> dict:
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", data=data, method="POST" if data else "GET"
        )
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 (loopback, our own server)
            return json.loads(response.read())

    def set_mode(self, mode: str, delay: float = 0.0) -> None:
        self._control("/control", {"mode": mode, "delay": delay})

    def reset(self) -> None:
        self._control("/control/reset", {})

    def requests(self) -> list[dict]:
        return self._control("/control")["requests"]


@contextlib.contextmanager
def model_server(fixtures_path: str | Path) -> Iterator[ModelServer]:
    """Start the server in its own process on a free loopback port; yield it; stop it."""
    from tools.test_stack import free_port, wait_for_port

    port = free_port()
    process = subprocess.Popen(  # noqa: S603 (our own script)
        [sys.executable, str(Path(__file__).resolve()), "--port", str(port), "--fixtures", str(fixtures_path)]
    )
    try:
        wait_for_port(port)
        yield ModelServer(port)
    finally:
        process.terminate()
        process.wait(timeout=10)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="A chat-completions server answering from fixtures, on loopback.")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--fixtures", required=True, help="a JSON file: {model, default, rules: [{contains, answer}]}")
    args = parser.parse_args(argv)
    try:
        fixtures = json.loads(Path(args.fixtures).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"model_server: cannot read the fixtures {args.fixtures}: {exc}", file=sys.stderr)
        return 2
    if not isinstance(fixtures, dict) or not all(
        isinstance(rule, dict) and isinstance(rule.get("contains"), str) and isinstance(rule.get("answer"), str)
        for rule in fixtures.get("rules", [])
    ):
        print("model_server: fixtures must be {model, default, rules: [{contains, answer}]}", file=sys.stderr)
        return 2
    server = serve(args.port, fixtures)
    print(f"model_server: http://127.0.0.1:{args.port}/v1 ({len(fixtures.get('rules', []))} rules)", file=sys.stderr)
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
