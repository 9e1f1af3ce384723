"""The websocket Origin check (dialogs/origin.py) through the real ASGI application.

Anonymous sockets are enough: one that passes the Origin check reaches the lobby consumer, which accepts it and
closes it at once with 4401 (not signed in); one that fails is closed before the handshake, and never connects.
"""

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def origin_check_passes(origin: str | None, host: str = "127.0.0.1:8000", extra=()) -> bool:
    headers = [(b"host", host.encode()), *extra]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, _ = await communicator.connect()
    if connected:
        closed = await communicator.receive_output(timeout=1)
        assert closed == {"type": "websocket.close", "code": 4401}, "past the Origin check, the lobby saw no one"
    await communicator.disconnect()
    return connected


async def test_a_page_of_this_very_site_may_open_a_socket():
    assert await origin_check_passes("http://127.0.0.1:8000")
    assert await origin_check_passes("HTTP://127.0.0.1:8000/")  # what a sloppy client might send: the same origin
    assert await origin_check_passes("http://localhost", host="localhost")  # port 80 written or not


async def test_another_port_of_the_same_host_is_refused():
    assert not await origin_check_passes("http://127.0.0.1:9000")
    assert not await origin_check_passes("http://127.0.0.1")


async def test_another_scheme_of_the_same_host_and_port_is_refused():
    assert not await origin_check_passes("https://127.0.0.1:8000")


async def test_foreign_missing_or_malformed_origins_are_refused():
    assert not await origin_check_passes("http://evil.example")
    assert not await origin_check_passes(None)
    assert not await origin_check_passes("null")
    assert not await origin_check_passes("http://127.0.0.1:notaport")


async def test_a_host_outside_allowed_hosts_is_refused_even_when_the_origin_matches_it():
    """DNS rebinding: evil.example resolved to this server; its page's Origin matches the Host it sends."""
    assert not await origin_check_passes("http://evil.example:8000", host="evil.example:8000")


async def test_behind_a_tls_proxy_the_forwarded_scheme_counts(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    forwarded = [(b"x-forwarded-proto", b"https")]
    assert await origin_check_passes("https://localhost", host="localhost", extra=forwarded)
    assert not await origin_check_passes("http://localhost", host="localhost", extra=forwarded)


async def test_csrf_trusted_origins_may_open_sockets(settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://wozsql.example.org", "https://*.lab.example.org"]
    assert await origin_check_passes("https://wozsql.example.org")
    assert await origin_check_passes("https://room.lab.example.org")
    assert not await origin_check_passes("http://wozsql.example.org")
    assert not await origin_check_passes("https://wozsql.example.org:8443")
    assert not await origin_check_passes("https://lab.example.org.evil.example")
