"""Sign-in throttling: too many failures lock an account at an address, an account, or an address, each with its own
limit (settings LOGIN_*FAILURE_LIMIT); behind the proxy the address is the client's, which the client cannot choose."""

import datetime as dt
import ipaddress

import pytest
import time_machine
from django.conf import settings
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"  # the personas' password (conftest.py)


PROXY = "172.30.57.2"  # nginx, in front of the servers (TRUSTED_PROXIES below)


def sign_in(client, username, password, address, forwarded_for=None):
    extra = {"HTTP_X_FORWARDED_FOR": forwarded_for} if forwarded_for is not None else {}
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address, **extra)


@pytest.fixture
def behind_the_proxy(settings):
    settings.TRUSTED_PROXIES = [ipaddress.ip_network("172.30.57.0/24")]


def signed_in(response) -> bool:
    return response.status_code == 302 and "_auth_user_id" in response.client.session


def assert_locked_out(response):
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many failed sign-ins" in page
    assert f"try again in {settings.LOGIN_LOCKOUT_MINUTES} minutes" in page
    assert "_auth_user_id" not in response.client.session


def test_an_account_is_locked_after_repeated_failures_from_any_address(client, alice, erin):
    limit = settings.LOGIN_ACCOUNT_FAILURE_LIMIT
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


def test_one_persons_typos_lock_their_account_at_their_address_not_the_lab(client, alice, erin):
    """Alice and Erin work in a lab behind one shared address. Alice mistypes her password five times: she waits;
    Erin, beside her, signs in; Alice, from home, does too."""
    lab = "198.51.100.20"
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        assert sign_in(client, "alice", "wrong", lab).status_code == 200
    assert_locked_out(sign_in(client, "alice", "wrong", lab))
    assert_locked_out(sign_in(client, "alice", PASSWORD, lab))
    assert signed_in(sign_in(client, "erin", PASSWORD, lab))
    client.logout()
    assert signed_in(sign_in(client, "alice", PASSWORD, "203.0.113.50"))


def test_an_address_spraying_guesses_over_many_accounts_is_locked(client, alice, erin):
    """Mallory tries three passwords on each of many accounts from one address: no account reaches its limit, the
    address does, and then not even a right password gets in from there."""
    spray = "192.0.2.7"
    for attempt in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT - 1):
        assert sign_in(client, f"guess{attempt // 3}", "wrong", spray).status_code == 200
    assert_locked_out(sign_in(client, "guess-last", "wrong", spray))
    assert_locked_out(sign_in(client, "erin", PASSWORD, spray))
    assert signed_in(sign_in(client, "erin", PASSWORD, "192.0.2.8"))


def test_behind_the_proxy_a_client_cannot_name_its_own_address(client, behind_the_proxy, alice, erin):
    """Mallory, behind the proxy at 192.0.2.7, writes a new X-Forwarded-For for every guess; the proxy adds the
    address it saw. Her spray is counted at 192.0.2.7 and locked there, while Erin, behind the same proxy from
    another address, signs in."""
    for attempt in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT):
        invented = f"10.{attempt}.0.1"
        sign_in(client, f"guess{attempt // 3}", "wrong", PROXY, forwarded_for=f"{invented}, 192.0.2.7")
    assert_locked_out(sign_in(client, "erin", PASSWORD, PROXY, forwarded_for="10.99.0.1, 192.0.2.7"))
    assert signed_in(sign_in(client, "erin", PASSWORD, PROXY, forwarded_for="198.51.100.3"))


def test_without_a_trusted_proxy_a_forwarded_address_is_ignored(client, behind_the_proxy, alice, erin):
    """Mallory connects to a server directly (not through the proxy) and sends X-Forwarded-For herself: her address
    is the connection's, whatever she writes."""
    for attempt in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT):
        sign_in(client, f"guess{attempt // 3}", "wrong", "192.0.2.7", forwarded_for=f"10.{attempt}.0.1")
    assert_locked_out(sign_in(client, "erin", PASSWORD, "192.0.2.7", forwarded_for="198.51.100.3"))


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
