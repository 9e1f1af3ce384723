"""Time the scoring of prediction files on the public samples, beside a floor.

Usage: .venv/bin/python bench/evaluate.py [--rounds 3] [--shared PATH]

Builds a release in our layout from each public sample (SParC and CoSQL dev samples on their Spider databases, the
CHASE sample with its tables only: its databases are not public), then scores the gold itself as the prediction
file (every score 1.0) with review.dataset.evaluation, as `manage.py evaluate_predictions` does once Django is up.
The floor is the least any execution metric costs: each distinct gold and predicted query run once on its SQLite
file in this process with the sqlite3 module and its rows fetched, no sandbox, no parsing, no comparison. Prints
the best of `--rounds` for each, the ratio, and the load average (the machine is shared).
"""

import argparse
import json
import os
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SHARED = Path(os.environ.get("WOZSQL_SHARED_DIR", PROJECT_ROOT.parent / "shared"))
SAMPLES = {
    "sparc": ("sparc_dev_sample.json", "sparc", "sparc/dev.json", "sparc/tables.json"),
    "cosql": (
        "cosql_dev_sample.json",
        "cosql_dataset",
        "cosql_dataset/sql_state_tracking/cosql_dev.json",
        "cosql_dataset/tables.json",
    ),
    "chase": ("chase_dev_sample.json", "chase", "chase/chase_dev.json", "chase/chase_tables.json"),
}


def build_release(folder: Path, fmt: str, shared: Path) -> tuple[list, bytes]:
    """Write `fmt`'s sample as a release under `folder`; return its interactions and the gold as predictions."""
    sample, format_folder, state, tables_file = SAMPLES[fmt]
    data = json.loads((shared / "samples" / sample).read_text(encoding="utf-8"))
    (folder / state).parent.mkdir(parents=True, exist_ok=True)
    (folder / state).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    if fmt == "chase":
        shutil.copyfile(shared / "samples" / "chase_tables_sample.json", folder / tables_file)
    else:
        spider = {entry["db_id"]: entry for entry in json.loads((shared / "spider" / "tables.json").read_text())}
        used = sorted({item["database_id"] for item in data})
        (folder / tables_file).write_text(json.dumps([spider[db_id] for db_id in used]))
        for db_id in used:
            target = folder / format_folder / "database" / db_id
            target.mkdir(parents=True, exist_ok=True)
            link = target / f"{db_id}.sqlite"
            if not link.exists():
                link.symlink_to(shared / "spider" / "database" / db_id / f"{db_id}.sqlite")
    lines = "".join("".join(" ".join(t["query"].split()) + "\n" for t in i["interaction"]) + "\n" for i in data)
    return data, lines.encode()


def floor(folder: Path, fmt: str, data: list) -> float:
    """Seconds to run each distinct (database, query) once with sqlite3 and fetch its rows."""
    format_folder = SAMPLES[fmt][1]
    pairs = dict.fromkeys((i["database_id"], " ".join(t["query"].split())) for i in data for t in i["interaction"])
    started = time.perf_counter()
    connections = {}
    for db_id, sql in pairs:
        if db_id not in connections:
            path = folder / format_folder / "database" / db_id / f"{db_id}.sqlite"
            connections[db_id] = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            connections[db_id].execute(sql).fetchall()
        except sqlite3.Error:
            pass
    for connection in connections.values():
        connection.close()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    args = parser.parse_args()
    sys.path.insert(0, str(PROJECT_ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")
    import django

    django.setup()
    from review.dataset.evaluation import release_evaluate

    with tempfile.TemporaryDirectory(prefix="wozsql-bench-evaluate-") as folder:
        folder = Path(folder)
        for fmt in SAMPLES:
            data, predictions = build_release(folder, fmt, args.shared)
            best, report = None, None
            for _ in range(args.rounds):
                started = time.perf_counter()
                report = release_evaluate(folder, predictions, fmt=fmt)
                elapsed = time.perf_counter() - started
                best = elapsed if best is None else min(best, elapsed)
            ones = all(
                report["question"][metric] in (1.0, None) and report["interaction"][metric] in (1.0, None)
                for metric in ("exact", "execution", "test_suite")
            )
            line = f"{fmt:6} {report['questions']:4} questions: {best:6.2f} s ({report['questions'] / best:5.0f}/s)"
            if fmt != "chase":
                bottom = min(floor(folder, fmt, data) for _ in range(args.rounds))
                line += f"; floor (sqlite3, each query once) {bottom:5.2f} s, ratio {best / bottom:4.1f}x"
            else:
                line += "; exact match only (no public CHASE database)"
            print(line + ("" if ones else "  GOLD DID NOT SCORE 1.0"), flush=True)
            if not ones:
                raise SystemExit(1)
    print(f"load average {' '.join(f'{value:.2f}' for value in os.getloadavg())}")


if __name__ == "__main__":
    main()
