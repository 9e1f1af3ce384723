"""Logging filters named in settings.LOGGING."""

import logging

from django.core.exceptions import PermissionDenied


class SkipOrdinaryRefusals(logging.Filter):
    """Drops what django.request writes for every PermissionDenied: a warning with the exception's traceback.

    Such a 403 is a rule doing its job (a worker on an expert page, a blocked person, someone else's dialogue) and
    its reason is on the 403 page; a traceback per refusal would bury the log's real problems. Other 403s pass:
    CSRF failures go to django.security.csrf, not through here.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        exception = record.exc_info[1] if record.exc_info else None
        return not (getattr(record, "status_code", None) == 403 and isinstance(exception, PermissionDenied))
