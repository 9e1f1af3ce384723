"""The per-process background loop of a server: renew this process's lease, vouch for its sockets, nudge the room
sockets that a lost broadcast left behind, and, on the embedded defaults (no Celery beat), run housekeeping. Started
by the first request the process serves (HTTP or websocket, a health check included): Daphne has no start-up hook,
and until a first request a process holds no sockets to vouch for."""

import asyncio
import logging
import time

from channels.db import database_sync_to_async
from django.conf import settings

from dialogs import presence
from dialogs.consumers import rooms_catch_up

logger = logging.getLogger(__name__)


class BackgroundLoop:
    """ASGI wrapper: passes every request on, starting the loop once."""

    def __init__(self, app):
        self.app = app
        self.task: asyncio.Task | None = None

    async def __call__(self, scope, receive, send):
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self.run())
        return await self.app(scope, receive, send)

    async def run(self) -> None:
        swept = float("-inf")
        while True:
            try:
                await database_sync_to_async(presence.server_heartbeat)()
                # This process's socket rows are the sockets it holds; its rooms have every event they were sent.
                await presence.announce(await database_sync_to_async(presence.sockets_vouch)())
                await rooms_catch_up()
                if settings.HOUSEKEEPING_IN_PROCESS and time.monotonic() - swept >= settings.HOUSEKEEPING_SECONDS:
                    swept = time.monotonic()
                    report = await database_sync_to_async(presence.housekeeping)()
                    await presence.announce(report)
            except asyncio.CancelledError:
                raise
            except Exception:  # the database may be restarting: try again next round, keep the loop alive
                logger.warning("background round failed; retrying", exc_info=True)
            await asyncio.sleep(min(settings.SERVER_HEARTBEAT_SECONDS, settings.HOUSEKEEPING_SECONDS))
