"""CoSQL's two other tasks scored on a release (docs/evaluation.md, "CoSQL's three tasks"): response generation from
the SQL and its result, and user dialogue act prediction. SQL-grounded state tracking is review.dataset.evaluation's.

Both read the release's own files (`system_response_generation/cosql_<split>.json`,
`user_intent_prediction/cosql_<split>.json`) and a prediction file with one line per item, in the file's order:

- responses: the predicted response's text;
- user acts: the predicted acts, separated by spaces or commas (`INFORM_SQL`, `AMBIGUOUS THANK_YOU`), or a JSON list of
  them (`["AMBIGUOUS", "THANK_YOU"]`); anything else on a line is refused with the line.

Response generation is scored by corpus BLEU (Papineni et al. 2002, as CoSQL's Table 6 reports it) with SacreBLEU:
one reference per item (the expert's response), SacreBLEU's default `13a` tokenisation, case kept; the report gives
SacreBLEU's signature so that a figure can be reproduced elsewhere. The human half of Table 6 (logic correctness,
grammar) is a rating task of its own. User act prediction is scored as CoSQL's Table 7: a turn is right when the
predicted set of acts is the gold set; with precision, recall and F1 per act (the paper's remark on INFER_SQL and
AMBIGUOUS) and the majority baseline (every turn given the commonest gold set) beside it.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from django.core.exceptions import ValidationError
from django.utils.translation import gettext, ngettext

from annotation.labels.acts import USER_ACTS
from annotation.plumbing import jsoncodec

TASK_FILES = {
    "response": "system_response_generation/cosql_{split}.json",
    "user_acts": "user_intent_prediction/cosql_{split}.json",
}
TURN_LABELS = ("turn 1", "turn 2", "turn 3", "turn 4", "turn > 4")


def _root(release_dir: Path) -> Path:
    """The CoSQL folder of an export (`cosql_dataset/`), or the folder itself when it is one."""
    nested = release_dir / "cosql_dataset"
    return nested if nested.is_dir() else release_dir


def task_items(release_dir: Path, task: str, split: str) -> list[dict]:
    """The release's items for `task` in `split`; ValidationError when the file is missing or not a list of items."""
    path = _root(Path(release_dir)) / TASK_FILES[task].format(split=split)
    try:
        items = jsoncodec.loads(path.read_bytes())
    except FileNotFoundError:
        raise ValidationError(
            gettext("The release has no %(file)s.") % {"file": TASK_FILES[task].format(split=split)}
        ) from None
    except ValueError as exc:
        raise ValidationError(
            gettext("%(file)s cannot be read: %(error)s") % {"file": path.name, "error": exc}
        ) from None
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise ValidationError(gettext("%(file)s is not a list of items.") % {"file": path.name})
    return items


def _lines(raw: bytes, count: int, source: str) -> list[str]:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValidationError(gettext("%(file)s is not UTF-8 text.") % {"file": source}) from None
    lines = text.splitlines()
    while lines and not lines[-1].strip() and len(lines) > count:
        lines.pop()  # a trailing empty line or two
    if len(lines) != count:
        has = ngettext("%(count)s line", "%(count)s lines", len(lines)) % {"count": len(lines)}
        items = ngettext("%(count)s item", "%(count)s items", count) % {"count": count}
        raise ValidationError(
            gettext(
                "%(file)s has %(lines)s; the release has %(items)s: one prediction per line, in the release file's "
                "order."
            )
            % {"file": source, "lines": has, "items": items}
        )
    return lines


def _turn_label(item: dict) -> str:
    index = item.get("turn_index")
    return TURN_LABELS[min(index, 4)] if isinstance(index, int) and index >= 0 else "turn unknown"


def score_responses(release_dir: Path, raw: bytes, *, split: str = "dev", source: str = "predictions") -> dict:
    """Corpus BLEU of predicted responses against the release's, overall and by turn position."""
    import sacrebleu  # loaded here: only this task needs it

    items = task_items(release_dir, "response", split)
    predicted = _lines(raw, len(items), source)
    references = [str(item.get("response") or "") for item in items]

    def bleu(indexes: list[int]):
        return sacrebleu.metrics.BLEU().corpus_score(
            [predicted[i] for i in indexes], [[references[i] for i in indexes]]
        )

    everything = list(range(len(items)))
    metric = sacrebleu.metrics.BLEU()
    overall = metric.corpus_score(predicted, [references]) if items else None
    by_turn: dict[str, list[int]] = {}
    for index, item in enumerate(items):
        by_turn.setdefault(_turn_label(item), []).append(index)
    return {
        "task": "response",
        "split": split,
        "items": len(items),
        "bleu": round(overall.score, 2) if overall else None,
        "signature": str(metric.get_signature()),
        "by_turn": [
            {"label": label, "count": len(by_turn[label]), "bleu": round(bleu(by_turn[label]).score, 2)}
            for label in (*TURN_LABELS, "turn unknown")
            if label in by_turn
        ],
        "exact_matches": sum(1 for i in everything if predicted[i].strip() == references[i].strip()),
    }


_ACT_SEPARATORS = re.compile(r"[\s,;|]+")


