"""The one error of the next-question suggestion (`annotation.wording.suggestions`): raised by every step, from
reading the schema to choosing a category."""

from __future__ import annotations


class IntentError(ValueError):
    """A previous query or schema that cannot be read, a category that cannot be recommended for it, or bad targets."""
