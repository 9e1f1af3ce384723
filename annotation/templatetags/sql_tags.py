"""Template filters for showing SQL: `{% load sql_tags %}{{ goal.sql|pretty_sql }}`."""

from functools import lru_cache

from django import template
from sqlglot.errors import SqlglotError

from annotation.sql.spider import DIALECT, SpiderEncodingError, parse_sql

register = template.Library()


@register.filter
@lru_cache(maxsize=2048)  # the same goals are shown on page after page; parsing is the cost
def pretty_sql(sql: str) -> str:
    """The SQL laid out one clause per line, read as the datasets read it (spider.DIALECT: "France" is a string,
    written back as 'France'). For display only: what is stored and exported stays as written. SQL that does not
    parse is returned unchanged, so a page never fails on it."""
    if not isinstance(sql, str) or not sql.strip():
        return sql or ""
    try:
        return parse_sql(sql).sql(dialect=DIALECT, pretty=True)
    except (SpiderEncodingError, SqlglotError, RecursionError):
        return sql
