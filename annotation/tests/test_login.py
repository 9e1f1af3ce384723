"""Sign-in throttling: too many failures lock an account, or an address, for a while (settings LOGIN_FAILURE_*)."""

import datetime as dt

import pytest
import time_machine
from django.conf import settings
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"  # the personas' password (conftest.py)


def sign_in(client, username, password, address):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def signed_in(response) -> bool:
    return response.status_code == 302 and "_auth_user_id" in response.client.session


def assert_locked_out(response):
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many failed sign-ins" in page
    assert f"try again in {settings.LOGIN_LOCKOUT_MINUTES} minutes" in page
    assert "_auth_user_id" not in response.client.session


def test_an_account_is_locked_after_repeated_failures_from_any_address(client, alice, erin):
    limit = settings.LOGIN_FAILURE_LIMIT
    for attempt in range(limit - 1):
        assert sign_in(client, "alice", "wrong", f"10.0.0.{attempt}").status_code == 200
    # One failure short of the limit, the right password still works (and counts nothing against the account).
    assert signed_in(sign_in(client, "alice", PASSWORD, "10.0.1.1"))
    client.logout()
    # The failure that reaches the limit is answered with the lockout already.
    assert_locked_out(sign_in(client, "alice", "wrong", "10.0.0.99"))
    # Alice is refused wherever she signs in from, with the right password too.
    assert_locked_out(sign_in(client, "alice", PASSWORD, "10.0.2.2"))
    # Erin, from an address that took part, is not Alice.
    assert signed_in(sign_in(client, "erin", PASSWORD, "10.0.0.1"))


def test_an_address_is_locked_after_failures_on_several_accounts(client, alice, erin):
    for attempt in range(settings.LOGIN_FAILURE_LIMIT):
        sign_in(client, f"guess{attempt}", "wrong", "192.0.2.7")
    assert_locked_out(sign_in(client, "erin", PASSWORD, "192.0.2.7"))
    assert signed_in(sign_in(client, "erin", PASSWORD, "192.0.2.8"))


def test_the_lockout_ends_once_the_time_has_passed(client, alice):
    with time_machine.travel(dt.datetime(2026, 11, 23, 9, 0, tzinfo=dt.UTC), tick=False) as clock:
        for _ in range(settings.LOGIN_FAILURE_LIMIT):
            sign_in(client, "alice", "wrong", "10.0.0.1")
        assert_locked_out(sign_in(client, "alice", PASSWORD, "10.0.0.1"))
        # The refused try above restarted the wait: a second short of it, still locked (and that try restarts it).
        clock.shift(dt.timedelta(minutes=settings.LOGIN_LOCKOUT_MINUTES) - dt.timedelta(seconds=1))
        assert_locked_out(sign_in(client, "alice", PASSWORD, "10.0.0.1"))
        clock.shift(dt.timedelta(minutes=settings.LOGIN_LOCKOUT_MINUTES, seconds=1))
        assert signed_in(sign_in(client, "alice", PASSWORD, "10.0.0.1"))
