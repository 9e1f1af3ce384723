"""An export's `report/` folder: the statistics of the dialogues the release holds (docs/statistics.md), as the
statistics page shows them.

When double-annotation rounds labelled turns of the release's dialogues (docs/double_annotation.md), the folder also
holds `report/double_annotation.json` (each round's draw and its agreement over those turns, review.double.selectors.
release_rounds), `report/double_annotation.csv` (a row per round and field) and `report/double_annotation.svg`.

`report/statistics.json` is the whole statistics dict (review.dataset.statistics.compute_statistics), and for each
figure of review.dataset.figures.FIGURES, `report/<figure>.svg` and the table behind it, `report/<figure>.csv`
(written by review.payments.csv_files.csv_text, which keeps a cell from being read as a formula). A figure that
cannot be drawn does not fail the export: its table is still written, and the export's report says which figure
failed and why (`report_folder.failed`).
"""

from __future__ import annotations

import logging
from pathlib import Path

from review.dataset import figures
from review.payments.csv_files import csv_text

logger = logging.getLogger(__name__)

FOLDER = "report"
STATISTICS_NAME = f"{FOLDER}/statistics.json"


def _counts(data: dict, label: str, value: str) -> tuple[list[str], list[list]]:
    return [label, value], [[key, count] for key, count in data.items()]


def figure_table(name: str, stats: dict) -> tuple[list[str], list[list]]:
    """The header and rows behind the figure `name` (a key of FIGURES): the numbers it draws, as in `stats`."""
    if name == "dialogue_lengths":
        return _counts(stats["dialogue_lengths"], "turns", "dialogues")
    if name in ("user_acts", "system_acts"):
        return _counts(stats[name], "act", "count")
    if name == "sql_keywords":
        return _counts(stats[name], "keyword", "count")
    if name == "hardness":
        return _counts(stats[name], "hardness", "sql_turns")
    if name == "keywords_by_turn":
        series = stats[name]
        keywords = list(series["percent"])
        rows = [
            [turn, series["dialogues_reaching_turn"][index], *(series["percent"][k][index] for k in keywords)]
            for index, turn in enumerate(series["turns"])
        ]
        return ["sql_turn", "dialogues_reaching_turn", *(f"percent {keyword}" for keyword in keywords)], rows
    if name == "coverage":
        rows = stats["coverage"]["databases"]
        columns = list(rows[0]) if rows else ["db_id", "queries", "tables", "tables_used", "table_coverage"]
        # Numbered as the figure's bars are.
        return ["number", *columns], [[number, *(row[c] for c in columns)] for number, row in enumerate(rows, 1)]
    if name == "intents":
        recommended, asked = stats["intents"]["recommended"], stats["intents"]["asked"]
        labels = list(dict.fromkeys([*asked, *recommended]))
        return ["intent", "recommended", "asked"], [[k, recommended.get(k, 0), asked.get(k, 0)] for k in labels]
    if name in ("question_overlap", "sql_overlap"):
        overlap = stats[name]
        turns = overlap["turns"]
        rows = [
            [i, j, overlap["percent"][a][b], overlap["pairs"][a][b]]
            for a, i in enumerate(turns)
            for b, j in enumerate(turns)
            if i < j
        ]
        return ["earlier_turn_i", "later_turn_j", "percent", "pairs"], rows
    if name == "link_matches":
        matches = stats[name]
        kinds = ("table", "column", "all")
        return ["item", "exact", "partial", "none"], [[k, *(matches[k][m] for m in ("exact", "partial", "none"))]
                                                      for k in kinds]  # fmt: skip
    if name == "thematic_relations":
        thematic = stats[name]
        return ["relation", "count", "percent_of_labels", "percent_of_labelled_questions"], [
            [key, count, thematic["percent"][key], thematic["percent_of_labelled"][key]]
            for key, count in thematic["counts"].items()
        ]
    if name == "otta_by_collection":
        rows = stats[name]
        components = list(rows[0]["components_per_query"]) if rows else []
        header = ["mode", "title", "question_tokens", "msttr", "sql_turns", *components]
        return header, [
            [row["mode"], row["title"], row["question_tokens"], row["msttr"], row["sql_turns"],
             *(row["components_per_query"][c] for c in components)]
            for row in rows
        ]  # fmt: skip
    raise KeyError(name)


