"""Build the intent model (annotation/labels/relation_model.json) and the corrected labels' list from CHASE's
train split.

Usage: .venv/bin/python bench/relation_model_build.py [--shared PATH] [--labels corrected|raw]   (make relation-model)

The model is fitted on every labelled follow-up of ../shared/corpora (bench/chase_corpus.py), by default on the labels
corrected by definition, with the settings bench/relation_training.py chooses by a cross-validation of whole
databases over all of them, and written as JSON (weights only; the
platform reads it with annotation.labels.relation_model, no scikit-learn needed). The file is built here and committed;
nothing fetches it. The same run writes the list of corrected labels, one line per correction.
"""

import argparse
import csv
import json
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))

from annotation.labels.acts import CHASE_INTENT_LABELS  # noqa: E402
from annotation.labels.relation_model import MODEL_PATH  # noqa: E402
from bench.chase_corpus import DEFAULT_SHARED, definition_correction, labelled_corpus_pairs  # noqa: E402
from bench.relation_training import features_of, fit_document  # noqa: E402

CORRECTIONS_PATH = PROJECT_ROOT / "bench" / "ratings" / "chase_relation_corrections.csv"


def write_corrections(pairs, path: Path) -> int:
    """One CSV line per corrected label: where it is, CHASE's label, the corrected one and the rule's reason."""
    count = 0
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            ["interaction", "turn", "question_id", "db_id", "raw_label", "raw_category", "corrected_category", "reason"]
        )
        for pair in pairs:
            correction = definition_correction(pair)
            if correction is None:
                continue
            category, reason = correction
            writer.writerow(
                [
                    pair.interaction,
                    pair.turn,
                    pair.question_id,
                    pair.db_id,
                    CHASE_INTENT_LABELS[pair.gold],
                    pair.gold,
                    category,
                    reason,
                ]
            )
            count += 1
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    parser.add_argument("--labels", choices=("corrected", "raw"), default="corrected")
    parser.add_argument("--output", type=Path, default=MODEL_PATH)
    parser.add_argument("--corrections", type=Path, default=CORRECTIONS_PATH)
    args = parser.parse_args()

    pairs = labelled_corpus_pairs(args.shared)
    if args.labels == "corrected":
        labels = [(definition_correction(pair) or (pair.gold,))[0] for pair in pairs]
    else:
        labels = [pair.gold for pair in pairs]
    rows = [features_of(pair) for pair in pairs]
    note = (
        f"built by bench/relation_model_build.py from {len(pairs)} labelled follow-ups of CHASE's training split "
        f"({len({pair.db_id for pair in pairs})} databases), {args.labels} labels"
    )
    groups = [pair.db_id for pair in pairs]
    document = fit_document([row[0] for row in rows], [row[1] for row in rows], labels, note, groups=groups)
    args.output.write_text(json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    corrected = write_corrections(pairs, args.corrections)
    sizes = {name: len(variant["weights"]) for name, variant in document["variants"].items()}
    print(f"{args.output}: {args.output.stat().st_size:,} bytes, features per variant {sizes}")
    print(f"settings chosen by database cross-validation: {json.dumps(document['settings'])}")
    print(f"{args.corrections}: {corrected} corrected labels")


if __name__ == "__main__":
    main()
