"""Agreement of relation detection with CHASE's intent labels, measured database by database.

Usage: .venv/bin/python bench/relation_folds.py [--folds K] [--held-out I] [--disagreements] [--shared PATH]

The CHASE sample's follow-up turns are split into folds by database: by default one fold per database
(leave-one-database-out), with `--folds K` into K folds of whole databases (the largest database first into the
smallest fold, so the split is fixed). Relation detection has no fitted parameters, so a fold's figure is simply the
agreement on its databases; what makes a fold "held out" is that nobody looked at its pairs while writing the rules.

`TUNED_ON` names the databases whose pairs the current rules were written or tuned on; every fold containing one is
marked "seen", and its figure says how well the rules fit, not how well they generalise. To measure a change honestly,
choose a fold with `--held-out I` before changing anything: `--disagreements` then lists only the other folds' pairs,
the change is made on those, and the held-out fold's line is the figure to report (add its databases to `TUNED_ON`
once its pairs have been read).

Prints the agreement per fold and overall (pooled, and the mean of the folds), and the pooled confusion matrix of
categories (gold label by row, detected category by column).
"""

import argparse
import json
import os
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))

from annotation.labels.acts import INTENT_CATEGORY_OF_CHASE_LABEL  # noqa: E402
from annotation.labels.relations import CATEGORIES, RelationError, detect_relation  # noqa: E402

DEFAULT_SHARED = Path(os.environ.get("WOZSQL_SHARED_DIR", PROJECT_ROOT.parent / "shared"))

# The rules of annotation/labels/relations.py were written against the whole public sample (commits 96ad97a, 92f5e6c
# read every disagreement of every database), so every fold is seen. Only a database added to the sample later, or a
# fold kept out with --held-out before a change, measures generalisation.
TUNED_ON = frozenset(
    {
        "购书平台",
        "网易云阅读",
        "中国旅行社",
        "软件排行",
        "中国餐饮公司",
        "中国卫视频道",
        "中国民族",
        "NBA奖项",
        "智能音箱",
        "台风",
    }
)


@dataclass(frozen=True, slots=True)
class LabelledPair:
    """One follow-up turn of the sample: its database, the previous and current SQL, the schema, CHASE's category."""

    db_id: str
    previous: str
    current: str
    schema: dict
    gold: str


def labelled_pairs(shared: Path) -> list[LabelledPair]:
    """Every follow-up turn of the CHASE sample that carries an intent label, in dialogue order."""
    with open(shared / "samples" / "chase_tables_sample.json", encoding="utf-8") as handle:
        schemas = {schema["db_id"]: schema for schema in json.load(handle)}
    with open(shared / "samples" / "chase_dev_sample.json", encoding="utf-8") as handle:
        interactions = json.load(handle)
    pairs = []
    for interaction in interactions:
        db_id = interaction["database_id"]
        turns = interaction["interaction"]
        # The first turn has no previous query; its label (always 其他, a default) says nothing about a relation.
        for previous, current in zip(turns, turns[1:], strict=False):
            gold = INTENT_CATEGORY_OF_CHASE_LABEL.get(current.get("intent"))
            if gold is not None:
                pairs.append(LabelledPair(db_id, previous["query"], current["query"], schemas[db_id], gold))
    return pairs


def database_folds(pairs: list[LabelledPair], count: int = 0) -> list[tuple[str, ...]]:
    """The databases of each fold: one per database when `count` is 0, else `count` folds of similar size."""
    sizes = Counter(pair.db_id for pair in pairs)
    ordered = sorted(sizes, key=lambda db_id: (-sizes[db_id], db_id))
    if count <= 0 or count >= len(ordered):
        return [(db_id,) for db_id in ordered]
    folds: list[list[str]] = [[] for _ in range(count)]
    totals = [0] * count
    for db_id in ordered:
        smallest = totals.index(min(totals))
        folds[smallest].append(db_id)
        totals[smallest] += sizes[db_id]
    return [tuple(fold) for fold in folds]


def detected_category(pair: LabelledPair) -> str:
    """The detected category of a pair, or "error" when one of its queries cannot be read."""
    try:
        return detect_relation(pair.previous, pair.current, pair.schema).category
    except RelationError:
        return "error"


def confusion_of(pairs: list[LabelledPair]) -> Counter:
    """(gold, detected) -> number of pairs."""
    return Counter((pair.gold, detected_category(pair)) for pair in pairs)


def agreed(confusion: Counter) -> int:
    return sum(count for (gold, found), count in confusion.items() if gold == found)


def confusion_table(confusion: Counter) -> str:
    columns = [*CATEGORIES, "error"]
    width = max(len(name) for name in columns) + 2
    lines = ["gold \\ detected".ljust(width) + "".join(name.rjust(width) for name in columns) + "total".rjust(8)]
    for gold in CATEGORIES:
        row = [confusion[gold, found] for found in columns]
        lines.append(gold.ljust(width) + "".join(str(count).rjust(width) for count in row) + str(sum(row)).rjust(8))
    return "\n".join(lines)


def fold_report(pairs: list[LabelledPair], folds: list[tuple[str, ...]], held_out: int | None = None) -> str:
    """One line per fold, then the pooled and the mean agreement and the pooled confusion matrix."""
    lines = []
    rates = []
    pooled = Counter()
    for index, fold in enumerate(folds):
        members = [pair for pair in pairs if pair.db_id in fold]
        confusion = confusion_of(members)
        pooled += confusion
        rate = agreed(confusion) / len(members)
        rates.append(rate)
        status = "held out" if index == held_out else ("seen" if TUNED_ON.intersection(fold) else "unseen")
        count = f"{agreed(confusion):>3}/{len(members):<3}"
        lines.append(f"fold {index + 1:>2} ({status:8}) {count} = {rate:6.1%}  {', '.join(fold)}")
    total = sum(pooled.values())
    lines.append(f"pooled: {agreed(pooled)}/{total} = {agreed(pooled) / total:.1%}")
    lines.append(
        f"mean of {len(folds)} folds: {sum(rates) / len(rates):.1%} (lowest {min(rates):.1%}, highest {max(rates):.1%})"
    )
    if held_out is None and all(TUNED_ON.intersection(fold) for fold in folds):
        lines.append("every fold was seen while the rules were written: these figures measure fit, not generalisation")
    lines.append(confusion_table(pooled))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=0, help="K folds of whole databases (default: one per database)")
    parser.add_argument("--held-out", type=int, default=None, help="fold number (from 1) whose pairs stay unread")
    parser.add_argument("--disagreements", action="store_true", help="list disagreeing pairs outside the held-out fold")
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    args = parser.parse_args()

    pairs = labelled_pairs(args.shared)
    folds = database_folds(pairs, args.folds)
    held_out = None
    if args.held_out is not None:
        if not 1 <= args.held_out <= len(folds):
            parser.error(f"--held-out must be between 1 and {len(folds)}")
        held_out = args.held_out - 1
    print(fold_report(pairs, folds, held_out))
    if args.disagreements:
        hidden = set(folds[held_out]) if held_out is not None else set()
        for pair in pairs:
            if pair.db_id in hidden:
                continue
            found = detected_category(pair)
            if found != pair.gold:
                print(f"\n[{pair.db_id}] gold {pair.gold}, detected {found}\n  {pair.previous}\n  {pair.current}")


if __name__ == "__main__":
    main()
