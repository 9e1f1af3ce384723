"""The client's address behind a reverse proxy, trusted only from the proxy.

Everything that counts by address (sign-in throttling, django-axes; the hourly cap on new crowd accounts,
dialogs.crowd) reads REMOTE_ADDR. Behind the proxy that is the proxy's own address, and the client's is in
X-Forwarded-For, a header anyone can send: trusted from everyone (as Daphne's --proxy-headers does, taking its first
entry), a client names any address it likes and every count by address is void. So the header is read only when the
connection comes from one of TRUSTED_PROXIES, and from the right: each trusted proxy appends the address it saw, so
the rightmost entry not itself a trusted proxy is the last address no one could invent; entries further left are
the client's own words.
"""

import ipaddress

from django.conf import settings
from django.utils.deprecation import MiddlewareMixin


def _trusted(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in network for network in settings.TRUSTED_PROXIES)


def client_address(remote_addr: str, forwarded_for: str) -> str:
    """The client's address of a connection from `remote_addr` that carried `forwarded_for` (X-Forwarded-For)."""
    address = remote_addr
    hops = [hop.strip() for hop in forwarded_for.split(",")] if forwarded_for else []
    while hops and _trusted(address):
        hop = hops.pop()
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            break  # not written by a proxy of ours: the last trusted hop is as far as the chain can be believed
        address = hop
    return address


class ClientAddressMiddleware(MiddlewareMixin):
    """Sets REMOTE_ADDR to `client_address`, first thing, for every view and middleware after it."""

    def process_request(self, request):
        meta = request.META
        if settings.TRUSTED_PROXIES and "HTTP_X_FORWARDED_FOR" in meta:
            meta["REMOTE_ADDR"] = client_address(meta.get("REMOTE_ADDR", ""), meta["HTTP_X_FORWARDED_FOR"])
