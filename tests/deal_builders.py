"""Builders of the dealt-work story (tests/browser/test_deals.py), run in the platform's command runner: the state the
story starts from, reached by the service layer."""


def deal_experts(*usernames: str, password: str) -> list[str]:
    """Experts named `usernames` with `password` (made once: the browser session shares one platform)."""
    from annotation.models import Role, User
    from annotation.people.services import person_create

    for username in usernames:
        if not User.objects.filter(username=username).exists():
            person_create(username=username, role=Role.EXPERT, password=password)
    return list(usernames)


def deal_minima(deal_name: str, username: str) -> list[int]:
    """The minimum of questions of each item of `deal_name` that `username` holds, in the order they were dealt."""
    from dialogs.models import WorkAssignment

    return list(
        WorkAssignment.objects.filter(deal__name=deal_name, person__username=username, state__in=["open", "started"])
        .order_by("item")
        .values_list("min_questions", flat=True)
    )
