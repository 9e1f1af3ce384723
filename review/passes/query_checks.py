"""Where review checks queries on the test suites (docs/review.md, "Checking queries on the test suite").

- A corrected query is compared with the turn's original query when it is saved; the comparison is kept in the
  correction (`correction_suite_check`), shown on the review screen and read by the agreement figures.
- A reviewer compares a query they write with a turn's query ("does this query mean the question?",
  `query_compare`): a read, nothing is stored. Each comparison searches for SQL_COMPARE_SECONDS at most, and one
  person's comparisons together for SQL_COMPARE_BOX_SECONDS_PER_MINUTE in a clock minute (`compare_box_grant`).
- Final validation looks for a turn that asks something new and is answered with a query meaning the same as the
  previous turn's (`copied_queries`): a warning a reviewer clears (`review.passes.services`).

The comparison is `annotation.suites.checks.suite_check`; the display of one (`check_view`) is shared by the saved
corrections and the compare box.
"""

from __future__ import annotations

import math
import re
import time

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext, gettext_lazy

from annotation.labels.acts import SQL_GROUNDED_USER_ACTS
from annotation.suites.checks import ON_SUITE, SuiteCheckError, checked_on_text, suite_check, verdict_text
from dialogs.log import DialogueRecord, StateTurn, UserTurn

# A reply to the expert's confirmation ("yes", "no, I meant ...") is no new question, whatever else it holds.
REPLY_ACTS = frozenset({"AFFIRM", "NEGATE"})
# The rows only one query returns, listed above the two results: the first few say enough.
SHOWN_DIFFERENCES = 5
# A change of how a result is shown (order, DISTINCT) may keep the rows the previous turn's query returns.
DISPLAY_CATEGORY = "display"


def correction_suite_check(*, database, original_sql: str | None, corrected_sql: str) -> dict | None:
    """What a query correction keeps of its comparison with the turn's original query: the corrected query is the
    reference (its ORDER BY decides whether order counts). None when there is nothing to compare with (the turn had
    no query) or nothing to compare on (a database registered without data); `{"error"}` when the comparison fails
    on a database of the suite."""
    if not original_sql or not database.has_file:
        return None
    try:
        return suite_check(database, corrected_sql, original_sql)
    except SuiteCheckError as exc:
        return {"error": str(exc)}


class CompareRefused(ValueError):
    """A compare-box request that cannot be answered; the message is for the reviewer, `status` for the response."""

    def __init__(self, message: str, *, status: int = 400):
        super().__init__(message)
        self.status = status


# The compare box's time is counted per person and clock minute, in milliseconds, in the cache (shared by the
# processes when the cache is); a grant smaller than this is no use to a comparison and is refused instead.
_BOX_WINDOW_SECONDS = 60
_BOX_SMALLEST_GRANT_MS = 200


def _box_key(person) -> str:
    return f"compare-box:{person.pk}:{int(time.time() // _BOX_WINDOW_SECONDS)}"


def compare_box_grant(person) -> tuple[str, int]:
    """Reserve the time of one compare-box comparison of `person`: SQL_COMPARE_SECONDS, or what is left of their
    SQL_COMPARE_BOX_SECONDS_PER_MINUTE this minute if that is less (two comparisons at once share it). Returns the
    counter's key and the milliseconds granted; raises CompareRefused (429) when the minute's time is spent."""
    total_ms = int(settings.SQL_COMPARE_BOX_SECONDS_PER_MINUTE * 1000)
    wanted_ms = int(settings.SQL_COMPARE_SECONDS * 1000)
    key = _box_key(person)
    cache.add(key, 0, timeout=2 * _BOX_WINDOW_SECONDS)
    try:
        spent = cache.incr(key, wanted_ms)
    except ValueError:  # the counter expired in between: start it again
        cache.set(key, wanted_ms, timeout=2 * _BOX_WINDOW_SECONDS)
        spent = wanted_ms
    left_ms = total_ms - (spent - wanted_ms)
    granted_ms = min(wanted_ms, left_ms)
    if granted_ms < _BOX_SMALLEST_GRANT_MS:
        _box_return(key, wanted_ms)
        wait = math.ceil(_BOX_WINDOW_SECONDS - time.time() % _BOX_WINDOW_SECONDS)
        raise CompareRefused(
            gettext("Your comparisons have used this minute's %(seconds)s s: try again in %(wait)s s.")
            % {"seconds": f"{settings.SQL_COMPARE_BOX_SECONDS_PER_MINUTE:g}", "wait": wait},
            status=429,
        )
    _box_return(key, wanted_ms - granted_ms)
    return key, granted_ms


def _box_return(key: str, milliseconds: int) -> None:
    if milliseconds > 0:
        try:
            cache.decr(key, milliseconds)
        except ValueError:
            pass  # the minute is over: its counter is gone, nothing to give back


