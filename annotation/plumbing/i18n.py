"""Django's translation for code that also runs without Django (the SQL core's standalone use: the bench scripts
read `annotation.sql` with no settings): the text in the active language when Django is set up, the English text as
written when it is not (docs/i18n.md)."""

from django.core.exceptions import AppRegistryNotReady, ImproperlyConfigured
from django.utils import translation


def gettext(message: str) -> str:
    """`message` in the active language; as written when Django's settings or apps are not set up."""
    try:
        return translation.gettext(message)
    except (ImproperlyConfigured, AppRegistryNotReady):
        return message


def language() -> str:
    """The active language's code; "en" when Django's settings or apps are not set up."""
    try:
        return translation.get_language() or "en"
    except (ImproperlyConfigured, AppRegistryNotReady):
        return "en"
