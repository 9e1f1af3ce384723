"""Reads of the quality pages: crowd workers with their profiles (review.quality.services writes them), and experts
with what review changed in their dialogues (review.passes.agreement's figures, and the corrections themselves)."""

from __future__ import annotations

from django.core.paginator import Page, Paginator
from django.db.models import Count, F, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum
from django.utils.translation import gettext_lazy

from annotation.labels.tokens import utterance_toks
from annotation.models import BlockRecord, Database, Role, User
from dialogs.models import ENDED_STATUSES, Dialogue
from review.models import ReviewPass, SendBack
from review.passes.agreement import judged_corrections, review_agreement
from review.passes.screen import FIELD_LABELS, label_text
from review.records import dialogue_records

# The orders the worker quality page offers: key -> (label, ORDER BY). Lowest quality first by default: the workers to
# look at. Workers without a profile yet (no dialogue held) come last in every order.
WORKER_SORTS = {
    "quality": (gettext_lazy("Quality, lowest first"), (F("quality__quality").asc(nulls_last=True), "username")),
    "-quality": (gettext_lazy("Quality, highest first"), (F("quality__quality").desc(nulls_last=True), "username")),
    "dialogues": (gettext_lazy("Most dialogues"), (F("quality__dialogues").desc(nulls_last=True), "username")),
    "score": (
        gettext_lazy("Mean expert score, lowest first"),
        (F("quality__score_mean").asc(nulls_last=True), "username"),
    ),
    "low_scores": (gettext_lazy("Most scores below 3"), (F("quality__low_scores").desc(nulls_last=True), "username")),
    "rejected": (gettext_lazy("Most rejected in review"), (F("quality__rejected").desc(nulls_last=True), "username")),
    "username": (gettext_lazy("Username"), ("username",)),
}
WORKERS_PER_PAGE = 100


def worker_quality_page(*, sort: str = "quality", page: int | str = 1) -> Page:
    """One page of crowd workers with their quality profile and block history, in a fixed number of queries (the
    count, the page joined with the profiles, the page's block records), however many workers there are."""
    ordering = WORKER_SORTS.get(sort, WORKER_SORTS["quality"])[1]
    history = BlockRecord.objects.select_related("by").order_by("-created_at", "-id")
    workers = (
        # Active accounts: the stand-in author of imported dialogues is a worker that never signs in.
        User.objects.filter(role=Role.WORKER, is_active=True)
        .select_related("quality")
        .prefetch_related(Prefetch("block_records", queryset=history))
        .order_by(*ordering)
    )
    return Paginator(workers, WORKERS_PER_PAGE).get_page(page)


def expert_quality_rows() -> list[dict]:
    """Every expert with the dialogues they ended and what review changed in them (review.passes.agreement's per-expert
    figures: share of turns whose acts, SQL, response or utterance a decided pass changed; execution match of the
    corrected queries; rejections)."""
    return _expert_rows(User.objects.filter(role=Role.EXPERT))


def expert_quality_row(expert: User) -> dict:
    """One person's row of the expert quality page, read the same way (the expert's own page shows it)."""
    return _expert_rows(User.objects.filter(pk=expert.pk))[0]


def _expert_rows(people: QuerySet[User]) -> list[dict]:
    reviewed = {row["expert"]: row for row in review_agreement()["experts"]}
    experts = (
        people.annotate(ended=Count("dialogues_as_expert", filter=Q(dialogues_as_expert__status__in=ENDED_STATUSES)))
        .annotate(**_sent_back_annotations())
        .order_by("username")
    )
    return [
        {
            "expert": expert,
            "ended": expert.ended,
            "review": reviewed.get(expert.username),
            "sent_back": {
                "dialogues": expert.sent_back_dialogues or 0,
                "fixes": expert.sent_back_fixes or 0,
                "open": expert.sent_back_open or 0,
            },
        }
        for expert in experts
    ]


def _sent_back_annotations() -> dict:
    """Per author, in the same query as the rest of their row: dialogues sent back to them, the fixes they made, and
    how many still wait for them (docs/review.md, "Sent back to the author")."""

    def per_author(value, **only):
        rows = SendBack.objects.filter(author=OuterRef("pk"), **only).order_by().values("author")
        return Subquery(rows.annotate(n=value).values("n")[:1])

    return {
        "sent_back_dialogues": per_author(Count("id")),
        "sent_back_fixes": per_author(Sum("fixes")),
        "sent_back_open": per_author(Count("id"), returned_at__isnull=True),
    }


