"""Builders of the expert onboarding's browser story (tests/browser/test_expert_onboarding.py), run in the platform's
command runner. Kept apart from tests/builders.py: only that story uses them."""

PAGES_GOAL = "What are the titles of the books with more than 300 pages?"
PAGES_SQL = "SELECT title FROM book WHERE pages > 300"


def onboarding_newcomers(expert: str, worker: str, password: str) -> dict:
    """A new expert (no qualification of any kind) and a worker who passed the tutorial, both with `password`; a goal
    kept for practice; and an open campaign whose rule asks for one practice dialogue with 60% of its answers
    equivalent. Returns the campaign's and the goal's ids: `onboarding_campaign_delete` removes the campaign (it
    would hand out only its goals to the stories after this one)."""
    import secrets

    from django.contrib.auth.hashers import make_password
    from django.utils import timezone

    from annotation.goals.services import goal_create
    from annotation.models import Database, Goal, User
    from dialogs.models import Campaign
    from dialogs.onboarding.models import PracticeGoal, PracticeRule
    from tests.builders import browser_lobby_cleared

    hashed = make_password(password)
    User.objects.get_or_create(username=expert, defaults={"role": "expert", "password": hashed})
    User.objects.get_or_create(
        username=worker, defaults={"role": "worker", "password": hashed, "tutorial_passed_at": timezone.now()}
    )
    database = Database.objects.get(db_id="library_demo")
    goal = Goal.objects.filter(database=database, sql=PAGES_SQL).first() or goal_create(
        database=database, question=PAGES_GOAL, sql=PAGES_SQL
    )
    PracticeGoal.objects.get_or_create(goal=goal)
    campaign = Campaign.objects.create(name=f"Onboarding {secrets.token_hex(3)}")
    campaign.databases.set([database])
    PracticeRule.objects.create(campaign=campaign, practice_dialogues=1, min_equivalent_percent=60)
    browser_lobby_cleared()  # nobody another story left ready takes this story's worker
    return {"campaign": campaign.pk, "goal": goal.pk}


def onboarding_campaign_delete(pk: int) -> None:
    """Remove the campaign `onboarding_newcomers` made (no dialogue names it: practice belongs to no campaign)."""
    from dialogs.models import Campaign

    Campaign.objects.filter(pk=pk).delete()
