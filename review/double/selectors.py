"""Reads of blind double annotation (docs/double_annotation.md): what each page shows, the agreement figures, the
disagreements for an adjudicator, and the one rule that keeps a labeller blind.

The figures (definitions in docs/double_annotation.md):

- single-label fields (intent category, pragmatics, question style): Cohen's kappa
  (`review.passes.agreement.cohen_kappa`, the review passes' own), the share of equal labels, and the confusion table;
- multi-label fields (user acts, system acts, contextual phenomena): Cohen's kappa per label (each label a yes/no
  decision on every item), their mean over the labels either person used, the kappa of the whole set as one category
  (as review's act agreement reads a turn), and per label the counts both / first only / second only;
- SQL: execution match and test-suite equivalence, from the comparison stored with each item;
- schema links: precision, recall and F1 of the second person's spans against the first's (exact span, type and
  schema item).

A field counts on an item when at least one of the two gave it (a label left empty by both says nothing).
"""

from __future__ import annotations

from collections import Counter

from django.utils.translation import gettext

from review.double.models import FIELDS, MULTI_LABEL_FIELDS, SINGLE_LABEL_FIELDS, DoubleItem, DoubleSample
from review.passes.agreement import cohen_kappa

NONE = "(none)"
# The first labels the platform may have detected rather than a person given (docs/chase.md).
DETECTED_FIELDS = ("intent", "contextual_phenomena", "pragmatics", "question_style")


def blind_refusal(person, dialogue_id: int) -> str | None:
    """Why `person` may not read a dialogue's labels now (its review screen, the review's query comparison), or None:
    they have a turn of it to label blind in a double-annotation sample."""
    if DoubleItem.objects.filter(sample__labeller=person, dialogue_id=dialogue_id, second__isnull=True).exists():
        return gettext(
            "You are labelling this dialogue blind (double annotation): its labels open once you have labelled it."
        )
    return None


def samples_listed() -> list[DoubleSample]:
    """Every sample, newest first, with its progress (`items_total`, `items_labelled`)."""
    from django.db.models import Count, Q

    return list(
        DoubleSample.objects.select_related("labeller", "created_by", "campaign").annotate(
            items_total=Count("items"), items_labelled=Count("items", filter=~Q(items__second__isnull=True))
        )
    )


def samples_assigned(person) -> list[DoubleSample]:
    """The samples assigned to `person` to label, with their progress."""
    return [sample for sample in samples_listed() if sample.labeller_id == person.pk]


def next_item(sample: DoubleSample) -> DoubleItem | None:
    """The first item of the sample still to label."""
    return sample.items.filter(second__isnull=True).order_by("position").first()


# --- Agreement -----------------------------------------------------------------------------------------------------


def _link_key(span: dict) -> tuple:
    entity = span.get("entity") or {}
    return (span.get("beg"), span.get("end"), span.get("type"), entity.get("tableId"), entity.get("columnId"),
            entity.get("value") if span.get("type") == "value" else None)  # fmt: skip


def _sql_agrees(item: DoubleItem) -> bool | None:
    """Whether the two queries agree: by the test suite when it could tell, else by execution; None while waiting."""
    check = item.sql_check or {}
    if check.get("state") != "done":
        return None
    if check.get("suite") is not None:
        return bool(check["suite"])
    return None if check.get("execution") is None else bool(check["execution"])


def _differs(item: DoubleItem, field: str) -> bool:
    first, second = item.first.get(field), (item.second or {}).get(field)
    if field == "query":
        return (first or second) is not None and _sql_agrees(item) is False
    if field == "schema_linking":
        return {_link_key(span) for span in first or []} != {_link_key(span) for span in second or []}
    return (first or None) != (second or None)


def disagreement_fields(item: DoubleItem) -> list[str]:
    """The fields on which an item's two labels disagree (a query: when its comparison says they differ)."""
    if item.second is None:
        return []
    return [field for field in FIELDS if _differs(item, field)]


def _single(items: list[DoubleItem], field: str) -> dict:
    pairs = []
    for item in items:
        first, second = item.first.get(field) or "", item.second.get(field) or ""
        if first or second:
            pairs.append((first or NONE, second or NONE))
    confusion = Counter(pairs)
    labels = sorted({label for pair in pairs for label in pair})
    return {
        "kind": "single",
        "items": len(pairs),
        "agreed": sum(1 for a, b in pairs if a == b),
        "observed": round(sum(1 for a, b in pairs if a == b) / len(pairs), 4) if pairs else None,
        "kappa": cohen_kappa(pairs),
        "labels": labels,
        # Rows: the first person's label; columns: the second's.
        "confusion": [{"label": row, "counts": [confusion[(row, column)] for column in labels]} for row in labels],
    }


def _multi(items: list[DoubleItem], field: str) -> dict:
    sets = []
    for item in items:
        first, second = item.first.get(field), item.second.get(field)
        if not first and not second:
            continue
        sets.append((set(first or []), set(second or [])))
    used = sorted({label for first, second in sets for label in first | second})
    per_label = []
    for label in used:
        pairs = [("yes" if label in first else "no", "yes" if label in second else "no") for first, second in sets]
        counts = Counter(pairs)
        per_label.append(
            {
                "label": label,
                "kappa": cohen_kappa(pairs),
                "both": counts[("yes", "yes")],
                "first_only": counts[("yes", "no")],
                "second_only": counts[("no", "yes")],
                "neither": counts[("no", "no")],
            }
        )
    kappas = [row["kappa"] for row in per_label if row["kappa"] is not None]
    whole = [("+".join(sorted(first)) or NONE, "+".join(sorted(second)) or NONE) for first, second in sets]
    return {
        "kind": "multi",
        "items": len(sets),
        "agreed": sum(1 for first, second in sets if first == second),
        "observed": round(sum(1 for first, second in sets if first == second) / len(sets), 4) if sets else None,
        "kappa_mean": round(sum(kappas) / len(kappas), 4) if kappas else None,
        "kappa_sets": cohen_kappa(whole),
        "per_label": per_label,
    }