def send_back_figures() -> dict:
    """The reviewers' side of dialogues sent back to their authors: how many each sent (the dashboard says it)."""
    rows = SendBack.objects.values("reviewer__username").annotate(dialogues=Count("id")).order_by("reviewer__username")
    return {"reviewers": [{"reviewer": row["reviewer__username"], "dialogues": row["dialogues"]} for row in rows]}


EXPERT_WORK_PER_PAGE = 20
DECIDED = (ReviewPass.Decision.APPROVED, ReviewPass.Decision.REJECTED)


def expert_work_page(expert: User, *, page: int | str = 1, reviewer_names: bool = False) -> Page:
    """One page of `expert`'s dialogues that review decided (a pass approved or rejected them), newest decision
    first, each with its decided passes and, per turn, the corrections those passes made (the corrections that
    review.passes.agreement counts in the expert's figures).

    An item is {"dialogue", "record", "passes", "turns"}; a turn is {"index", "text", "corrections"}, a correction
    {"field", "label", "old", "new", "before" (None: the expert's value; else the pass whose value it replaced),
    "pass", "reason", "reviewer"}. Reviewers' names are read only with `reviewer_names` (an admin's view: experts
    see pass numbers). Only the page's dialogues are folded, in a fixed number of queries however many there are.
    """
    last_decision = (
        ReviewPass.objects.filter(review__dialogue=OuterRef("pk"), decision__in=DECIDED)
        .order_by("-finished_at", "-id")
        .values("finished_at")[:1]
    )
    dialogues = (
        Dialogue.objects.filter(expert=expert)
        .annotate(decided_at=Subquery(last_decision))
        .filter(decided_at__isnull=False)
        .select_related("review")
        .order_by("-decided_at", "-id")
    )
    page = Paginator(dialogues, EXPERT_WORK_PER_PAGE).get_page(page)
    ids = [dialogue.pk for dialogue in page.object_list]
    if not ids:
        return page
    records = {record.id: record for record in dialogue_records(Dialogue.objects.filter(pk__in=ids), timestamps=False)}
    decided = ReviewPass.objects.filter(review__dialogue_id__in=ids, decision__in=DECIDED).annotate(
        dialogue_id=F("review__dialogue_id")
    )
    passes: dict[int, list[ReviewPass]] = {pk: [] for pk in ids}
    for item in decided.select_related("reviewer") if reviewer_names else decided:
        passes[item.dialogue_id].append(item)
    names: dict[int, str] = {}
    if reviewer_names:
        who = {c.reviewer_id for record in records.values() for c in record.corrections}
        names = dict(User.objects.filter(pk__in=who).values_list("pk", "username"))
    # Schema links read as the words and the names they link (for the rare correction of one): schemas on demand.
    linked = {records[pk].db_id for pk in ids if any(c.field == "schema_linking" for c in records[pk].corrections)}
    schemas = dict(Database.objects.filter(db_id__in=linked).values_list("db_id", "schema")) if linked else {}

    items = []
    for dialogue in page.object_list:
        record = records[dialogue.pk]
        numbers = {item.number for item in passes[dialogue.pk]}
        turns = []
        for index, turn in enumerate(record.user_turns):
            tokens = utterance_toks(turn.text) if any(c.field == "schema_linking" for c in turn.corrections) else None
            corrections, last_pass = [], {}
            for correction in judged_corrections(turn, numbers):
                name = correction.field
                corrections.append(
                    {
                        "field": name,
                        "label": FIELD_LABELS[name],
                        "old": label_text(name, correction.old, schemas.get(record.db_id), tokens),
                        "new": label_text(name, correction.new, schemas.get(record.db_id), tokens),
                        "before": last_pass.get(name),
                        "pass": correction.review_pass,
                        "reason": correction.reason,
                        "reviewer": names.get(correction.reviewer_id, "?") if reviewer_names else None,
                    }
                )
                last_pass[name] = correction.review_pass
            if corrections:
                turns.append({"index": index, "text": turn.text, "corrections": corrections})
        items.append({"dialogue": dialogue, "record": record, "passes": passes[dialogue.pk], "turns": turns})
    page.object_list = items
    return page
