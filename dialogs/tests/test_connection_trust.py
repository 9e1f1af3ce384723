"""A socket's database call skips the health check on a connection that served the call before it, but never on one
the server has closed since (dialogs.transport.DatabaseCall): PostgreSQL only, as the services pass runs it."""

import select
import time

import psycopg2
import pytest
from django.db import connection

from dialogs.models import Dialogue
from dialogs.transport import _connection_checked, _connection_used

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _needs_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's health checks: run through `tools/test_stack.py with-services -- pytest`")


@pytest.fixture(autouse=True)
def kept_connections():
    """Connections kept between calls, as a server keeps them (DB_CONN_MAX_AGE; the tests' default closes them)."""
    before = connection.settings_dict["CONN_MAX_AGE"]
    connection.close()
    connection.settings_dict["CONN_MAX_AGE"] = 300
    yield
    connection.settings_dict["CONN_MAX_AGE"] = before
    connection.close()


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def test_a_connection_that_just_served_a_call_is_taken_as_checked():
    _needs_postgres()
    Dialogue.objects.count()
    _connection_used()
    _connection_checked()
    assert connection.health_check_done is True


def test_a_connection_the_server_closed_is_checked_and_replaced():
    _needs_postgres()
    before = _backend_pid()
    _connection_used()
    settings = connection.settings_dict
    other = psycopg2.connect(
        dbname=connection.settings_dict["NAME"],
        user=settings["USER"],
        password=settings["PASSWORD"],
        host=settings["HOST"],
        port=settings["PORT"],
    )
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [before])
    finally:
        other.close()
    deadline = time.monotonic() + 30
    while not select.select([connection.connection.fileno()], [], [], 0.1)[0]:  # the goodbye on its way
        assert time.monotonic() < deadline, "the terminated backend never closed its socket"
    _connection_checked()
    assert connection.health_check_done is False  # so the next query checks, and finds it dead
    assert Dialogue.objects.count() == 0  # on a new connection
    assert _backend_pid() != before
