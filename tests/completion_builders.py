"""Builders for the SQL editor's completion by readable name (tests/browser/test_sql_completion_names.py)."""


def database_with_readable_names(db_id: str = "pupils") -> str:
    """A registered database whose table `stu` (readable name "student") has a column `Fname` curated to the readable
    name "first name" by an admin, through the curation service, and a column `city_code` left with its automatic
    readable name ("city code"). Made once; asked again, it gives the same database."""
    import sqlite3
    import tempfile
    from pathlib import Path

    from annotation.databases import curation
    from annotation.databases.services import database_register
    from annotation.models import Database, User
    from tests.builders import _suite_left_unbuilt

    if not Database.objects.filter(db_id=db_id).exists():
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / f"{db_id}.sqlite"
            with sqlite3.connect(path) as connection:
                connection.executescript(
                    "CREATE TABLE stu (StuID INTEGER PRIMARY KEY, Fname TEXT, city_code TEXT);"
                    "INSERT INTO stu VALUES (1, 'Linda', 'BAL'), (2, 'Tracy', 'HKG');"
                )
            connection.close()
            database = database_register(db_id=db_id, source_path=path)
        _suite_left_unbuilt(database)
        curation.database_names_set(
            database=database,
            by=User.objects.get(username="ada"),
            tables={"stu": "student"},
            columns={"stu.Fname": "first name"},
        )
    return db_id