def query_compare(*, record: DialogueRecord, database, turn: int, sql: str, person=None) -> dict:
    """The reviewer's query (the reference) compared with the current query of user turn `turn` on the suite, with
    a search for a database that tells them apart. With `person`, the time comes out of their compare box's minute
    (`compare_box_grant`), and what the comparison did not use goes back."""
    current = next((item for item in record.user_turns if item.seq == turn), None)
    if current is None:
        raise CompareRefused(gettext("There is no user turn #%(turn)s in this dialogue.") % {"turn": turn})
    if not current.sql:
        raise CompareRefused(gettext("This turn has no query to compare with."))
    key, granted_ms = compare_box_grant(person) if person is not None else (None, None)
    started = time.monotonic()
    try:
        seconds = granted_ms / 1000 if granted_ms is not None else None
        return suite_check(database, sql, current.sql, seconds=seconds)
    except SuiteCheckError as exc:
        raise CompareRefused(gettext("Your query cannot be compared: %(error)s") % {"error": exc}) from exc
    finally:
        if key is not None:
            _box_return(key, granted_ms - int((time.monotonic() - started) * 1000))


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def asks_something_new(state: StateTurn, previous: StateTurn) -> bool:
    """The rule for "the utterance asks for something new": its user acts say it is answered by SQL (INFORM_SQL or
    INFER_SQL) and hold no reply to the expert (AFFIRM, NEGATE); its words are not the previous turn's words again (a
    repeat); and its intent, as labelled (or detected), is no change of display (a new order or DISTINCT may return
    the same rows). A clarification exchange is folded into the turn it resolves (`state_turns`), so it is part of
    that question, not a question of its own."""
    acts = set(state.turn.acts or [])
    if not acts & SQL_GROUNDED_USER_ACTS or acts & REPLY_ACTS:
        return False
    if _words(state.utterance) == _words(previous.utterance):
        return False
    intent = state.turn.labels.get("intent") or {}
    return intent.get("category") != DISPLAY_CATEGORY


def copied_queries(record: DialogueRecord, database) -> list[dict]:
    """The SQL-grounded turns that ask something new (`asks_something_new`) and whose final query means the same as
    the previous SQL turn's on the test suite (the original alone while it has none): a sign of a copied query. One
    finding per turn: {"turn", "index", "previous_turn", "sql", "previous_sql", "checked_on", "checked_databases",
    "searched_databases", "seconds"}: no database told the two apart, which is a sign, not a proof."""
    if not database.has_file:
        return []
    states = record.state_turns()
    position = {turn.seq: number for number, turn in enumerate(record.user_turns)}
    found = []
    for previous, state in zip(states, states[1:], strict=False):
        if not state.sql or not previous.sql or not asks_something_new(state, previous):
            continue
        try:
            check = suite_check(database, state.sql, previous.sql)
        except SuiteCheckError:
            continue  # a query that does not run is final validation's own problem
        if not check["equivalent"] or not (check["checked_databases"] or check.get("same_query")):
            continue
        found.append(
            {
                "turn": state.turn.seq,
                "index": position[state.turn.seq],
                "previous_turn": previous.turn.seq,
                "previous_index": position[previous.turn.seq],
                "sql": state.sql,
                "previous_sql": previous.sql,
                "checked_on": check["checked_on"],
                "checked_databases": check["checked_databases"],
                "searched_databases": check["searched_databases"],
                "seconds": check["seconds"],
                "same_query": bool(check.get("same_query")),
            }
        )
    return found


# --- what the review screen shows -------------------------------------------------------------------------------


def _difference_text(difference: dict, label_a: str, label_b: str) -> str:
    kind = difference.get("kind")
    if kind == "rows":
        return gettext("Rows that only one of them returns (below).")
    if kind == "order":
        return gettext("The same rows in another order: they part at row %(row)s.") % {
            "row": difference["position"] + 1
        }
    if kind == "columns":
        return gettext("%(a)s returns %(columns_a)s columns, %(b)s %(columns_b)s.") % {
            "a": label_a,
            "b": label_b,
            "columns_a": difference["columns_a"],
            "columns_b": difference["columns_b"],
        }
    if kind == "error":
        return gettext("%(b)s fails there: %(error)s") % {"b": label_b, "error": difference["message"]}
    return gettext("The same rows, but their columns pair differently.")


_DATABASE_NAMES = {
    "original": gettext_lazy("the original database"),
    "searched": gettext_lazy("a database made for this pair"),
}


def check_view(check: dict | None, *, label_a: str, label_b: str) -> dict | None:
    """A kept or fresh comparison as the screen shows it: the verdict in honest words (a difference shown, or none
    found on so many databases in so long), where it was checked, and for a difference the database where the two
    differ: its fewest rows that show it (for a generated one), both results side by side and the smallest
    difference. `label_a` names the reference query (the check's `a`), `label_b` the other."""
    if check is None:
        return None
    if "error" in check:
        return {"error": check["error"]}
    view = {
        "equivalent": check["equivalent"],
        "verdict": verdict_text(check),
        "where": checked_on_text(check),
        "on_suite": check.get("checked_on") == ON_SUITE,
        "label_a": label_a,
        "label_b": label_b,
    }
    counterexample = check.get("counterexample")
    if counterexample:
        difference = counterexample["difference"]
        view["database"] = str(_DATABASE_NAMES.get(counterexample["database"], counterexample["database"]))
        view["made"] = counterexample["database"] != "original"
        if counterexample["database"] == "searched":
            kept = checked_on_text({**check, "searched_databases": 0})
            view["where"] = gettext("found in %(seconds)s s, after %(kept)s") % {
                "seconds": f"{check.get('seconds', 0):g}",
                "kept": kept,
            }
        view["tables"] = counterexample.get("tables") or []
        view["sides"] = [
            {"label": label_a, "table": counterexample["a"]},
            {"label": label_b, "table": counterexample["b"]},
        ]
        view["difference"] = _difference_text(difference, label_a, label_b)
        for name in ("only_in_a", "only_in_b"):
            rows = difference.get(name) or []
            view[name], view[f"{name}_more"] = rows[:SHOWN_DIFFERENCES], max(len(rows) - SHOWN_DIFFERENCES, 0)
    return view


def correction_check_view(turn: UserTurn) -> dict | None:
    """The kept comparison of the query correction that gave the turn its current query, if it has one."""
    queries = [correction for correction in turn.corrections if correction.field == "query"]
    if not queries:
        return None
    return check_view(queries[-1].suite_check, label_a=gettext("Corrected query"), label_b=gettext("Original query"))
