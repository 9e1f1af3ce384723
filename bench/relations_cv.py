"""Relation categories against CHASE's labels, with whole databases held out: the rules, the learned model, both.

Usage: .venv/bin/python bench/relations_cv.py [--folds 5] [--seed 0] [--train-labels corrected|raw] [--shared PATH]
       [--cue-words]

The labelled follow-ups of CHASE's training split (bench/chase_corpus.py: 3,804 pairs on 80 of its 200 databases) are
split into folds of whole databases (scikit-learn's GroupKFold by db_id, shuffled with `--seed`). For each fold the
model is fitted on the other folds (bench/relation_training.py, the same code `make relation-model` runs), its
settings chosen by a cross-validation of whole databases inside those other folds (nested: the held-out databases take
part in no choice), written to the JSON format and read back by `annotation.labels.relation_model`, so the figure is
that of the code the platform runs, on databases the model never saw. The rules have no fitted part: their figure on a
fold is their agreement there.

Every system is scored against CHASE's raw labels and against the labels corrected by definition
(bench/chase_corpus.py; the model is fitted on `--train-labels`). Prints each fold's chosen settings, then per system:
the mean agreement over the folds ± their standard deviation (lowest, highest, each fold), the pooled confusion matrix
(label by row, prediction by column), then the time per pair of `label_intent` and the machine's load average.

`--cue-words` adds bench/relation_cues.py's cue-word features to the questions' features (an experiment, not kept:
docs/chase.md); the timing line is then still that of the committed model.

Systems:
  rules               relations.detect_relation's category
  model (SQL)         the learned model on the SQL features alone
  model (SQL+words)   the learned model with the questions (n-grams, and how they name the change)
  definitions+model   the rules where only one category's clauses changed (relation_features' `within:` feature:
                      the category is settled by definition), the SQL model elsewhere
"""

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))

from annotation.labels.relation_model import SQL_ONLY, WITH_WORDS, RelationModel, label_intent, loaded_model  # noqa: E402
from annotation.labels.relations import CATEGORIES, clear_shape_cache  # noqa: E402
from bench.chase_corpus import DEFAULT_SHARED, definition_correction, labelled_corpus_pairs  # noqa: E402
from bench.relation_cues import question_cue_features  # noqa: E402
from bench.relation_training import features_of, fit_document  # noqa: E402

SYSTEMS = ("rules", "model (SQL)", "model (SQL+words)", "definitions+model")


def database_folds(pairs, folds: int, seed: int) -> list[tuple[list[int], list[int]]]:
    """(training indexes, held-out indexes) per fold; every database wholly in one held-out part."""
    from sklearn.model_selection import GroupKFold

    groups = [pair.db_id for pair in pairs]
    splitter = GroupKFold(n_splits=folds, shuffle=True, random_state=seed)
    return [(list(train), list(test)) for train, test in splitter.split(groups, groups, groups)]


def predictions(pairs, sql_rows, word_rows, train_labels, folds, chosen: list) -> dict[str, list[str]]:
    """Each system's held-out prediction for every pair; each fold's chosen settings are appended to `chosen`."""
    out = {name: [""] * len(pairs) for name in SYSTEMS}
    for index in range(len(pairs)):
        out["rules"][index] = next(name[6:] for name in sql_rows[index] if name.startswith("rules:"))
    for train, test in folds:
        document = fit_document(
            [sql_rows[i] for i in train],
            [word_rows[i] for i in train],
            [train_labels[i] for i in train],
            "fold",
            groups=[pairs[i].db_id for i in train],  # the settings are chosen among the training databases only
        )
        chosen.append(document["settings"])
        model = RelationModel(json.loads(json.dumps(document)))  # exactly what a file would hold
        for i in test:
            sql_only = model.predict(sql_rows[i], SQL_ONLY)
            out["model (SQL)"][i] = sql_only
            out["model (SQL+words)"][i] = model.predict({**sql_rows[i], **word_rows[i]}, WITH_WORDS)
            settled = next((name[7:] for name in sql_rows[i] if name.startswith("within:")), None)
            out["definitions+model"][i] = out["rules"][i] if settled else sql_only
    return out


def fold_rates(predicted, labels, folds) -> list[float]:
    return [sum(predicted[i] == labels[i] for i in test) / len(test) for _, test in folds]


