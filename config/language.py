"""Which language a page is in (docs/i18n.md): decided here, once per request, for every page and form.

In order: an explicit `?lang=` on the address (a crowd link carries one; it is kept for the session), the language
chosen on the person's account, the one kept in the session, and the browser's Accept-Language; English when none of
them names a language of `settings.LANGUAGES`. This replaces Django's LocaleMiddleware, which knows nothing of accounts;
it runs after the session and authentication middleware, which it reads.
"""

from django.conf import settings
from django.http import HttpRequest, QueryDict
from django.utils import translation
from django.utils.cache import patch_vary_headers

SESSION_KEY = "wozsql_language"
QUERY_PARAMETER = "lang"


def supported(code: str | None) -> str | None:
    """`code` as one of settings.LANGUAGES ('zh-Hans', 'zh_hans' and 'zh-cn' read as zh-hans), or None."""
    if not code or not isinstance(code, str) or len(code) > 20:
        return None
    try:
        return translation.get_supported_language_variant(code.strip().lower().replace("_", "-"))
    except LookupError:
        return None


def explicit_language(request) -> str | None:
    """The language the address names (`?lang=`), if it is one of settings.LANGUAGES."""
    return supported(request.GET.get(QUERY_PARAMETER))


def language_for(request) -> str:
    """The language of this request's pages, by the order in the module's docstring."""
    explicit = explicit_language(request)
    if explicit:
        return explicit
    user = getattr(request, "user", None)
    chosen = supported(getattr(user, "language", "")) if user is not None and user.is_authenticated else None
    if chosen:
        return chosen
    session = getattr(request, "session", None)
    kept = supported(session.get(SESSION_KEY)) if session is not None else None
    if kept:
        return kept
    return translation.get_language_from_request(request) or settings.LANGUAGE_CODE


def language_for_scope(scope) -> str:
    """The language of a websocket (dialogs.transport), decided as a page's is, from what its scope carries: the
    account's language, the session's, the browser's Accept-Language (and a `?lang=` on the socket's address, which
    the pages' scripts do not add). Reads the session: call it off the event loop."""
    request = HttpRequest()
    request.GET = QueryDict(scope.get("query_string", b"").decode("latin-1"))
    request.COOKIES = dict(scope.get("cookies") or {})
    for name, value in scope.get("headers") or ():
        if name.lower() == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    request.user = scope.get("user")
    request.session = scope.get("session")
    return language_for(request)


class LanguageMiddleware:
    """Activates `language_for(request)` for the request, and the language before it afterwards; an explicit ?lang= is
    kept in the session for later pages."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        language = language_for(request)
        explicit = explicit_language(request)
        if explicit and getattr(request, "session", None) is not None and request.session.get(SESSION_KEY) != explicit:
            request.session[SESSION_KEY] = explicit
        # For this request only: whatever runs next on this thread (a test after a test client's request, a task)
        # finds the language it had before, not the last person's.
        with translation.override(language):
            request.LANGUAGE_CODE = translation.get_language()
            response = self.get_response(request)
        # A response whose address names its language (config/javascript_catalogue.py) does not vary with the request.
        if not getattr(response, "language_in_address", False):
            patch_vary_headers(response, ("Accept-Language", "Cookie"))
        response.headers.setdefault("Content-Language", language)
        return response
