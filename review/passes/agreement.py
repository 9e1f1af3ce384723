"""How the review passes measure themselves: change rates, SQL execution match, act agreement, rejections.

Read from the corrections in the dialogues' logs and the decided passes, per pass and per reviewer, and per expert
(what every decided pass changed in the expert's dialogues: the expert quality page):

- the share of turns whose acts (user or system), SQL, response or utterance the pass changed;
- for each corrected query, whether it means the same as the turn's original query (execution match): on the test
  suite, from the comparison kept with the correction when it was saved (`suite_check`: the suite's databases, or
  the original database alone while no suite was built); for a correction saved without one, the same rows in any
  order, compared on the tables stored with the runs. `execution_match_by` counts which way each was decided;
- Cohen's kappa of the user acts between the expert and pass 1, and between pass k and pass k+1. A turn's label is its
  whole set of acts (a turn labelled INFORM_SQL+AMBIGUOUS is one category), so a kappa of 1 means every pass left
  every set as it found it;
- the rejection rate with its reasons (the CoSQL paper reports about 6% of dialogues rejected).

Computing this folds every reviewed dialogue, so the result is cached until a pass or an event is added.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict

from django.core.cache import cache
from django.db.models import Max

from dialogs.models import Dialogue, Event, EventKind
from review.models import RejectFault, RejectReason, ReviewPass, ReviewStage
from review.records import dialogue_records

FIELD_GROUPS = {
    "acts": ("user_acts", "system_acts"),
    "sql": ("query",),
    "response": ("response",),
    "utterance": ("utterance",),
}


def cohen_kappa(pairs: list[tuple[str, str]]) -> float | None:
    """Cohen's kappa of two labellings of the same items (None with no items)."""
    if not pairs:
        return None
    total = len(pairs)
    observed = sum(1 for a, b in pairs if a == b) / total
    first, second = Counter(a for a, _ in pairs), Counter(b for _, b in pairs)
    expected = sum(first[label] * second[label] for label in first) / (total * total)
    if expected >= 1:
        return 1.0 if observed >= 1 else 0.0
    return round((observed - expected) / (1 - expected), 4)


def _rows_key(table: dict | None) -> str | None:
    if not table:
        return None
    rows = sorted(json.dumps(row, default=str) for row in table.get("rows") or [])
    return hashlib.blake2b(json.dumps(rows).encode(), digest_size=12).hexdigest()


def _execution_match(correction, turn) -> tuple[bool, str]:
    """Whether a corrected query means the same as the turn's original, and how that was decided: "suite" or
    "original" (the comparison kept with the correction), or "result_table" (a correction kept without one: its
    run's rows against the result the worker was shown, in any order)."""
    check = correction.suite_check or {}
    if "equivalent" in check:
        return bool(check["equivalent"]), check.get("checked_on", "original")
    corrected = correction.run_result or None
    same = corrected is not None and _rows_key(corrected) == _rows_key(turn.original.get("query_shown"))
    return same, "result_table"


def _acts_label(acts) -> str:
    return "+".join(sorted(acts or [])) or "(none)"


def _acts_after(turn, number: int):
    """The turn's user acts as they stood after pass `number` (0: as the expert left them)."""
    acts = turn.original_value("user_acts")
    for correction in turn.corrections:
        if correction.field == "user_acts" and correction.review_pass <= number:
            acts = correction.new
    return acts


def judged_corrections(turn, decided_passes: set[int]) -> list:
    """A turn's corrections made in a decided pass: what review judged of the expert's work (an open pass may still
    change its mind). The expert figures below and the expert's own page (review.quality.selectors.expert_work_page)
    count and show the same corrections."""
    return [correction for correction in turn.corrections if correction.review_pass in decided_passes]


def review_agreement() -> dict:
    """The figures above, for every dialogue with a decided pass (cached until the review moves on)."""
    # What the figures read changes with a pass (started, decided, reopened) or a correction (a scripted audit may
    # correct a decided dialogue); not with the chat going on in the rooms, which left this cache cold while any
    # room was live.
    version = (
        ReviewPass.objects.aggregate(latest=Max("id"), finished=Max("finished_at")),
        Event.objects.filter(kind=EventKind.CORRECTION).aggregate(latest=Max("id"))["latest"],
    )
    key = "review:agreement:" + hashlib.sha256(json.dumps(version, default=str).encode()).hexdigest()
    cached = cache.get(key)
    if cached is not None:
        return cached
    figures = _compute()
    cache.set(key, figures, 600)
    return figures


