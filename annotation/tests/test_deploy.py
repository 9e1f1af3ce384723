"""The shipped deployment (docker-compose.yml, deploy/): secure by default behind nginx's TLS, and the client's
address read from nginx only."""

import ipaddress
import re
import secrets
from pathlib import Path

from annotation.tests.test_settings import assert_quiet, deploy_check

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = (ROOT / "docker-compose.yml").read_text()


def compose_app_environment(secret_key: str) -> dict[str, str]:
    """The environment docker-compose.yml gives the platform's containers with nothing set in .env but the key: each
    `${NAME:-default}` read as its default, `*network` as the stack's network."""
    network = re.search(r"^x-network: &network (.+)$", COMPOSE, re.MULTILINE).group(1)
    block = COMPOSE.split("x-app: &app", 1)[1].split("  environment:\n", 1)[1].split("\n  volumes:", 1)[0]
    env = {}
    for name, value in re.findall(r"^    ([A-Z_]+): (.+)$", block, re.MULTILINE):
        value = value.strip().strip('"')
        if value == "*network":
            value = network
        value = re.sub(r"\$\{SECRET_KEY:\?[^}]*\}", secret_key, value)
        env[name] = re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", value)
    return env


def test_the_compose_stack_passes_the_deploy_check(tmp_path):
    env = compose_app_environment(secrets.token_urlsafe(50))
    assert env["HTTPS"] == "1" and env["BEHIND_TLS_PROXY"] == "1"
    assert_quiet(deploy_check({**env, "WOZSQL_DATA_DIR": str(tmp_path)}))


def test_nginx_terminates_tls_by_default_and_plain_http_only_redirects():
    assert "./deploy/nginx-${NGINX_SITE:-tls}.conf:/etc/nginx/conf.d/default.conf" in COMPOSE
    tls = (ROOT / "deploy" / "nginx-tls.conf").read_text()
    assert "listen 443 ssl;" in tls
    plain_server = tls.split("server {", 2)[1]
    assert "listen 80;" in plain_server and "return 301 https://" in plain_server


def test_only_nginx_may_name_the_client_and_it_names_the_address_it_saw():
    """nginx replaces any X-Forwarded-For a client sent with the address it saw; Daphne does not read the header (it
    would believe anyone's first entry); the platform believes it from the stack's network only, where nginx is."""
    proxy = (ROOT / "deploy" / "nginx-proxy.inc").read_text()
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in proxy
    assert "$proxy_add_x_forwarded_for" not in proxy
    for site in ["nginx-tls.conf", "nginx-plain.conf"]:
        assert "include /etc/nginx/wozsql-proxy.inc;" in (ROOT / "deploy" / site).read_text()
    daphne_commands = re.findall(r"^\s*command: (daphne .*)$", COMPOSE, re.MULTILINE)
    assert daphne_commands and not any("--proxy-headers" in command for command in daphne_commands)
    env = compose_app_environment("k")
    subnet = re.search(r"subnet: \*network", COMPOSE)
    assert subnet, "the stack's network must be the one TRUSTED_PROXIES names"
    assert ipaddress.ip_network(env["TRUSTED_PROXIES"])
