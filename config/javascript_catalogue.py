"""The JavaScript's words (docs/i18n_javascript.md), served so that a browser fetches them once per language and
catalogue rather than on every page.

Every page loads `/jsi18n/<language>/<version>.js` (`catalogue_url`, through the `javascript_catalogue_url` tag of
templates/base.html): the language is in the address, not read from the request, and the version is a hash of the
catalogue's own text in that language. The same address therefore always answers the same bytes, and says so for a
year (`immutable`); a new catalogue (`make messages`, a new Django) is a new hash, hence a new address, as soon as the
process restarts. An address with another version (a page cached before a deployment) still answers the current
catalogue, but only to be revalidated. Both answers carry an ETag and answer 304 to a browser that has them.
"""

import hashlib
from functools import cache

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_cache_control
from django.views.i18n import JavaScriptCatalog

ONE_YEAR = 365 * 24 * 3600


@cache
def _catalogue(language: str) -> tuple[bytes, str]:
    """The catalogue's JavaScript in `language` and its version (a hash of that text), made once per process."""
    request = HttpRequest()
    request.method = "GET"
    view = JavaScriptCatalog()
    view.setup(request)
    with translation.override(language):
        content = view.get(request).content
    return content, hashlib.sha256(content).hexdigest()[:16]


def catalogue_url(language: str) -> str:
    """The versioned address of the catalogue in `language` (one of settings.LANGUAGES, else the default's)."""
    codes = {code for code, _name in settings.LANGUAGES}
    language = language if language in codes else settings.LANGUAGE_CODE
    return reverse("javascript-catalog-versioned", args=[language, _catalogue(language)[1]])


def versioned_catalogue(request, language: str, version: str):
    """GET /jsi18n/<language>/<version>.js: the catalogue in the address's language, cached for a year when the
    version is the current one."""
    if language not in {code for code, _name in settings.LANGUAGES}:
        raise Http404("no such language")
    content, current = _catalogue(language)
    etag = f'"{current}"'
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = HttpResponse(content, content_type='text/javascript; charset="utf-8"')
    response.headers["ETag"] = etag
    if version == current:
        patch_cache_control(response, public=True, max_age=ONE_YEAR, immutable=True)
    else:
        patch_cache_control(response, no_cache=True)
    # The address names the language: the language middleware's Vary (Accept-Language, Cookie) does not apply, and
    # would make a browser fetch it again whenever a cookie changes. The middleware read the session to choose a
    # language this answer does not use, so the session middleware is told it was not read (it adds Vary: Cookie to
    # any answer that read it).
    response.language_in_address = True
    session = getattr(request, "session", None)
    if session is not None and not session.modified:
        session.accessed = False
    response.headers["Content-Language"] = language
    return response