def _sql(items: list[DoubleItem]) -> dict:
    counted = [item for item in items if item.first.get("query") or item.second.get("query")]
    done = [item for item in counted if (item.sql_check or {}).get("state") == "done"]
    execution = [item.sql_check.get("execution") for item in done if item.sql_check.get("execution") is not None]
    suite = [item.sql_check.get("suite") for item in done if item.sql_check.get("suite") is not None]
    return {
        "kind": "sql",
        "items": len(counted),
        "waiting": len(counted) - len(done),
        "execution_items": len(execution),
        "execution_match": sum(1 for value in execution if value),
        "execution_rate": round(sum(1 for value in execution if value) / len(execution), 4) if execution else None,
        "suite_items": len(suite),
        "suite_match": sum(1 for value in suite if value),
        "suite_rate": round(sum(1 for value in suite if value) / len(suite), 4) if suite else None,
    }


def _links(items: list[DoubleItem]) -> dict:
    true_positive = first_total = second_total = 0
    counted = 0
    for item in items:
        first = {_link_key(span) for span in item.first.get("schema_linking") or []}
        second = {_link_key(span) for span in item.second.get("schema_linking") or []}
        if not first and not second:
            continue
        counted += 1
        true_positive += len(first & second)
        first_total += len(first)
        second_total += len(second)
    precision = true_positive / second_total if second_total else None
    recall = true_positive / first_total if first_total else None
    f1 = 2 * true_positive / (first_total + second_total) if (first_total + second_total) else None
    return {
        "kind": "links",
        "items": counted,
        "matched": true_positive,
        "first_spans": first_total,
        "second_spans": second_total,
        "precision": None if precision is None else round(precision, 4),
        "recall": None if recall is None else round(recall, 4),
        "f1": None if f1 is None else round(f1, 4),
    }


def sample_agreement(sample: DoubleSample, dialogue_ids=None) -> dict:
    """Every figure of the sample, over its labelled items (only those of `dialogue_ids`, when given)."""
    items = sample.items.all() if dialogue_ids is None else sample.items.filter(dialogue_id__in=list(dialogue_ids))
    labelled = list(items.filter(second__isnull=False))
    figures = {field: _multi(labelled, field) for field in MULTI_LABEL_FIELDS}
    figures.update({field: _single(labelled, field) for field in SINGLE_LABEL_FIELDS})
    figures["query"] = _sql(labelled)
    figures["schema_linking"] = _links(labelled)
    return {"labelled": len(labelled), "total": items.count(), "fields": figures}


def release_rounds(dialogue_ids) -> list[dict]:
    """The double-annotation rounds that labelled turns of `dialogue_ids` (a release's dialogues), oldest first, each
    with its agreement over those turns alone: what a release's report/ folder says about its labels. A round is
    named by its number, draw and note, never by the people in it."""
    ids = list(dialogue_ids)
    samples = DoubleSample.objects.filter(items__dialogue_id__in=ids, items__second__isnull=False).distinct()
    rounds = []
    for sample in samples.order_by("id"):
        agreement = sample_agreement(sample, ids)
        rounds.append(
            {
                "sample": sample.pk,
                "unit": sample.unit,
                "size": sample.size,
                "seed": sample.seed,
                "db_id": sample.db_id,
                "mode": sample.mode,
                "note": sample.note,
                "created_at": sample.created_at.isoformat(),
                **agreement,
            }
        )
    return rounds


def shown(field: str, value) -> str:
    """A label as the adjudicator reads it."""
    if value in (None, "", []):
        return NONE
    if field == "schema_linking":
        return "; ".join(
            f"{span['beg']}-{span['end']} {span['type']} {span['entity'].get('value', '')}" for span in value
        )
    if isinstance(value, list):
        return ", ".join(value)
    return str(value)


def disagreements(sample: DoubleSample) -> list[dict]:
    """Every field of every labelled item where the two labels disagree, with both values and any adjudication."""
    items = list(
        sample.items.filter(second__isnull=False)
        .select_related("dialogue")
        .prefetch_related("adjudications__adjudicator")
    )
    rows = []
    for item in items:
        settled = {adjudication.field: adjudication for adjudication in item.adjudications.all()}
        for field in disagreement_fields(item):
            rows.append(
                {
                    "item": item,
                    "field": field,
                    "first": shown(field, item.first.get(field)),
                    # A CHASE label nobody set: the platform detected it (an intent, usually), no person gave it.
                    "first_detected": field in DETECTED_FIELDS
                    and item.first.get(field) not in (None, "", [])
                    and field not in item.first.get("confirmed", []),
                    "second": shown(field, item.second.get(field)),
                    "sql_check": item.sql_check if field == "query" else None,
                    "adjudication": settled.get(field),
                }
            )
    return rows
