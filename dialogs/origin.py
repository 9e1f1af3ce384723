"""The websocket Origin check: a socket opens only from a page of this very site.

A browser sends the session cookie with a websocket handshake whatever page opens it, so without this check any
site could open a room in a signed-in person's name (cross-site websocket hijacking). channels'
AllowedHostsOriginValidator compares only the Origin's host with ALLOWED_HOSTS: a page on another port or scheme of
an allowed host passed. This check is the one Django's CSRF middleware makes of a form post's Origin: it must be the
scheme, host and port the request came to (its Host header, which must be in ALLOWED_HOSTS), or one of
CSRF_TRUSTED_ORIGINS.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import is_same_domain, split_domain_port, validate_host

_DEFAULT_PORTS = {"http": 80, "https": 443}
# The page that opens a ws:// socket is served over http://, a wss:// one over https://.
_PAGE_SCHEME = {"ws": "http", "wss": "https"}

Origin = tuple[str, str, int]  # (scheme, host, port), the host lower-case and IPv6 hosts in brackets


def parse_origin(text: str) -> Origin | None:
    """The (scheme, host, port) of an origin such as "https://example.org:8443"; None if it is not one."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/") or parts.query:
        return None
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"  # as the Host header writes an IPv6 address
    return scheme, host, port or _DEFAULT_PORTS[scheme]


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or []:
        if key.lower() == name:
            return value.decode("latin1")
    return None


def request_origin(scope) -> Origin | None:
    """The origin a websocket request came to, as Django would see it for an HTTP request (Host header checked
    against ALLOWED_HOSTS, the scheme taken from SECURE_PROXY_SSL_HEADER behind a TLS proxy); None if the Host is
    missing or not allowed."""
    host = _header(scope, b"host")
    if not host:
        return None
    domain, port = split_domain_port(host)
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]  # Django's own default for DEBUG without ALLOWED_HOSTS
    if not domain or not validate_host(domain, allowed):
        return None
    scheme = _PAGE_SCHEME.get(scope.get("scheme") or "ws")
    if scheme is None:
        return None
    if settings.SECURE_PROXY_SSL_HEADER:
        meta_name, secure_value = settings.SECURE_PROXY_SSL_HEADER
        forwarded = _header(scope, meta_name.removeprefix("HTTP_").replace("_", "-").lower().encode("latin1"))
        if forwarded is not None:
            scheme = "https" if forwarded.split(",", 1)[0].strip() == secure_value else "http"
    return scheme, domain, int(port) if port else _DEFAULT_PORTS[scheme]


def _trusted(origin: Origin) -> bool:
    """True when `origin` is one of CSRF_TRUSTED_ORIGINS ("https://*.example.org" names every subdomain)."""
    scheme, host, port = origin
    for entry in settings.CSRF_TRUSTED_ORIGINS:
        wildcard = "://*." in entry
        trusted = parse_origin(entry.replace("://*.", "://", 1) if wildcard else entry)
        if trusted is None or trusted[0] != scheme or trusted[2] != port:
            continue
        if wildcard and is_same_domain(host, "." + trusted[1]):
            return True
        if not wildcard and host == trusted[1]:
            return True
    return False


def origin_allowed(scope) -> bool:
    """True when the websocket request in `scope` comes from a page of this site (see the module's docstring)."""
    here = request_origin(scope)
    if here is None:
        return False
    origin = parse_origin(_header(scope, b"origin") or "")
    if origin is None:
        return False
    return origin == here or _trusted(origin)


class SameOriginValidator:
    """ASGI middleware: a websocket whose Origin is not this site (`origin_allowed`) is closed before the handshake."""

    def __init__(self, application):
        self.application = application
        self.deny = WebsocketDenier.as_asgi()

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await self.deny(scope, receive, send)
        return await self.application(scope, receive, send)