_ACT_NAME = re.compile(r"[A-Za-z_]+")


def _not_acts(where: str) -> str:
    return gettext(
        "%(where)s is not a list of user acts: act names separated by spaces or commas, or a JSON list of them."
    ) % {"where": where}


def _acts(text: str, where: str) -> frozenset[str]:
    """The acts of one line: names separated by spaces or commas, or a JSON list of names (`["INFORM_SQL"]`)."""
    if text.strip().startswith(("[", "{", '"')):
        try:
            listed = jsoncodec.loads(text.strip().encode("utf-8"))
        except ValueError:
            listed = None
        if not isinstance(listed, list) or not all(isinstance(act, str) for act in listed):
            raise ValidationError(_not_acts(where))
        text = " ".join(listed)
    parts = [part.strip() for part in _ACT_SEPARATORS.split(text) if part.strip()]
    if any(not _ACT_NAME.fullmatch(part) for part in parts):
        raise ValidationError(_not_acts(where))
    acts = frozenset(part.upper() for part in parts)
    unknown = sorted(acts - set(USER_ACTS))
    if unknown:
        raise ValidationError(
            gettext("%(where)s: %(acts)s is not a user act (one of %(choices)s).")
            % {"where": where, "acts": ", ".join(unknown), "choices": ", ".join(USER_ACTS)}
        )
    return acts


def score_user_acts(release_dir: Path, raw: bytes, *, split: str = "dev", source: str = "predictions") -> dict:
    """Accuracy of predicted user act sets (a turn is right when its set is the gold one), per act precision, recall
    and F1, and the majority baseline; overall and by turn position."""
    items = task_items(release_dir, "user_acts", split)
    lines = _lines(raw, len(items), source)
    predicted = [
        _acts(line, gettext("%(file)s, line %(line)s") % {"file": source, "line": number})
        for number, line in enumerate(lines, start=1)
    ]
    gold = [frozenset(str(act).upper() for act in item.get("intent") or []) for item in items]
    right = [p == g for p, g in zip(predicted, gold, strict=True)]
    commonest = Counter(gold).most_common(1)[0][0] if gold else frozenset()
    per_act = []
    for act in USER_ACTS:
        tp = sum(1 for p, g in zip(predicted, gold, strict=True) if act in p and act in g)
        fp = sum(1 for p, g in zip(predicted, gold, strict=True) if act in p and act not in g)
        fn = sum(1 for p, g in zip(predicted, gold, strict=True) if act not in p and act in g)
        if not tp + fp + fn:
            continue
        precision = tp / (tp + fp) if tp + fp else None
        recall = tp / (tp + fn) if tp + fn else None
        f1 = 2 * precision * recall / (precision + recall) if precision and recall else 0.0
        per_act.append(
            {"act": act, "gold": tp + fn, "predicted": tp + fp, "precision": precision, "recall": recall, "f1": f1}
        )
    by_turn: dict[str, list[bool]] = {}
    for item, ok in zip(items, right, strict=True):
        by_turn.setdefault(_turn_label(item), []).append(ok)
    return {
        "task": "user_acts",
        "split": split,
        "items": len(items),
        "accuracy": sum(right) / len(right) if right else None,
        "majority": {
            "acts": sorted(commonest),
            "accuracy": sum(1 for g in gold if g == commonest) / len(gold) if gold else None,
        },
        "per_act": per_act,
        "by_turn": [
            {"label": label, "count": len(by_turn[label]), "accuracy": sum(by_turn[label]) / len(by_turn[label])}
            for label in (*TURN_LABELS, "turn unknown")
            if label in by_turn
        ],
    }


def task_table(report: dict) -> str:
    """A report of either task as plain text."""
    if report["task"] == "response":
        lines = [
            f"CoSQL response generation, {report['split']}: {report['items']} responses",
            f"BLEU {report['bleu']}  ({report['signature']})",
            "",
            f"{'':<14}{'count':>7}{'BLEU':>9}",
        ]
        lines += [f"{row['label']:<14}{row['count']:>7}{row['bleu']:>9.2f}" for row in report["by_turn"]]
        return "\n".join(lines) + "\n"
    majority = report["majority"]
    lines = [
        f"CoSQL user dialogue act prediction, {report['split']}: {report['items']} user turns",
        f"accuracy {report['accuracy']:.3f}  (majority {' '.join(majority['acts']) or '-'}: {majority['accuracy']:.3f})"
        if report["items"]
        else "accuracy -",
        "",
        f"{'act':<18}{'gold':>6}{'predicted':>11}{'precision':>11}{'recall':>8}{'F1':>7}",
    ]
    for row in report["per_act"]:
        cells = [f"{value:.3f}" if value is not None else "-" for value in (row["precision"], row["recall"], row["f1"])]
        lines.append(f"{row['act']:<18}{row['gold']:>6}{row['predicted']:>11}{cells[0]:>11}{cells[1]:>8}{cells[2]:>7}")
    lines += ["", f"{'':<14}{'count':>7}{'accuracy':>10}"]
    lines += [f"{row['label']:<14}{row['count']:>7}{row['accuracy']:>10.3f}" for row in report["by_turn"]]
    return "\n".join(lines) + "\n"