def confusion_table(predicted, labels) -> str:
    counts = Counter(zip(labels, predicted, strict=True))
    width = max(len(name) for name in CATEGORIES) + 2
    lines = ["label \\ predicted".ljust(width) + "".join(name.rjust(width) for name in CATEGORIES) + "total".rjust(8)]
    for gold in CATEGORIES:
        row = [counts[gold, found] for found in CATEGORIES]
        lines.append(gold.ljust(width) + "".join(str(count).rjust(width) for count in row) + str(sum(row)).rjust(8))
    return "\n".join(lines)


def summary(rates: list[float]) -> str:
    spread = statistics.stdev(rates) if len(rates) > 1 else 0.0
    return (
        f"{statistics.mean(rates):6.1%} ± {spread:4.1%} over {len(rates)} folds "
        f"(lowest {min(rates):.1%}, highest {max(rates):.1%}); per fold " + " ".join(f"{rate:.1%}" for rate in rates)
    )


def time_per_pair(pairs, rounds: int = 3) -> str:
    """Milliseconds per pair of label_intent with the committed model: each pair's queries read afresh (the worst
    case), and with the shape cache a dialogue would have (each query read once)."""
    if loaded_model() is None:
        return "no committed model: timing skipped"
    sample = pairs[:500]
    best_cold = best_warm = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for pair in sample:
            clear_shape_cache()
            label_intent(
                pair.previous_sql,
                pair.current_sql,
                pair.schema,
                previous_question=pair.previous_question,
                current_question=pair.current_question,
            )
        best_cold = min(best_cold, (time.perf_counter() - start) / len(sample))
        clear_shape_cache()
        for pair in sample:  # fill the cache as a dialogue does, then time the labelling itself
            label_intent(pair.previous_sql, pair.current_sql, pair.schema)
        start = time.perf_counter()
        for pair in sample:
            label_intent(
                pair.previous_sql,
                pair.current_sql,
                pair.schema,
                previous_question=pair.previous_question,
                current_question=pair.current_question,
            )
        best_warm = min(best_warm, (time.perf_counter() - start) / len(sample))
    return (
        f"label_intent with words, best of {rounds} rounds over {len(sample)} pairs: {best_cold * 1000:.2f} ms/pair "
        f"with both queries parsed, {best_warm * 1000:.2f} ms/pair on cached shapes (target < 2 ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--train-labels", choices=("corrected", "raw"), default="corrected")
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    parser.add_argument("--no-timing", action="store_true")
    parser.add_argument("--cue-words", action="store_true", help="add bench/relation_cues.py's features (experiment)")
    args = parser.parse_args()

    pairs = labelled_corpus_pairs(args.shared)
    raw = [pair.gold for pair in pairs]
    corrected = [(definition_correction(pair) or (pair.gold,))[0] for pair in pairs]
    rows = [features_of(pair) for pair in pairs]
    sql_rows, word_rows = [row[0] for row in rows], [row[1] for row in rows]
    if args.cue_words:
        for pair, sql, words in zip(pairs, sql_rows, word_rows, strict=True):
            words.update(question_cue_features(sql, pair.previous_question, pair.current_question))
    folds = database_folds(pairs, args.folds, args.seed)
    changed = sum(a != b for a, b in zip(raw, corrected, strict=True))
    print(
        f"{len(pairs)} labelled follow-ups on {len({pair.db_id for pair in pairs})} databases; {changed} labels "
        f"({changed / len(pairs):.1%}) corrected by definition; model fitted on {args.train_labels} labels; "
        f"{args.folds} database folds, seed {args.seed}{'; with the cue words' if args.cue_words else ''}"
    )
    train_labels = corrected if args.train_labels == "corrected" else raw
    chosen: list = []
    predicted = predictions(pairs, sql_rows, word_rows, train_labels, folds, chosen)
    for number, settings in enumerate(chosen):
        print(f"fold {number}: settings chosen on its training databases {json.dumps(settings)}")
    for name in SYSTEMS:
        print(f"\n== {name}")
        for tag, labels in (("raw labels", raw), ("corrected labels", corrected)):
            print(f"  {tag:17} {summary(fold_rates(predicted[name], labels, folds))}")
        print("  confusion with raw labels:")
        print("    " + confusion_table(predicted[name], raw).replace("\n", "\n    "))
    if not args.no_timing:
        print("\n" + time_per_pair(pairs))
        print(f"load average while measuring: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")


if __name__ == "__main__":
    main()
