"""ASGI entry point: HTTP through Django, websockets through Channels with origin and session checks."""

import gc
import os
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before anything imports models (the consumers do); as django.core.asgi does.
django.setup(set_prefix=False)

from config.request_body import BodyOffLoopASGIHandler, install_daphne_body  # noqa: E402

# Request bodies are written to disk off the event loop, and Twisted does not parse them (config/request_body.py).
django_asgi_app = BodyOffLoopASGIHandler()
install_daphne_body()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from dialogs.background import BackgroundLoop  # noqa: E402
from dialogs.origin import SameOriginValidator  # noqa: E402
from dialogs.routing import websocket_urlpatterns  # noqa: E402
from dialogs.transport import install_room_protocol, socket_auth_stack  # noqa: E402

# The per-process loop (dialogs.background): this server's presence lease, and housekeeping where no beat runs.
application = BackgroundLoop(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            # Not channels' AllowedHostsOriginValidator: it let another port or scheme of an allowed host in.
            "websocket": SameOriginValidator(socket_auth_stack(URLRouter(websocket_urlpatterns))),
        }
    )
)

# Loaded by Daphne's command line (and its runserver) before it builds its protocol factory.
install_room_protocol()

# The SQL sandbox's workers start with the server, not on the first expert's run (which waited for them).
from annotation.sql import sandbox  # noqa: E402

sandbox.start_workers()

# What a room's first shared result would load (the wording libraries, the relation model) is loaded now.
from dialogs.assist import load_now  # noqa: E402

load_now()

# Celery's app is finalised on the first task a process sends (the first dialogue ended there paid some 70 ms of CPU
# for it, bench/chat_load.py --profile): finalised now instead.
from config.celery_app import app as celery_app  # noqa: E402

celery_app.finalize()

# What is loaded by now (Django, the apps, the libraries) lives as long as the process: out of the cyclic collector's
# sight, a full collection walks only what was made since. A room makes cyclic garbage steadily (sqlglot's trees,
# exceptions with their frames), and with the start-up heap in view each full collection stalled the event loop for
# 90 to 270 ms, every socket of the process with it (bench/chat_load.py; docs/benchmark_history.md, "Where a
# message's CPU goes").
gc.collect()
gc.freeze()

# The event loop waits for the interpreter lock at most this long behind a busy database thread (config/settings.py).
from django.conf import settings  # noqa: E402

sys.setswitchinterval(settings.SERVER_SWITCH_INTERVAL_SECONDS)
