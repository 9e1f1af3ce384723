"""What each side of a room may see of an event: the one filter between the log and a socket.

Workers never receive SQL text, act labels, the goal SQL, scores or the expert's notes. The filter is an allow-list
per event kind: a field not named here never reaches a worker, so new payload fields are private by default.
"""

from annotation.labels.tokens import utterance_toks
from annotation.models import Role
from dialogs.models import Event, EventKind

# For workers: event kind → payload fields they may see. Kinds not listed are not sent to workers at all.
_WORKER_FIELDS: dict[str, tuple[str, ...]] = {
    EventKind.JOIN: (),
    EventKind.LEAVE: (),
    EventKind.UTTERANCE: ("text",),
    EventKind.RESULT_SHARED: ("turn", "columns", "rows", "row_count", "truncated", "total_rows"),
    EventKind.RESPONSE: ("turn", "text"),
    EventKind.DROP: ("turn", "warning"),
    # The reason too: a terminated worker is told why (the expert writes it for them).
    EventKind.END: ("status", "completion_code", "requeued", "reason"),
    # What to ask next, in plain words: the category and relation are the expert's and the statistics' business.
    EventKind.RECOMMENDATION: ("turn", "text"),
}


def event_view(event: Event, role: str) -> dict | None:
    """The event as `role` receives it over the websocket, or None when that role must not see it."""
    base = {
        "seq": event.seq,
        "kind": event.kind,
        "author_role": event.author_role,
        "created_at": event.created_at.isoformat(),
    }
    if role == Role.EXPERT:
        if event.kind == EventKind.UTTERANCE:
            # The words the expert marks an ambiguity's span on, as the server numbers them (check_ambiguity): one
            # tokeniser, never re-implemented in the browser.
            return {**base, "payload": {**event.payload, "tokens": utterance_toks(event.payload["text"])}}
        return {**base, "payload": event.payload}
    fields = _WORKER_FIELDS.get(event.kind)
    if fields is None:
        return None
    return {**base, "payload": {name: event.payload[name] for name in fields if name in event.payload}}
