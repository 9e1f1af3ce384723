"""What the review passes tell the rest of review, without knowing it (quality listens here), as dialogs.signals does
for review.

Sent by `review.passes.services` with `sender=DialogueReview`.
"""

from django.db import transaction
from django.dispatch import Signal

from review.models import DialogueReview

# Review's decision on a dialogue changed: a pass rejected it, or approved it through final validation, or an admin
# reopened a rejection. Sent once that decision has committed, so a receiver reads it from the database: kwargs
# `dialogue_id` and `stage` (the review row's stage as decided).
review_decided = Signal()


def review_decided_on_commit(*, dialogue_id: int, stage: str) -> None:
    """Send `review_decided` when the caller's transaction commits (at once outside one). A receiver's failure is
    logged, never raised: the decision stands whatever happens to what is built on it."""
    transaction.on_commit(
        lambda: review_decided.send(sender=DialogueReview, dialogue_id=dialogue_id, stage=stage), robust=True
    )
