"""Reads of people: the paged, filtered list of accounts an admin manages. Reads never write."""

from django.core.paginator import Page, Paginator
from django.db.models import Prefetch

from annotation.models import BlockRecord, Role, User

# People per page of the people list: a crowd collection has thousands of workers.
PEOPLE_PER_PAGE = 100


def people_page(*, role: str | None = None, page: int | str = 1) -> Page:
    """One page of people (by role, then name), each with their block history, newest first, in a fixed number of
    queries: the count, the page, and the history of the people on it."""
    queryset = User.objects.order_by("role", "username")
    if role in Role.values:
        queryset = queryset.filter(role=role)
    history = BlockRecord.objects.select_related("by").order_by("-created_at", "-id")
    return Paginator(queryset.prefetch_related(Prefetch("block_records", queryset=history)), PEOPLE_PER_PAGE).get_page(
        page
    )
