"""A page's room socket routed through Playwright, with frames held back until the test releases them: the test
decides when a socket frame lands (or leaves), so a story can put a person's action between a frame's sending and its
arrival, as a loaded machine or a slow network does, every time.

    held = HeldFrames(page, from_server=event_of("user_acts"))  # before the page opens the room
    ... the page acts, the server answers ...
    held.wait()          # a frame it picks has come, and is held
    ... the person acts meanwhile ...
    held.release()       # it lands now

Held frames keep their order: from the first frame a rule picks, every later frame the same way waits behind it (the
client drops an event older than one it has handed over, so a frame let past a held one would lose the held one).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable

ROOM_SOCKET = re.compile(r"/ws/dialogues/\d+/$")


def _parsed(message: str | bytes) -> dict:
    try:
        frame = json.loads(message)
    except (TypeError, ValueError):
        return {}
    return frame if isinstance(frame, dict) else {}


def event_of(kind: str, **payload) -> Callable[[dict], bool]:
    """Picks the server's `event` frames of `kind` whose payload has these values (a value of ... : the key present)."""

    def picks(frame: dict) -> bool:
        if frame.get("type") != "event" or frame.get("kind") != kind:
            return False
        got = frame.get("payload") or {}
        return all(key in got and (value is ... or got[key] == value) for key, value in payload.items())

    return picks


def message_of(kind: str) -> Callable[[dict], bool]:
    """Picks the page's messages of `kind` (share_result, user_acts, ...)."""
    return lambda frame: frame.get("type") == kind


class _Direction:
    def __init__(self, picks: Callable[[dict], bool] | None):
        self.picks = picks
        self.held: list[str | bytes] = []
        self.holding = picks is not None
        self.send: Callable | None = None

    def __call__(self, message):
        if self.holding and (self.held or self.picks(_parsed(message))):
            self.held.append(message)
        else:
            self.send(message)

    def release(self):
        self.holding = False
        for message in self.held:
            self.send(message)
        self.held.clear()


class HeldFrames:
    """Routes `page`'s room sockets (every one it opens, a reload's too) and holds back what `from_server` picks of the
    server's frames and what `from_page` picks of the page's, with whatever follows them the same way, until released.
    Make it before the page opens the room. `to_page` and `to_server` are the two ways, each with its `held` frames and
    its own `release()`."""

    def __init__(self, page, *, from_server=None, from_page=None, url=ROOM_SOCKET):
        self.page = page
        self.to_page = _Direction(from_server)
        self.to_server = _Direction(from_page)
        page.route_web_socket(url, self._route)

    def _route(self, ws):
        server = ws.connect_to_server()
        self.to_page.send = ws.send
        self.to_server.send = server.send
        ws.on_message(self.to_server)
        server.on_message(self.to_page)

    def wait(self, way: _Direction | None = None, timeout: float = 30):
        """Until a frame is held (on `way`, or either). Playwright runs the route's callbacks while the page is asked
        something: it is asked, in a loop, for nothing."""
        ways = [way] if way else [self.to_page, self.to_server]
        deadline = time.monotonic() + timeout
        while not any(w.held for w in ways):
            assert time.monotonic() < deadline, "no frame the test holds came"
            self.page.evaluate("1")

    def release(self):
        """Let every held frame go, the page's first, and hold nothing more."""
        self.to_server.release()
        self.to_page.release()
