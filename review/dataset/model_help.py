"""What model help changes: the dialogues it helped against the campaign's control group (docs/model_help.md).

Pure functions over replayed dialogues: `dialogue_facts` reads what one dialogue shows of each measure, and
`compare_groups` compares the two groups, with how sure the difference is. The selector that chooses the dialogues
and the page that shows the result are `review.dataset.selectors.model_help_comparison` and its view.

The unit of chance is the dialogue, not the question: the draw gave help to dialogues, and one dialogue's questions
(the same worker, expert and goal) are not independent. So the intervals resample whole dialogues (a cluster
bootstrap) and the tests of distributions permute the groups' labels over whole dialogues.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from annotation.acts import SYSTEM_ACTS, USER_ACTS
from annotation.sql.relations import CATEGORIES
from dialogs.log import DialogueRecord, model_sql_failed

GROUPS = ("helped", "control")
DRAFT_USES = ("kept", "edited", "replaced", "not used")
RESAMPLES = 2000
SEED = 23  # fixed: the same dialogues always give the same interval and p-value
CONFIDENCE = 0.95


@dataclass
class DialogueFacts:
    """What one dialogue shows of each measure compared."""

    helped: bool
    questions: int = 0
    question_seconds: list[float] = field(default_factory=list)
    reviewed: bool = False
    corrections: int = 0
    corrected_questions: int = 0
    user_acts: Counter = field(default_factory=Counter)
    system_acts: Counter = field(default_factory=Counter)
    intents: Counter = field(default_factory=Counter)
    drafts: Counter = field(default_factory=Counter)  # "asked", "failed", and the uses of DRAFT_USES


def dialogue_facts(
    record: DialogueRecord, *, helped: bool, reviewed: bool, draft_uses: dict[int, str]
) -> DialogueFacts:
    """One dialogue's facts. `reviewed`: review has decided on it (only then do its corrections count);
    `draft_uses`: the model draft events' sequence numbers mapped to what the expert did with each (kept, edited or
    replaced), as the SQL runs that loaded them say.

    A question is a user utterance; its time is from the utterance to the expert's first response to it; acts, intent
    labels and corrections are as they stand after review. A draft that failed (the model's error) counts as asked
    and failed; one that came back and that no run loaded is "not used"."""
    facts = DialogueFacts(helped=helped, reviewed=reviewed)
    for turn in record.user_turns:
        facts.questions += 1
        answered = turn.answered_at()
        if answered is not None and turn.created_at is not None and answered >= turn.created_at:
            facts.question_seconds.append((answered - turn.created_at).total_seconds())
        facts.user_acts.update(turn.acts or ())
        for response in turn.responses:
            facts.system_acts.update(response.acts)
        if reviewed:
            facts.corrections += len(turn.corrections)
            facts.corrected_questions += bool(turn.corrections)
    for state in record.state_turns():
        intent = state.turn.labels.get("intent")
        if intent and intent.get("category"):
            facts.intents[intent["category"]] += 1
    for event in record.events:
        if event.kind != "model_sql":
            continue
        facts.drafts["asked"] += 1
        if model_sql_failed(event.payload):
            facts.drafts["failed"] += 1
        else:
            facts.drafts[draft_uses.get(event.seq, "not used")] += 1
    return facts


# --- Figures of one group ------------------------------------------------------------------------------------------


def _quartiles(values: list[float]) -> dict:
    """n, median and the quartiles (linear interpolation between order statistics, numpy's default)."""
    if not values:
        return {"n": 0, "median": None, "q1": None, "q3": None}
    q1, median, q3 = np.percentile(values, [25, 50, 75])
    return {"n": len(values), "median": round(float(median), 1), "q1": round(float(q1), 1), "q3": round(float(q3), 1)}


def _distribution(counter: Counter, order) -> dict[str, int]:
    known = {name: counter.get(name, 0) for name in order}
    return {**known, **{name: n for name, n in sorted(counter.items()) if name not in known}}


# --- How sure: a cluster bootstrap and a permutation test --------------------------------------------------------


def _interval(helped: list, control: list, statistic, *, rng) -> dict | None:
    """The bootstrap interval of statistic(helped) - statistic(control), resampling each group's dialogues with
    replacement RESAMPLES times. None with fewer than two dialogues in a group: no interval can be honest then."""
    if len(helped) < 2 or len(control) < 2:
        return None
    differences = []
    for _ in range(RESAMPLES):
        one = statistic([helped[i] for i in rng.integers(0, len(helped), len(helped))])
        other = statistic([control[i] for i in rng.integers(0, len(control), len(control))])
        if one is not None and other is not None:
            differences.append(one - other)
    if len(differences) < RESAMPLES / 2:
        return None
    tail = 100 * (1 - CONFIDENCE) / 2
    low, high = np.percentile(differences, [tail, 100 - tail])
    return {"low": round(float(low), 3), "high": round(float(high), 3), "confidence": CONFIDENCE}


def _median_of(dialogues: list[list[float]]) -> float | None:
    pooled = [seconds for questions in dialogues for seconds in questions]
    return float(np.median(pooled)) if pooled else None


def _rate_of(dialogues: list[tuple[int, int]]) -> float | None:
    questions = sum(n for _, n in dialogues)
    return sum(c for c, _ in dialogues) / questions if questions else None


def chi_square(table: np.ndarray) -> float:
    """Pearson's chi-square statistic of a groups × categories table of counts (categories no one used left out)."""
    table = table[:, table.sum(axis=0) > 0]
    if table.shape[1] < 2 or (table.sum(axis=1) == 0).any():
        return 0.0
    expected = table.sum(axis=1, keepdims=True) * table.sum(axis=0, keepdims=True) / table.sum()
    return float(((table - expected) ** 2 / expected).sum())


def permutation_test(per_dialogue: np.ndarray, helped: np.ndarray, *, rng) -> dict | None:
    """Whether the two groups' distributions differ more than the draw alone would make them: the chi-square of the
    2 × K table, against the same statistic with the helped/control labels shuffled over the dialogues RESAMPLES
    times. `per_dialogue` is dialogues × categories counts; `helped` the dialogues' labels. p counts the observed
    table among the shuffles ((1 + as large or larger) / (1 + shuffles)). None when a group has no dialogue or
    fewer than two categories were used: there is no distribution to compare."""
    if not helped.any() or helped.all() or (per_dialogue.sum(axis=0) > 0).sum() < 2:
        return None
    mask = helped.astype(float)
    observed = chi_square(np.vstack([mask @ per_dialogue, (1 - mask) @ per_dialogue]))
    shuffled = np.array([rng.permutation(mask) for _ in range(RESAMPLES)])
    in_helped = shuffled @ per_dialogue
    in_control = (1 - shuffled) @ per_dialogue
    at_least = sum(chi_square(np.vstack([a, b])) >= observed - 1e-9 for a, b in zip(in_helped, in_control, strict=True))
    return {
        "chi_square": round(observed, 3),
        "p": round((1 + at_least) / (1 + RESAMPLES), 4),
        "permutations": RESAMPLES,
    }


# --- The comparison ------------------------------------------------------------------------------------------------


def compare_groups(facts: list[DialogueFacts], *, seed: int = SEED) -> dict:
    """Every measure for the helped dialogues and the control group, and the difference (helped minus control) with
    its 95 % bootstrap interval, or a permutation test for distributions. Seeded: the same input, the same output."""
    rng = np.random.default_rng(seed)
    by_group = {group: [f for f in facts if f.helped == (group == "helped")] for group in GROUPS}
    result: dict = {
        "groups": {
            group: {
                "dialogues": len(rows),
                "questions": sum(f.questions for f in rows),
                "reviewed": sum(f.reviewed for f in rows),
            }
            for group, rows in by_group.items()
        },
        "seed": seed,
        "resamples": RESAMPLES,
    }

    timed = {group: [f.question_seconds for f in rows if f.question_seconds] for group, rows in by_group.items()}
    time = {group: _quartiles([s for q in timed[group] for s in q]) for group in GROUPS}
    difference = None
    if time["helped"]["n"] and time["control"]["n"]:
        difference = {"median": round(time["helped"]["median"] - time["control"]["median"], 1)}
        difference["interval"] = _interval(timed["helped"], timed["control"], _median_of, rng=rng)
    result["time_per_question"] = {**time, "difference": difference}

    reviewed = {
        group: [(f.corrections, f.questions) for f in rows if f.reviewed and f.questions]
        for group, rows in by_group.items()
    }
    corrections = {}
    for group in GROUPS:
        rows = [f for f in by_group[group] if f.reviewed]
        rate = _rate_of(reviewed[group])
        corrections[group] = {
            "dialogues": len(rows),
            "questions": sum(f.questions for f in rows),
            "corrections": sum(f.corrections for f in rows),
            "corrected_questions": sum(f.corrected_questions for f in rows),
            "per_question": round(rate, 3) if rate is not None else None,
        }
    difference = None
    if corrections["helped"]["per_question"] is not None and corrections["control"]["per_question"] is not None:
        difference = {
            "per_question": round(corrections["helped"]["per_question"] - corrections["control"]["per_question"], 3),
            "interval": _interval(reviewed["helped"], reviewed["control"], _rate_of, rng=rng),
        }
    result["corrections"] = {**corrections, "difference": difference}

    labels = np.array([f.helped for f in facts], dtype=bool)
    for name, order in (("user_acts", USER_ACTS), ("system_acts", SYSTEM_ACTS), ("intents", CATEGORIES)):
        counts = {group: sum((getattr(f, name) for f in rows), Counter()) for group, rows in by_group.items()}
        categories = list(_distribution(counts["helped"] + counts["control"], order))
        matrix = np.array([[getattr(f, name)[c] for c in categories] for f in facts], dtype=float).reshape(
            len(facts), len(categories)
        )
        result[name] = {
            **{group: _distribution(counts[group], order) for group in GROUPS},
            "test": permutation_test(matrix, labels, rng=rng) if facts else None,
        }

    drafts = {group: sum((f.drafts for f in rows), Counter()) for group, rows in by_group.items()}
    result["drafts"] = {
        "asked": drafts["helped"]["asked"],
        "failed": drafts["helped"]["failed"],
        **{use.replace(" ", "_"): drafts["helped"][use] for use in DRAFT_USES},
        # A draft in a control dialogue would mean the control group was not held back: shown, never hidden.
        "in_control_group": drafts["control"]["asked"],
    }
    return result
