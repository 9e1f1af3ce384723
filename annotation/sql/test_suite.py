"""Distilled test suites: small databases, generated from a hosted one, on which queries that differ in meaning return
different rows (docs/test_suites.md).

Pure logic: paths, a Spider schema and SQL in; files and values out. It knows no model.
"""

from __future__ import annotations

from pathlib import Path

SUITES_FOLDER = "test_suites"


def original_path(data_dir: Path | str, db_id: str) -> Path:
    """Where `annotation.services.database_register` keeps a hosted database's file."""
    return Path(data_dir) / "databases" / db_id / f"{db_id}.sqlite"


def suite_dir(data_dir: Path | str, db_id: str) -> Path:
    """The folder holding a database's generated suite: `DATA_DIR/test_suites/<db_id>/`."""
    return Path(data_dir) / SUITES_FOLDER / db_id


def suite_paths(data_dir: Path | str, db_id: str) -> list[Path]:
    """Every database a query pair is checked on, the original first, then the suite's generated databases in a stable
    order. Without a built suite this is the original alone, so callers work (on one database) before it is built."""
    generated = sorted(suite_dir(data_dir, db_id).glob("*.sqlite"))
    return [original_path(data_dir, db_id), *generated]
