"""The Content-Security-Policy of every response (settings.CONTENT_SECURITY_POLICY; on unless DEBUG).

The pages run only the platform's own script files (data reaches them through `json_script`, which is no script), so
the policy allows nothing else: injected markup cannot run script, load from elsewhere or be framed. Sockets: CSP
Level 3 lets 'self' cover the page's own host over ws:/wss:, but browsers that predate it do not, so the page's own
websocket origin is named as well. Inline style is allowed: the SQL editor (CodeMirror) writes its styles into a
<style> element at run time, and the progress bars set their width in style attributes; style runs no script.
(Giving the editor a per-response nonce, EditorView.cspNonce, would let style-src drop 'unsafe-inline'.) With DEBUG
on, Django's error pages need inline script, so there is no policy there.
"""

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.utils.deprecation import MiddlewareMixin

_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; connect-src 'self'"
)


def content_security_policy(request) -> str:
    """The policy of a response to `request`: `_POLICY`, with the page's own websocket origin in connect-src."""
    try:
        host = request.get_host()
    except DisallowedHost:  # the answer is the refusal; it needs no socket
        return _POLICY
    return f"{_POLICY} {'wss' if request.is_secure() else 'ws'}://{host}"


class ContentSecurityPolicyMiddleware(MiddlewareMixin):
    def process_response(self, request, response):
        if settings.CONTENT_SECURITY_POLICY and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = content_security_policy(request)
        return response
