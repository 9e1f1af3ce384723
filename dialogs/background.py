"""The per-process background loop of a server: renew this process's lease, vouch for its sockets, nudge the room
sockets that a lost broadcast left behind, and, on the embedded defaults (no Celery beat), run housekeeping and hand
missing or stale test suites to their background builder (annotation.suites.builds). Started
by the first request the process serves (HTTP or websocket, a health check included): Daphne has no start-up hook,
and until a first request a process holds no sockets to vouch for."""

import asyncio
import logging
import time

from django.conf import settings

from annotation.suites import builds as suite_builds
from dialogs import presence
from dialogs.consumers import rooms_catch_up
from dialogs.transport import database_call

logger = logging.getLogger(__name__)

# How often a server looks for databases whose test suite is missing or stale (a look costs one query per database).
SUITES_CHECK_SECONDS = 60


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
        swept = suites_checked = float("-inf")
        while True:
            try:
                await database_call(presence.server_heartbeat)()
                # This process's socket rows are the sockets it holds; its rooms have every event they were sent.
                await presence.announce(await database_call(presence.sockets_vouch)())
                await rooms_catch_up()
                if settings.HOUSEKEEPING_IN_PROCESS and time.monotonic() - swept >= settings.HOUSEKEEPING_SECONDS:
                    swept = time.monotonic()
                    report = await database_call(presence.housekeeping)()
                    await presence.announce(report)
                if (
                    settings.HOUSEKEEPING_IN_PROCESS
                    and settings.TEST_SUITES_AUTOBUILD
                    and time.monotonic() - suites_checked >= SUITES_CHECK_SECONDS
                ):
                    suites_checked = time.monotonic()
                    # Marks the suites and starts a thread that builds them: this round does not wait for a build.
                    await database_call(suite_builds.test_suites_schedule)()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database may be restarting: try again next round, keep the loop alive
                logger.warning("background round failed; retrying", exc_info=True)
            await asyncio.sleep(min(settings.SERVER_HEARTBEAT_SECONDS, settings.HOUSEKEEPING_SECONDS))
