"""Template filters of the review screen."""

from django import template

from review.models import DatasetFormat
from review.passes.services import sent_back_to as waiting

register = template.Library()


@register.filter
def join_if_list(value) -> str:
    """A correction's value as text: act lists joined, DROP flags in words."""
    if isinstance(value, bool):
        return "DROP" if value else "kept"
    if isinstance(value, list | tuple):
        return ", ".join(str(item) for item in value) or "none"
    return "" if value is None else str(value)


@register.filter
def percent(value) -> str:
    """A share (0 to 1) as a whole percentage; a dash when there is nothing to divide by (None)."""
    return "—" if value is None else f"{value:.0%}"


@register.filter
def format_names(formats) -> str:
    """Export formats as people read them ("CoSQL release, SParC"), not as the options store them."""
    labels = dict(DatasetFormat.choices)
    return ", ".join(labels.get(name, name) for name in formats or [])


@register.simple_tag
def sent_back_to(person):
    """What waits for `person`'s fixes (review.passes.services.sent_back_to): the expert's desk lists it."""
    return waiting(person)
