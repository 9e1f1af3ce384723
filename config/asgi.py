"""ASGI entry point: HTTP through Django, websockets through Channels with origin and session checks."""

import os
import time

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before anything imports models (the consumers do).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from dialogs.background import BackgroundLoop  # noqa: E402
from dialogs.consumers import OVERSIZED_FRAME_KEY  # noqa: E402
from dialogs.origin import SameOriginValidator  # noqa: E402
from dialogs.routing import websocket_urlpatterns  # noqa: E402

# The per-process loop (dialogs.background): this server's presence lease, and housekeeping where no beat runs.
application = BackgroundLoop(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            # Not channels' AllowedHostsOriginValidator: it let another port or scheme of an allowed host in.
            "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
        }
    )
)

# What the consumer receives of a frame over Daphne's limit: enough for the `id` that comes before a long field.
_OVERSIZED_HEAD_BYTES = 4096
# How long a connection the server closed may take to shut down in order before it is reset.
_SHUTDOWN_GRACE_SECONDS = 30


def _install_room_protocol() -> None:
    """Two changes to Daphne's websocket protocol, both so that a client learns what the protocol promises it.

    Oversized frames. Daphne (autobahn) fails a connection whose incoming message is over
    --websocket-max-message-size (1 MiB by default) by dropping the TCP connection: no close code, no error, and a
    client that resends what was never acked sends the same frame again after reconnecting. Here the rest of such a
    frame is discarded as it arrives (nothing over the limit is held in memory), and the consumer receives its head
    marked with OVERSIZED_FRAME_KEY: it answers `too_large` with the frame's id, and the socket stays open, as
    docs/protocol.md says of every refused frame.

    Close codes. When the server closes (4401/4403/4404), autobahn waits one second for the client's closing reply and
    then aborts the TCP connection (a reset). A browser whose tab is busy for that second (a slow laptop, a loaded
    machine) has not yet taken the close frame in, and the reset makes it report 1006 instead of the code: the page
    retries a refusal that will never change. Here the connection is ended with an orderly shutdown instead, which
    the browser reads after the close frame (docs/pitfalls.md).
    Loaded by Daphne's command line (and its runserver) before it builds its protocol factory.
    """
    try:
        from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol
    except ImportError:  # pragma: no cover - another ASGI server
        return

    class RoomProtocol(WebSocketProtocol):
        oversized_head = None  # a bytearray while the rest of an over-limit message is being discarded

        def _max_message_size_exceeded(self, msg_size, max_msg_size, reason):
            if getattr(self, "_isMessageCompressed", False):  # Daphne negotiates no compression; autobahn's way then
                super()._max_message_size_exceeded(msg_size, max_msg_size, reason)
            elif self.oversized_head is None:  # the first frame over the limit (later fragments come here too)
                received = b"".join(self.message_data or []) + b"".join(self.frame_data or [])
                self.oversized_head = bytearray(received[:_OVERSIZED_HEAD_BYTES])
                self.message_data, self.frame_data = [], []

        def onMessageFrameData(self, payload):
            if self.oversized_head is None:
                super().onMessageFrameData(payload)
            elif len(self.oversized_head) < _OVERSIZED_HEAD_BYTES:
                self.oversized_head += payload[: _OVERSIZED_HEAD_BYTES - len(self.oversized_head)]

        def onMessageFrameEnd(self):
            if self.oversized_head is None:
                super().onMessageFrameEnd()
            else:
                self.frame_data = None

        def onMessageEnd(self):
            if self.oversized_head is None:
                super().onMessageEnd()
                return
            head, self.oversized_head, self.message_data = bytes(self.oversized_head), None, None
            if self.muted:
                return
            self.last_ping = time.time()  # as Daphne's onMessage does: the client is alive
            received = {"type": "websocket.receive", OVERSIZED_FRAME_KEY: self.message_data_total_length}
            if self.message_is_binary:
                received["bytes"] = head
            else:
                received["text"] = head.decode("utf-8", "ignore")  # the cut may split a character
            self.application_queue.put_nowait(received)

        def onCloseHandshakeTimeout(self):
            # autobahn's own drops with abort=True: a TCP reset that can overtake the close frame in the browser.
            self.closeHandshakeTimeoutCall = None
            if self.state != self.STATE_CLOSED:
                self.wasClean = False
                self.dropConnection(abort=False)
                # A peer that reads nothing at all would keep an orderly shutdown waiting: reset it after a while.
                from twisted.internet import reactor  # Daphne's, installed by now (importing it earlier would not be)

                self.lingering = reactor.callLater(_SHUTDOWN_GRACE_SECONDS, self.transport.abortConnection)

        def connectionLost(self, reason):
            lingering = getattr(self, "lingering", None)
            if lingering is not None and lingering.active():
                lingering.cancel()
            super().connectionLost(reason)

    WebSocketFactory.protocol = RoomProtocol


_install_room_protocol()
