"""A strict Content-Security-Policy on every page: only the platform's own scripts run, and the pages need no other."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db


def policy(response) -> dict[str, list[str]]:
    directives = [part.split() for part in response["Content-Security-Policy"].split(";")]
    return {name: sources for name, *sources in directives}


def test_a_page_runs_only_the_platforms_own_scripts_and_opens_sockets_to_its_own_host(client, alice):
    client.force_login(alice)
    for url in [reverse("login"), reverse("dialogs:worker_home"), "/no-such-page/"]:
        csp = policy(client.get(url))
        assert csp["script-src"] == ["'self'"], url
        assert csp["default-src"] == ["'self'"] and csp["object-src"] == ["'none'"]
        assert csp["frame-ancestors"] == ["'none'"] and csp["base-uri"] == ["'none'"]
        assert csp["connect-src"] == ["'self'", "ws://testserver"]


def test_over_https_the_socket_is_a_secure_one(client, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    response = client.get(reverse("login"), HTTP_X_FORWARDED_PROTO="https", HTTP_HOST="testserver")
    assert policy(response)["connect-src"] == ["'self'", "wss://testserver"]


def test_no_template_holds_script_the_policy_would_block():
    """Inline script and event-handler attributes would stop working under the policy: none may be written."""
    offending = []
    for template in ROOT.glob("**/templates/**/*.html"):
        if ".venv" in template.parts:
            continue
        text = template.read_text()
        for tag in re.findall(r"<script\b[^>]*>", text, re.IGNORECASE):
            if "src=" not in tag:
                offending.append(f"{template.relative_to(ROOT)}: {tag}")
        for handler in re.findall(r"<[^>]*\son[a-z]+\s*=", text, re.IGNORECASE):
            offending.append(f"{template.relative_to(ROOT)}: {handler}")
        if re.search(r"javascript:", text, re.IGNORECASE):
            offending.append(f"{template.relative_to(ROOT)}: javascript: URL")
    assert offending == []
