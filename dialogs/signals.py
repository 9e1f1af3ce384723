"""What the dialogs app tells apps built on it, without knowing them (the apps' direction: review listens here).

The first two are sent by `dialogs.room` with `sender=Dialogue`; the third by `dialogs.query_first`.
"""

from django.dispatch import Signal

# A dialogue ended (completed, terminated or abandoned), sent by `_end` once its status and end event are written:
# kwargs `dialogue`. Sent after `_end`'s own transaction; a caller's outer transaction may still be open, so a
# receiver with side effects defers them to `transaction.on_commit`.
dialogue_ended = Signal()

# The expert scored the worker, sent by `_score` inside the scoring transaction, under the dialogue's row lock and
# before the row (score, and status when the score drops it) is saved: kwargs `dialogue` and `score`. Receivers read
# the score from `score`, not from the database; what they write commits, or rolls back, with the score. It comes
# before the dialogue's own consequence of a low score, so a quality rule that blocks the worker for it is the one
# whose record (rule and evidence) stays current.
dialogue_scored = Signal()

# Phase 1 of a query-first item is over for its writer (dialogs.query_first): the question written (the item's stage
# is then ALIGNING) or the goal skipped (SKIPPED). Sent with `sender=QueryFirstItem` once the item is saved (a written
# question's inside its transaction, under the goal's row lock): kwargs `item`. A dealt goal's assignment is closed by
# it (docs/dealing.md).
query_first_phase1_closed = Signal()
