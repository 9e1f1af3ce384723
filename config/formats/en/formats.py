"""English dates as the pages always showed them (ISO order, 24-hour clock); settings.FORMAT_MODULE_PATH names this
folder. Templates ask for SHORT_DATETIME_FORMAT and SHORT_DATE_FORMAT, so each language writes its own
(docs/i18n.md)."""

SHORT_DATETIME_FORMAT = "Y-m-d H:i"
SHORT_DATE_FORMAT = "Y-m-d"