def _compute() -> dict:
    by_dialogue, outcome = _decided_passes()
    records = dialogue_records(Dialogue.objects.filter(id__in=list(by_dialogue)), timestamps=False)
    expert_of = dict(Dialogue.objects.filter(id__in=list(by_dialogue)).values_list("id", "expert__username"))
    per_pass: dict[int, dict] = defaultdict(_bucket)
    per_reviewer: dict[tuple[int, str], dict] = defaultdict(_bucket)
    # The expert's own work, as review judged it: every decided pass's changes to their dialogues, counted once.
    per_expert: dict[str, dict] = defaultdict(lambda: {**_bucket(), "rejected": 0})
    kappa_pairs: dict[int, list] = defaultdict(list)  # pass k -> (acts after k-1, acts after k)
    final: dict[int, tuple[str, str]] = {}
    for record in records:
        for number, reviewer, decision, reason in by_dialogue[record.id]:
            if outcome[record.id][0] != ReviewStage.REJECTED or decision == ReviewPass.Decision.REJECTED:
                final[record.id] = (decision, reason)
            _count_pass(record, number, (per_pass[number], per_reviewer[(number, reviewer)]), kappa_pairs)
        decided_passes = {number for number, *_ in by_dialogue[record.id]}
        _count_expert(record, decided_passes, outcome[record.id], per_expert[expert_of.get(record.id, "")])
    rejected = Counter(
        reason
        for dialogue_id, (decision, reason) in final.items()
        if decision == ReviewPass.Decision.REJECTED and outcome[dialogue_id][0] == ReviewStage.REJECTED
    )
    decided_dialogues = len(final)
    return {
        "passes": {str(number): _shaped(bucket) for number, bucket in sorted(per_pass.items())},
        "reviewers": [
            {"pass": number, "reviewer": reviewer, **_shaped(bucket)}
            for (number, reviewer), bucket in sorted(per_reviewer.items())
        ],
        "experts": [
            {
                "expert": expert,
                **_shaped(bucket),
                "rejected": bucket["rejected"],
                "rejected_share": round(bucket["rejected"] / bucket["dialogues"], 4) if bucket["dialogues"] else None,
            }
            for expert, bucket in sorted(per_expert.items())
        ],
        "user_acts_kappa": {
            ("expert_vs_pass1" if number == 1 else f"pass{number - 1}_vs_pass{number}"): cohen_kappa(pairs)
            for number, pairs in sorted(kappa_pairs.items())
        },
        "rejections": {
            "dialogues_decided": decided_dialogues,
            "rejected": sum(rejected.values()),
            "rate": round(sum(rejected.values()) / decided_dialogues, 4) if decided_dialogues else None,
            "reasons": {str(RejectReason(reason).label): count for reason, count in rejected.most_common()},
        },
    }


def _decided_passes() -> tuple[dict[int, list], dict[int, tuple[str, str]]]:
    """Per dialogue with a decided pass: its decided passes in order (number, reviewer, decision, reason), and its
    review's (stage, fault)."""
    decided = list(
        ReviewPass.objects.filter(decision__in=[ReviewPass.Decision.APPROVED, ReviewPass.Decision.REJECTED])
        .values_list(
            "review__dialogue_id",
            "number",
            "reviewer__username",
            "decision",
            "reason",
            "review__stage",
            "review__fault",
        )
        .order_by("review__dialogue_id", "number", "id")
    )
    by_dialogue: dict[int, list] = defaultdict(list)
    # A dialogue counts as rejected once its rejection is final (a pass-1 rejection still waits for a second
    # reviewer), and in the expert's figures only when the rejection names the expert's work (docs/review.md).
    outcome: dict[int, tuple[str, str]] = {}
    for dialogue_id, number, reviewer, decision, reason, stage, fault in decided:
        by_dialogue[dialogue_id].append((number, reviewer, decision, reason))
        outcome[dialogue_id] = (stage, fault)
    return by_dialogue, outcome


def _bucket() -> dict:
    return {
        "dialogues": 0,
        "turns": 0,
        "changed": Counter(),
        "queries_corrected": 0,
        "execution_match": 0,
        "match_by": Counter(),
    }


def _count_changes(turn, corrections: list, buckets: tuple[dict, ...]) -> None:
    """A turn's `corrections` into `buckets`: the groups of fields they changed, and each corrected query's match."""
    fields = {correction.field for correction in corrections}
    for group, names in FIELD_GROUPS.items():
        if fields & set(names):
            for bucket in buckets:
                bucket["changed"][group] += 1
    for correction in corrections:
        if correction.field != "query":
            continue
        same, how = _execution_match(correction, turn)
        for bucket in buckets:
            bucket["queries_corrected"] += 1
            bucket["execution_match"] += int(same)
            bucket["match_by"][how] += 1


def _count_pass(record, number: int, buckets: tuple[dict, ...], kappa_pairs: dict[int, list]) -> None:
    """Decided pass `number` of a dialogue, into its pass's and its reviewer's `buckets`; the user acts before and
    after it into `kappa_pairs`."""
    for bucket in buckets:
        bucket["dialogues"] += 1
        bucket["turns"] += len(record.user_turns)
    for turn in record.user_turns:
        _count_changes(turn, [c for c in turn.corrections if c.review_pass == number], buckets)
        if turn.acts is not None or "user_acts" in turn.original:
            kappa_pairs[number].append(
                (_acts_label(_acts_after(turn, number - 1)), _acts_label(_acts_after(turn, number)))
            )


def _count_expert(record, decided_passes: set[int], outcome: tuple[str, str], expert: dict) -> None:
    """A decided dialogue into its expert's bucket: what the decided passes changed, and whether it counts as
    rejected against the expert."""
    expert["dialogues"] += 1
    expert["turns"] += len(record.user_turns)
    stage, fault = outcome
    expert["rejected"] += stage == ReviewStage.REJECTED and RejectFault.counts_against(fault, "expert")
    for turn in record.user_turns:
        _count_changes(turn, judged_corrections(turn, decided_passes), (expert,))


def _shaped(bucket: dict) -> dict:
    turns = bucket["turns"] or 1
    return {
        "dialogues": bucket["dialogues"],
        "turns": bucket["turns"],
        "changed_share": {group: round(bucket["changed"][group] / turns, 4) for group in FIELD_GROUPS},
        "queries_corrected": bucket["queries_corrected"],
        "execution_match_share": round(bucket["execution_match"] / bucket["queries_corrected"], 4)
        if bucket["queries_corrected"]
        else None,
        "execution_match_by": dict(sorted(bucket["match_by"].items())),
    }
