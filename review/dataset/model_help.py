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

from annotation.labels.acts import SYSTEM_ACTS, USER_ACTS
from annotation.labels.relations import CATEGORIES
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


def _interval(helped: list, control: list, statistic_of, *, rng) -> dict | None:
    """The bootstrap interval of the statistic of the helped group minus the control group's, resampling each group's
    dialogues with replacement RESAMPLES times. `statistic_of(dialogues)` gives the function of how many times each
    dialogue was drawn that computes the statistic: a resample is a count per dialogue, so no resample is copied.
    None with fewer than two dialogues in a group: no interval can be honest then."""
    if len(helped) < 2 or len(control) < 2:
        return None
    one, other = statistic_of(helped), statistic_of(control)
    differences = []
    for _ in range(RESAMPLES):
        first = one(np.bincount(rng.integers(0, len(helped), len(helped)), minlength=len(helped)))
        second = other(np.bincount(rng.integers(0, len(control), len(control)), minlength=len(control)))
        if first is not None and second is not None:
            differences.append(first - second)
    if len(differences) < RESAMPLES / 2:
        return None
    tail = 100 * (1 - CONFIDENCE) / 2
    low, high = np.percentile(differences, [tail, 100 - tail])
    return {"low": round(float(low), 3), "high": round(float(high), 3), "confidence": CONFIDENCE}


def median_of_drawn(dialogues: list[list[float]]):
    """For dialogues' question times: the function of how many times each dialogue is drawn that gives the median of
    their questions pooled (each counted as often as its dialogue). The times are sorted once; a draw's median is then
    read from the running total of its weights, the middle one or the mean of the two middle ones."""
    values = np.array([seconds for questions in dialogues for seconds in questions], dtype=float)
    owner = np.repeat(np.arange(len(dialogues)), [len(questions) for questions in dialogues])
    order = np.argsort(values, kind="stable")
    values, owner = values[order], owner[order]

    def median(counts) -> float | None:
        running = np.cumsum(counts[owner])
        total = int(running[-1]) if len(running) else 0
        if not total:
            return None
        kth = lambda k: float(values[np.searchsorted(running, k)])  # noqa: E731 - the k-th smallest, from 1
        return kth((total + 1) // 2) if total % 2 else (kth(total // 2) + kth(total // 2 + 1)) / 2

    return median


def rate_of_drawn(dialogues: list[tuple[int, int]]):
    """For dialogues' (corrections, questions): the function of how many times each dialogue is drawn that gives
    corrections per question over the draw."""
    corrections = np.array([c for c, _ in dialogues], dtype=float)
    questions = np.array([n for _, n in dialogues], dtype=float)

    def rate(counts) -> float | None:
        total = float(counts @ questions)
        return float(counts @ corrections) / total if total else None

    return rate


def _rate_of(dialogues: list[tuple[int, int]]) -> float | None:
    questions = sum(n for _, n in dialogues)
    return sum(c for c, _ in dialogues) / questions if questions else None


def chi_square(table: np.ndarray) -> float:
    """Pearson's chi-square statistic of a groups × categories table of counts (categories no one used left out)."""
    return float(chi_squares(table[np.newaxis])[0])


def chi_squares(tables: np.ndarray) -> np.ndarray:
    """`chi_square` of each of a stack of tables (tables × groups × categories) at once; 0 for a table with fewer than
    two categories used or a group with nothing counted."""
    tables = tables[:, :, tables.sum(axis=(0, 1)) > 0]
    if tables.shape[2] < 2:
        return np.zeros(len(tables))
    rows = tables.sum(axis=2, keepdims=True)
    columns = tables.sum(axis=1, keepdims=True)
    totals = rows.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        expected = rows * columns / totals
        cells = np.where(expected > 0, (tables - expected) ** 2 / expected, 0.0)
    statistic = cells.sum(axis=(1, 2))
    # A group with nothing counted, or a category used by no group of this table: no distribution to compare.
    empty = (rows[:, :, 0] == 0).any(axis=1) | ((columns[:, 0, :] > 0).sum(axis=1) < 2)
    return np.where(empty, 0.0, statistic)


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
    at_least = int((chi_squares(np.stack([in_helped, in_control], axis=1)) >= observed - 1e-9).sum())
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
        difference["interval"] = _interval(timed["helped"], timed["control"], median_of_drawn, rng=rng)
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
            "interval": _interval(reviewed["helped"], reviewed["control"], rate_of_drawn, rng=rng),
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
