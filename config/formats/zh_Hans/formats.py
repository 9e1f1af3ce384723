"""Simplified Chinese dates for the pages' SHORT_DATETIME_FORMAT and SHORT_DATE_FORMAT (docs/i18n.md)."""

SHORT_DATETIME_FORMAT = "Y年n月j日 H:i"
SHORT_DATE_FORMAT = "Y年n月j日"
