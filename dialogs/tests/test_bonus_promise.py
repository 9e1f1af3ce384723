"""What a worker is promised about the bonus is what their campaign pays: its own rule and amount, read from the rule
the payout reads (`Campaign.bonus_earned`), or nothing when they came with no campaign or it pays no bonus."""

import itertools
from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from annotation.models import Goal
from dialogs.crowd import campaigns
from dialogs.crowd.services import CrowdIds, bonus_promise, crowd_join
from dialogs.models import Dialogue
from dialogs.room import dialogue_post
from dialogs.selectors import dialogue_snapshot
from review.payments.services import campaign_bonuses

pytestmark = pytest.mark.django_db

_ids = itertools.count(1)


def campaign_paying(demo_databases, *, at_least: int, amount: str, after_review: bool = False):
    database = demo_databases["dorm_demo"]
    Goal.objects.get_or_create(database=database, question="How many students?", sql="SELECT count(*) FROM student")
    return campaigns.campaign_save(
        name=f"Pays {amount} at {at_least}",
        databases=[database],
        goals=[],
        target_per_goal=5,
        hardness_mix={},
        opens_at=timezone.now() - timedelta(hours=1),
        closes_at=None,
        bonus_min_questions=at_least,
        bonus_amount=Decimal(amount),
        bonus_after_review=after_review,
    )


def arrive(campaign, n: int = 1):
    """A Prolific worker opens the campaign's join link."""
    return crowd_join(campaign=campaign, ids=CrowdIds("prolific", f"{n:024x}", f"{1000 + n:024x}", f"{2000 + n:024x}"))


def dialogue_of(assignment, expert, *, answered: int) -> Dialogue:
    """A dialogue of the assignment's worker with `answered` questions answered with a table, still open."""
    goal = Goal.objects.filter(database__db_id="dorm_demo").first()
    dialogue = Dialogue.objects.create(
        database=goal.database,
        goal=goal,
        worker=assignment.crowd_worker.person,
        expert=expert,
        campaign=assignment.campaign,
        crowd_assignment=assignment,
    )

    def send(person, **message):
        return dialogue_post(dialogue=dialogue, person=person, message={"id": f"b{next(_ids)}", **message})[0][0]

    for n in range(answered):
        turn = send(dialogue.worker, type="utterance", text=f"How many students are older than {n}?").seq
        send(expert, type="user_acts", turn=turn, acts=["INFORM_SQL"])
        run = send(expert, type="sql_run", turn=turn, sql=f"SELECT count(*) FROM student WHERE age > {n}")
        send(expert, type="share_result", turn=turn, run=run.seq)
        send(expert, type="response", turn=turn, text="Here it is.", acts=["CONFIRM_SQL"])
    return dialogue


def signed_in(client, person):
    person.tutorial_passed_at = person.tutorial_passed_at or timezone.now()
    person.save(update_fields=["tutorial_passed_at"])
    client.force_login(person)
    return client


def test_the_tutorial_states_the_campaigns_own_rule_and_amount(client, demo_databases):
    campaign = campaign_paying(demo_databases, at_least=4, amount="0.75")
    person = arrive(campaign).crowd_worker.person
    client.force_login(person)
    page = client.get(reverse("dialogs:tutorial")).content.decode()
    assert "More than 4" not in page
    assert (
        "A dialogue with at least 4 good related questions (each answered with a table from the data) earns a bonus "
        "of 0.75 GBP, unless the expert scores the dialogue below 3 or review rejects it." in page
    )


def test_a_bonus_paid_after_review_says_so(demo_databases):
    campaign = campaign_paying(demo_databases, at_least=6, amount="1.20", after_review=True)
    promise = bonus_promise(arrive(campaign))
    assert promise.text.endswith("earns a bonus of 1.20 GBP, once review approves the dialogue.")


def test_nothing_is_promised_without_a_campaign_or_when_it_pays_no_bonus(client, demo_databases, alice, erin):
    # Alice's account was made by hand: she works for no crowd task, and no bonus is paid to her.
    client.force_login(alice)
    assert "bonus" not in client.get(reverse("dialogs:tutorial")).content.decode().lower()
    # A campaign that pays nothing (as the demo's would) promises nothing, in the tutorial or in the room.
    unpaid = arrive(campaign_paying(demo_databases, at_least=5, amount="0.00"), n=2)
    client.force_login(unpaid.crowd_worker.person)
    assert "bonus" not in client.get(reverse("dialogs:tutorial")).content.decode().lower()
    dialogue = dialogue_of(unpaid, erin, answered=0)
    room = signed_in(client, unpaid.crowd_worker.person).get(reverse("dialogs:room", args=[dialogue.pk]))
    assert "bonus" not in room.content.decode().lower()
    assert dialogue_snapshot(dialogue=dialogue, role="worker")["bonus"] is None


def test_the_room_says_the_rule_and_counts_toward_it_as_the_payout_does(client, settings, demo_databases, erin):
    """A campaign paying at "at least 4": the room told a worker with 4 good questions they had not qualified, and
    the payout paid them. Now the room's progress and the payout read one rule."""
    settings.DIALOGUE_MIN_QUESTIONS = 3
    campaign = campaign_paying(demo_databases, at_least=4, amount="0.50")
    three = dialogue_of(arrive(campaign, n=1), erin, answered=3)
    four = dialogue_of(arrive(campaign, n=2), erin, answered=4)

    room = signed_in(client, three.worker).get(reverse("dialogs:room", args=[three.pk])).content.decode()
    assert "at least 4 good related questions" in room and "0.50 GBP" in room
    assert dialogue_snapshot(dialogue=three, role="worker")["bonus"] == {
        "min_questions": 4,
        "earned": False,
        "rule": bonus_promise(three.crowd_assignment).text,
    }
    assert dialogue_snapshot(dialogue=four, role="worker")["bonus"]["earned"] is True
    # The expert's state says nothing of the worker's bonus.
    assert "bonus" not in dialogue_snapshot(dialogue=four, role="expert")

    for dialogue in (three, four):
        dialogue_post(dialogue=dialogue, person=dialogue.worker, message={"id": f"end-{dialogue.pk}", "type": "end"})
    earning = {row.external_id: row.earning for row in campaign_bonuses(campaign)}
    assert earning == {f"{1:024x}": 0, f"{2:024x}": 1}
