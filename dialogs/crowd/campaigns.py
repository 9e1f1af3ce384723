"""Campaigns: writing them (with every rule checked here, for the admin pages and the Django admin alike) and reading
how far each has got. Which goal pairing hands out is `dialogs.lobby.goal_choose`. See docs/crowd.md."""

from dataclasses import dataclass, field
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import transaction
from django.db.models import Count, Q

from annotation.model_client import model_configured
from annotation.models import Database, Goal, Hardness, User
from dialogs.lobby import dialogues_collected
from dialogs.models import Campaign, Dialogue, campaign_join_token


def campaign_check(
    *,
    campaign: Campaign | None,
    name: str,
    databases: list[Database],
    goals: list[Goal],
    target_per_goal: int,
    hardness_mix: dict,
    opens_at,
    closes_at,
    completion_url: str,
    bonus_min_questions: int,
    bonus_amount: Decimal,
    bonus_reason: str,
    bonus_after_review: bool,
    model_holdback_percent: int = 0,
) -> None:
    """Every rule a campaign must keep; ValidationError with the fields' messages when one is broken."""
    holdback_ok = isinstance(model_holdback_percent, int) and 0 <= model_holdback_percent <= 100
    checked = {
        "name": _name_error(campaign, name.strip()),
        "databases": None if databases else "Choose at least one database.",
        "goals": _goals_error(databases, goals),
        "target_per_goal": "Each goal needs at least one dialogue." if target_per_goal < 1 else None,
        "hardness_mix": _hardness_mix_error(hardness_mix),
        "closes_at": "The campaign must close after it opens."
        if closes_at is not None and closes_at <= opens_at
        else None,
        "completion_url": _completion_url_error(completion_url),
        "bonus_min_questions": "At least one question." if bonus_min_questions < 1 else None,
        "bonus_amount": "A bonus cannot be negative." if bonus_amount < 0 else None,
        "bonus_reason": "Keep the reason under 255 characters: the platforms show it to the worker."
        if len(bonus_reason) > 255
        else None,
        "model_holdback_percent": None
        if holdback_ok
        else "The control group is a whole percent of the dialogues, from 0 (every dialogue helped) to 100 (none).",
    }
    errors = {key: message for key, message in checked.items() if message}
    if errors:
        raise ValidationError(errors)


def _name_error(campaign: Campaign | None, name: str) -> str | None:
    if not name:
        return "Give the campaign a name."
    if Campaign.objects.filter(name=name).exclude(pk=campaign.pk if campaign else None).exists():
        return "Another campaign has this name."
    return None


def _goals_error(databases: list[Database], goals: list[Goal]) -> str | None:
    chosen_elsewhere = [goal for goal in goals if goal.database_id not in {database.pk for database in databases}]
    if chosen_elsewhere:
        return f"{len(chosen_elsewhere)} chosen goal(s) are on databases the campaign does not include."
    return None


def _hardness_mix_error(hardness_mix: dict) -> str | None:
    """A mix is empty, or a whole percent for Spider's hardness levels adding up to 100."""
    if not hardness_mix:
        return None
    unknown = set(hardness_mix) - set(Hardness.values)
    if unknown or any(not isinstance(share, int) or share < 0 for share in hardness_mix.values()):
        return "The mix gives a whole percent to each of: " + ", ".join(Hardness.values) + "."
    if sum(hardness_mix.values()) != 100:
        return f"The mix's percents add up to {sum(hardness_mix.values())}, not 100."
    return None


def _completion_url_error(completion_url: str) -> str | None:
    if not completion_url:
        return None
    try:
        URLValidator(schemes=["https", "http"])(completion_url.replace("{code}", "CODE"))
    except ValidationError:
        return "Give a whole http(s) URL, with {code} where the completion code goes."
    return None


def campaign_save(
    *,
    campaign: Campaign | None = None,
    by: User | None = None,
    name: str,
    databases: list[Database],
    goals: list[Goal],
    target_per_goal: int,
    hardness_mix: dict,
    opens_at,
    closes_at,
    completion_url: str = "",
    bonus_min_questions: int,
    bonus_amount: Decimal,
    bonus_reason: str = "",
    bonus_after_review: bool = False,
    model_holdback_percent: int = 0,
) -> Campaign:
    """Create a campaign (`campaign` None) or change one, after `campaign_check`. Returns the saved campaign. A new
    `model_holdback_percent` applies to the dialogues paired after it; those drawn before keep what they drew."""
    fields = {
        "name": name.strip(),
        "target_per_goal": target_per_goal,
        "hardness_mix": hardness_mix,
        "opens_at": opens_at,
        "closes_at": closes_at,
        "completion_url": completion_url.strip(),
        "bonus_min_questions": bonus_min_questions,
        "bonus_amount": bonus_amount,
        "bonus_reason": bonus_reason.strip(),
        "bonus_after_review": bonus_after_review,
        "model_holdback_percent": model_holdback_percent,
    }
    campaign_check(campaign=campaign, databases=databases, goals=goals, **fields)
    with transaction.atomic():
        if campaign is None:
            campaign = Campaign.objects.create(created_by=by, **fields)
        else:
            for name_, value in fields.items():
                setattr(campaign, name_, value)
            campaign.save(update_fields=list(fields))
        campaign.databases.set(databases)
        campaign.goals.set(goals)
    return campaign