DOUBLE_NAME = f"{FOLDER}/double_annotation"
DOUBLE_HEADER = [
    "sample", "field", "kind", "items", "agreed", "observed", "kappa", "kappa_of_sets", "execution_rate",
    "suite_rate", "precision", "recall", "f1",
]  # fmt: skip


def double_table(rounds: list[dict]) -> tuple[list[str], list[list]]:
    """A row per round and field: the agreement figures of review.double.selectors (κ of a multi-label field: the
    mean over its labels; `kappa_of_sets`: its whole set as one category)."""
    rows = []
    for round_ in rounds:
        for field, figures_ in round_["fields"].items():
            kappa = figures_.get("kappa", figures_.get("kappa_mean"))
            agreed = figures_.get("agreed", figures_.get("matched", figures_.get("suite_match")))
            rows.append(
                [round_["sample"], field, figures_["kind"], figures_["items"], agreed, figures_.get("observed"), kappa,
                 figures_.get("kappa_sets"), figures_.get("execution_rate"), figures_.get("suite_rate"),
                 figures_.get("precision"), figures_.get("recall"), figures_.get("f1")]
            )  # fmt: skip
    return DOUBLE_HEADER, rows


def write_double_annotation(out_dir: Path, rounds: list[dict], *, write_json) -> tuple[list[str], list[dict]]:
    """The double-annotation files of report/ for `rounds` (none without a round); (written, failed) as
    write_report_folder returns them."""
    if not rounds:
        return [], []
    write_json(Path(out_dir) / f"{DOUBLE_NAME}.json", rounds, kind=None)
    written, failed = [f"{DOUBLE_NAME}.json"], []
    makers = (
        ("csv", lambda: csv_text(double_table(rounds)[1], DOUBLE_HEADER)),
        ("svg", lambda: figures.render_figure(figures.draw_double_agreement(rounds), "svg")),
    )
    for suffix, make in makers:
        relative = f"{DOUBLE_NAME}.{suffix}"
        try:
            content = make()
        except Exception as exc:  # as a figure of FIGURES: reported, the release still whole
            logger.warning("export report: %s failed", relative, exc_info=True)
            failed.append({"figure": "double_annotation", "file": relative, "error": f"{type(exc).__name__}: {exc}"})
            continue
        path = Path(out_dir) / relative
        path.write_bytes(content) if isinstance(content, bytes) else path.write_text(content, encoding="utf-8")
        written.append(relative)
    return written, failed


def write_report_folder(out_dir: Path, stats: dict, *, write_json) -> tuple[list[str], list[dict]]:
    """Write report/ into `out_dir`; return the files written (relative paths, in order: statistics.json, then each
    figure's table and SVG in FIGURES' order) and the figures that failed ({"figure", "file", "error"})."""
    folder = Path(out_dir) / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    write_json(Path(out_dir) / STATISTICS_NAME, stats, kind=None)
    written, failed = [STATISTICS_NAME], []
    for name in figures.FIGURES:
        makers = (
            ("csv", lambda name=name: csv_text(figure_table(name, stats)[1], figure_table(name, stats)[0])),
            ("svg", lambda name=name: figures.render(name, stats, "svg")),
        )
        for suffix, make in makers:
            relative = f"{FOLDER}/{name}.{suffix}"
            try:
                content = make()
            except Exception as exc:  # a figure that cannot be drawn is reported; the release is still whole
                logger.warning("export report: %s failed", relative, exc_info=True)
                failed.append({"figure": name, "file": relative, "error": f"{type(exc).__name__}: {exc}"})
                continue
            path = Path(out_dir) / relative
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
            written.append(relative)
    return written, failed