def campaign_join_token_renew(*, campaign: Campaign) -> Campaign:
    """Give the campaign a new join link: the old one stops working (a leaked link, or a study run again)."""
    campaign.join_token = campaign_join_token()
    campaign.save(update_fields=["join_token"])
    return campaign


# --- Reads ------------------------------------------------------------------------------------------------------------


@dataclass
class CampaignProgress:
    """How far a campaign has got: dialogues collected (each goal counted up to its target) out of its target."""

    campaign: Campaign
    goals: int = 0
    collected: int = 0
    target: int = 0
    open: bool = False
    goal_rows: list = field(default_factory=list)  # (goal, collected), least collected first: the detail page only
    pool_hardness: dict = field(default_factory=dict)  # hardness level → goals in the pool
    collected_hardness: dict = field(default_factory=dict)  # hardness level → collected dialogues

    @property
    def percent(self) -> int:
        return round(100 * self.collected / self.target) if self.target else 0


def campaign_progress_list(now=None) -> list[CampaignProgress]:
    """Every campaign with its progress, newest first, in five queries whatever the number of campaigns."""
    campaigns = list(Campaign.objects.prefetch_related("databases", "goals"))
    active_per_database: dict[int, list[int]] = {}
    for goal_id, database_id in Goal.objects.filter(active=True, database__active=True).values_list(
        "id", "database_id"
    ):
        active_per_database.setdefault(database_id, []).append(goal_id)
    active = {goal_id for ids in active_per_database.values() for goal_id in ids}
    counts: dict[tuple[int, int], int] = {}
    collected = dialogues_collected().filter(campaign__isnull=False)
    for campaign_id, goal_id, n in collected.order_by().values_list("campaign_id", "goal_id").annotate(n=Count("id")):
        counts[(campaign_id, goal_id)] = n
    rows = []
    for campaign in campaigns:
        database_ids = {database.pk for database in campaign.databases.all() if database.active}
        chosen = {goal.pk for goal in campaign.goals.all()}
        pool = {goal_id for database_id in database_ids for goal_id in active_per_database.get(database_id, [])}
        if chosen:
            pool &= chosen & active
        rows.append(
            CampaignProgress(
                campaign=campaign,
                goals=len(pool),
                target=len(pool) * campaign.target_per_goal,
                collected=sum(min(counts.get((campaign.pk, goal_id), 0), campaign.target_per_goal) for goal_id in pool),
                open=campaign.is_open(now),
            )
        )
    return rows


def campaign_progress(campaign: Campaign, now=None) -> CampaignProgress:
    """One campaign's progress goal by goal, with the hardness of its pool and of what it collected."""
    pool = list(campaign.goal_pool().select_related("database").order_by("database__db_id", "id"))
    collected = dialogues_collected().filter(campaign=campaign)
    counts = dict(collected.order_by().values_list("goal_id").annotate(n=Count("id")))
    progress = CampaignProgress(
        campaign=campaign,
        goals=len(pool),
        target=len(pool) * campaign.target_per_goal,
        collected=sum(min(counts.get(goal.pk, 0), campaign.target_per_goal) for goal in pool),
        open=campaign.is_open(now),
        goal_rows=sorted(((goal, counts.get(goal.pk, 0)) for goal in pool), key=lambda row: row[1]),
    )
    for goal in pool:
        progress.pool_hardness[goal.hardness] = progress.pool_hardness.get(goal.hardness, 0) + 1
    progress.collected_hardness = dict(collected.order_by().values_list("goal__hardness").annotate(n=Count("id")))
    return progress


@dataclass
class ModelGroups:
    """A campaign's dialogues by what its control-group draw gave them (dialogs.control_group): helped by the model,
    held back from it, or paired while no model was configured (in neither group)."""

    configured: bool
    helped: int = 0
    held_back: int = 0
    undrawn: int = 0

    @property
    def held_back_percent(self) -> int | None:
        drawn = self.helped + self.held_back
        return round(100 * self.held_back / drawn) if drawn else None


def campaign_model_groups(campaign: Campaign) -> ModelGroups:
    """How many of the campaign's dialogues (every one paired, whatever became of it) fell in each group."""
    drawn = Q(control_slot__isnull=False)
    counts = Dialogue.objects.filter(campaign=campaign).aggregate(
        helped=Count("id", filter=drawn & Q(model_help=True)),
        held_back=Count("id", filter=drawn & Q(model_help=False)),
        undrawn=Count("id", filter=~drawn),
    )
    return ModelGroups(configured=model_configured(), **counts)
