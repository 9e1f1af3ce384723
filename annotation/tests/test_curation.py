"""Curating a database before collection (docs/curation.md): its figures, the checks, and every edit, recorded."""

import sqlite3

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from annotation.databases import curation, selectors
from annotation.databases import profile as rules
from annotation.databases.curation import database_fill_empty
from annotation.databases.services import database_register
from annotation.models import CurationEdit, DatabaseVersion
from annotation.sql.check import check_queries
from annotation.sql.schema import introspect_sqlite
from annotation.wording.english import identifier_like

# A lab's own database: an identifier-named table, a key nobody declared (TBL_EMP.dept_id -> dept.dept_id), one empty
# note, a column empty everywhere, one holding a single value, and a copy of another column.
STAFF_SQL = """
CREATE TABLE dept (dept_id INTEGER PRIMARY KEY, title TEXT);
CREATE TABLE TBL_EMP (id INTEGER PRIMARY KEY, full_name TEXT, dept_id INTEGER, note TEXT, fax TEXT,
                      country TEXT, FullName TEXT);
INSERT INTO dept VALUES (1, 'Research'), (2, 'Sales');
INSERT INTO TBL_EMP VALUES (1, 'Ann Lee', 1, 'joined in May', NULL, 'NZ', 'Ann Lee'),
                           (2, 'Bo Chen', 2, NULL, '', 'NZ', 'Bo Chen'),
                           (3, 'Cy Diaz', 1, 'on leave', NULL, 'NZ', 'Cy Diaz');
"""


def _sqlite(path, script=STAFF_SQL):
    with sqlite3.connect(path) as connection:
        connection.executescript(script)
    connection.close()
    return path


@pytest.fixture
def staff(db, tmp_path, django_capture_on_commit_callbacks):
    """The staff database, registered, with its file read (what the task started after registration does; with a
    real broker and no worker, as in the services run, it would never run here, so the test does it)."""
    with django_capture_on_commit_callbacks() as started:
        database = database_register(db_id="staff", source_path=_sqlite(tmp_path / "staff.sqlite"))
    assert len(started) == 1, "registration starts the reading of the file"
    curation.database_version_profile(version=database.current_version)
    return database


def _names(schema):
    tables = schema["table_names_original"]
    return [f"{tables[t]}.{c}" if t >= 0 else c for t, c in schema["column_names_original"]]


def test_identifier_like_names_follow_one_documented_rule():
    for name in ["TBL_EMP", "col1", "tbl_orders", "qty", "emp_name", "GNP"]:
        assert identifier_like(name), name
    for name in ["singer_id", "StuID", "dorm_name", "FirstName", "id", "employee"]:
        assert not identifier_like(name), name


def test_registration_records_version_one_and_reads_the_file_once(staff):
    version = staff.current_version
    assert version.number == 1 and version.sha256 == staff.sha256 and version.path == staff.path
    profile = version.profile
    assert profile["tables"] == {"dept": {"rows": 2}, "TBL_EMP": {"rows": 3}}
    assert profile["columns"]["TBL_EMP.note"]["empty"] == 1
    assert profile["columns"]["TBL_EMP.fax"]["empty"] == 3  # NULL and '' alike
    assert profile["columns"]["TBL_EMP.country"]["distinct"] == 1
    assert profile["columns"]["dept.title"]["samples"] == ["Research", "Sales"]
    assert ["TBL_EMP", "full_name", "FullName"] in profile["identical"]
    assert profile["proposals"] == [{"child": ["TBL_EMP", "dept_id"], "parent": ["dept", "dept_id"], "share": 1.0}]


def test_the_checks_list_what_a_lab_fixes_before_collecting(staff):
    page = selectors.database_curation(database=staff)
    keys = {item["key"] for item in page["checks_open"]}
    assert keys == {
        "unreachable:TBL_EMP",  # of two tables joined by nothing, the second
        "name:TBL_EMP",
        "duplicate:TBL_EMP.full_name|FullName",
        "empty:TBL_EMP.fax",
        "equal:TBL_EMP.country",
        "proposal:TBL_EMP.dept_id>dept.dept_id",
    }
    linked = {item["key"]: item["anchor"] for item in page["checks_open"]}
    assert linked["name:TBL_EMP"] == "table-1" and linked["proposal:TBL_EMP.dept_id>dept.dept_id"] == "proposals"


def test_each_edit_is_recorded_and_the_checks_empty(staff, ada):
    assert curation.database_names_set(database=staff, by=ada, tables={"TBL_EMP": "employee"}) == 1
    assert curation.database_names_set(database=staff, by=ada, tables={"TBL_EMP": "employee"}) == 0  # no change
    curation.database_foreign_key_set(
        database=staff, by=ada, child="TBL_EMP.dept_id", parent="dept.dept_id", confirmed=True
    )
    curation.database_hidden_set(database=staff, by=ada, target="TBL_EMP.fax", hidden=True)
    curation.database_hidden_set(database=staff, by=ada, target="TBL_EMP.FullName", hidden=True)
    curation.database_check_keep(database=staff, by=ada, key="equal:TBL_EMP.country", reason="every office is in NZ")

    edits = list(CurationEdit.objects.order_by("id").values_list("field", "target", "before", "after", "by__username"))
    assert edits == [
        ("table_name", "TBL_EMP", None, "employee", "ada"),
        ("foreign_key", "TBL_EMP.dept_id → dept.dept_id", None, "confirmed", "ada"),
        ("hidden", "TBL_EMP.fax", False, True, "ada"),
        ("hidden", "TBL_EMP.FullName", False, True, "ada"),
        ("kept", "equal:TBL_EMP.country", None, "every office is in NZ", "ada"),
    ]
    staff.refresh_from_db()
    assert staff.schema["table_names"] == ["dept", "employee"]
    page = selectors.database_curation(database=staff)
    assert page["checks_open"] == []
    assert [item["kept"] for item in page["checks_kept"]] == ["every office is in NZ"]


def test_hidden_columns_leave_the_exported_entry_with_consistent_indexes(staff, ada):
    curation.database_foreign_key_set(
        database=staff, by=ada, child="TBL_EMP.dept_id", parent="dept.dept_id", confirmed=True
    )
    curation.database_hidden_set(database=staff, by=ada, target="TBL_EMP.full_name", hidden=True)
    curation.database_names_set(database=staff, by=ada, columns={"TBL_EMP.note": "remark"})
    [entry] = selectors.database_tables_json(only=["staff"])  # what an export writes as tables.json
    names = _names(entry)
    assert "TBL_EMP.full_name" not in names
    assert len(entry["column_names"]) == len(names) == len(entry["column_types"])
    assert [names[key] for key in entry["primary_keys"]] == ["dept.dept_id", "TBL_EMP.id"]
    assert [[names[a], names[b]] for a, b in entry["foreign_keys"]] == [["TBL_EMP.dept_id", "dept.dept_id"]]
    assert entry["column_names"][names.index("TBL_EMP.note")] == [1, "remark"]
    assert entry["column_types"][names.index("TBL_EMP.note")] == "text"

    # SQL collected on the hidden column is reported by the release check, not encoded against the wrong column.
    checks = check_queries(
        [("staff", "SELECT full_name FROM TBL_EMP"), ("staff", "SELECT note FROM TBL_EMP")],
        schemas={"staff": entry},
        paths={"staff": staff.path},
    )
    assert checks[("staff", "SELECT full_name FROM TBL_EMP")].encode_error
    assert checks[("staff", "SELECT note FROM TBL_EMP")].encode_error is None


def test_hidden_tables_and_columns_stay_out_of_the_table_viewer_and_the_detail(staff, ada):
    curation.database_hidden_set(database=staff, by=ada, target="dept", hidden=True)
    curation.database_hidden_set(database=staff, by=ada, target="TBL_EMP.note", hidden=True)
    staff.refresh_from_db()
    assert staff.schema["table_names_original"] == ["TBL_EMP"]
    page = selectors.database_table_page(database=staff, table_index=0)
    assert page["table"] == "TBL_EMP" and "note" not in page["columns"] and "full_name" in page["columns"]


def test_a_fill_makes_a_new_file_and_old_dialogues_keep_theirs(staff, ada, erin):
    from dialogs.room import sql_run_result
    from dialogs.solo import solo_create

    old_version, old_sha = staff.current_version, staff.sha256
    before = solo_create(expert=erin, database=staff)
    version = database_fill_empty(database=staff, by=ada, column="TBL_EMP.note", value="no note")

    staff.refresh_from_db()
    assert version.number == 2 and staff.file == version.file != old_version.file
    assert curation.file_sha256(old_version.path) == old_sha  # the first file is untouched
    assert staff.sha256 == version.sha256 != old_sha
    after = solo_create(expert=erin, database=staff)
    assert before.database_version == old_version and after.database_version == version
    count = "SELECT count(*) FROM TBL_EMP WHERE note IS NULL"
    assert sql_run_result(before, count)["rows"] == [[1]]
    assert sql_run_result(after, count)["rows"] == [[0]]
    assert sql_run_result(after, "SELECT note FROM TBL_EMP WHERE id = 2")["rows"] == [["no note"]]
    edit = CurationEdit.objects.get(field="fill")
    assert edit.before == {"version": 1, "empty": 1} and edit.after == {"version": 2, "value": "no note", "filled": 1}


def test_a_fill_of_one_row_changes_that_row_only(staff, ada):
    version = database_fill_empty(database=staff, by=ada, column="TBL_EMP.fax", value="555", row_id=2)
    with sqlite3.connect(version.path) as connection:
        assert connection.execute("SELECT id, fax FROM TBL_EMP ORDER BY id").fetchall() == [
            (1, None),
            (2, "555"),
            (3, None),
        ]
    connection.close()


def test_a_database_registered_before_versions_gets_its_file_as_version_one(staff, ada):
    DatabaseVersion.objects.all().delete()
    staff.refresh_from_db()
    version = database_fill_empty(database=staff, by=ada, column="TBL_EMP.note", value="none")
    assert list(staff.versions.values_list("number", flat=True)) == [1, 2] and version.number == 2


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda db, ada: curation.database_names_set(database=db, by=ada, columns={"TBL_EMP.nope": "x"}), "no column"),
        (lambda db, ada: curation.database_names_set(database=db, by=ada, tables={"nope": "x"}), "no table"),
        (
            lambda db, ada: curation.database_foreign_key_set(
                database=db, by=ada, child="TBL_EMP.full_name", parent="dept.dept_id", confirmed=True
            ),
            "cannot be joined",
        ),
        (
            lambda db, ada: curation.database_foreign_key_set(
                database=db, by=ada, child="TBL_EMP.dept_id", parent="TBL_EMP.id", confirmed=True
            ),
            "joins two tables",
        ),
        (lambda db, ada: database_fill_empty(database=db, by=ada, column="TBL_EMP.nope", value="x"), "no column"),
        (lambda db, ada: database_fill_empty(database=db, by=ada, column="dept.dept_id", value="x"), "not a number"),
        (lambda db, ada: database_fill_empty(database=db, by=ada, column="dept.title", value="x"), "no empty entry"),
        (lambda db, ada: database_fill_empty(database=db, by=ada, column="TBL_EMP.note", value=" "), "Give the value"),
        (lambda db, ada: curation.database_check_keep(database=db, by=ada, key="name:TBL_EMP", reason=""), "Say why"),
        (lambda db, ada: curation.database_check_keep(database=db, by=ada, key="nope", reason="x"), "no such check"),
        (lambda db, ada: curation.database_hidden_set(database=db, by=ada, target="a.b", hidden=True), "no column"),
    ],
)
def test_bad_edits_are_refused_with_a_reason_and_write_nothing(staff, ada, call, message):
    schema, files = dict(staff.schema), sorted(p.name for p in staff.path.parent.rglob("*"))
    with pytest.raises(ValidationError, match=message):
        call(staff, ada)
    staff.refresh_from_db()
    assert staff.schema == schema and staff.curation == {} and not CurationEdit.objects.exists()
    assert staff.versions.count() == 1 and sorted(p.name for p in staff.path.parent.rglob("*")) == files


def test_only_an_admin_curates(staff, erin):
    with pytest.raises(ValidationError, match="Only an admin"):
        curation.database_names_set(database=staff, by=erin, tables={"TBL_EMP": "employee"})
    with pytest.raises(ValidationError, match="Only an admin"):
        database_fill_empty(database=staff, by=erin, column="TBL_EMP.note", value="x")
    assert not CurationEdit.objects.exists() and staff.versions.count() == 1


def test_the_last_visible_table_cannot_be_hidden(staff, ada):
    curation.database_hidden_set(database=staff, by=ada, target="dept", hidden=True)
    with pytest.raises(ValidationError, match="At least one table"):
        curation.database_hidden_set(database=staff, by=ada, target="TBL_EMP", hidden=True)


def test_replacing_the_file_makes_a_new_version_and_keeps_the_curation(staff, ada, tmp_path):
    curation.database_names_set(database=staff, by=ada, tables={"TBL_EMP": "employee"})
    bigger = _sqlite(tmp_path / "bigger.sqlite", STAFF_SQL + "INSERT INTO dept VALUES (3, 'Legal');")
    database = database_register(db_id="staff", source_path=bigger, replace=True)
    assert database.current_version.number == 2 and database.schema["table_names"] == ["dept", "employee"]
    assert curation.file_sha256(DatabaseVersion.objects.get(number=1).path) != database.sha256


def test_name_matches_propose_table_id_columns_and_skip_declared_keys():
    schema = {
        "db_id": "x",
        "table_names_original": ["employees", "shift", "badge"],
        "table_names": ["employees", "shift", "badge"],
        "column_names_original": [[-1, "*"], [0, "id"], [1, "id"], [1, "employee_id"], [2, "employee_id"]],
        "column_names": [[-1, "*"], [0, "id"], [1, "id"], [1, "employee id"], [2, "employee id"]],
        "column_types": ["text", "number", "number", "number", "text"],
        "primary_keys": [1, 2],
        "foreign_keys": [],
    }
    assert rules.name_matches(schema) == [(3, 1)]  # badge.employee_id is text: no join with a number key
    assert rules.name_matches({**schema, "foreign_keys": [[3, 1]]}) == []


def test_a_composite_key_is_kept_whole_and_no_foreign_key_is_proposed_to_part_of_it(tmp_path):
    path = tmp_path / "dorms.sqlite"
    with sqlite3.connect(path) as connection:
        connection.executescript(
            """
            CREATE TABLE dorm (dorm_id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE amenity (amenity_id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE has_amenity (dorm_id INTEGER, amenity_id INTEGER, since INTEGER,
                PRIMARY KEY (dorm_id, amenity_id));
            CREATE TABLE visit (visit_id INTEGER PRIMARY KEY, dorm_id INTEGER, amenity_id INTEGER);
            """
        )
    connection.close()
    entry = introspect_sqlite(path, "dorms")
    names = {
        index: f"{entry['table_names_original'][t]}.{c}" for index, (t, c) in enumerate(entry["column_names_original"])
    }
    # tables.json's primary_keys keeps one number per table (what Spider's tools read); the whole key is kept beside.
    keys = ["dorm.dorm_id", "amenity.amenity_id", "has_amenity.dorm_id", "visit.visit_id"]
    assert [names[key] for key in entry["primary_keys"]] == keys
    assert [[names[c] for c in key] for key in entry["composite_primary_keys"]] == [
        ["has_amenity.dorm_id", "has_amenity.amenity_id"]
    ]
    # visit.dorm_id is proposed to point at dorm, never at has_amenity.dorm_id (a part of a two-column key).
    proposed = {(names[child], names[parent]) for child, parent in rules.name_matches(entry)}
    assert ("visit.dorm_id", "dorm.dorm_id") in proposed and ("visit.amenity_id", "amenity.amenity_id") in proposed
    assert not any(parent.startswith("has_amenity.") for _, parent in proposed)
    # Hiding a column of the key leaves no key of what is shown; hiding another column moves the indexes with it.
    hidden = rules.curated_schema(entry, {"hidden_columns": ["has_amenity.amenity_id"]})
    assert "composite_primary_keys" not in hidden
    moved = rules.curated_schema(entry, {"hidden_columns": ["dorm.name"]})
    assert [[moved["column_names_original"][c][1] for c in key] for key in moved["composite_primary_keys"]] == [
        ["dorm_id", "amenity_id"]
    ]


def test_the_curated_entry_of_an_untouched_file_is_the_file_s_own(tmp_path):
    entry = introspect_sqlite(_sqlite(tmp_path / "s.sqlite"), "staff")
    assert rules.curated_schema(entry, {}) == entry


def test_the_page_is_for_admins_and_a_refused_edit_keeps_what_was_typed(client, staff, ada, erin):
    url = reverse("annotation:database_curate", args=["staff"])
    client.force_login(erin)
    assert client.get(url).status_code == 403
    assert client.post(reverse("annotation:database_curate_edit", args=["staff", "names"])).status_code == 403
    client.force_login(ada)
    assert "TBL_EMP" in client.get(url).content.decode()
    response = client.post(
        reverse("annotation:database_curate_edit", args=["staff", "names"]),
        {"table": "TBL_EMP", "name": "employee", "column-3": "x" * 101},
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "longer than 100 letters" in page and 'value="employee"' in page
    assert not CurationEdit.objects.exists()
    response = client.post(
        reverse("annotation:database_curate_edit", args=["staff", "names"]), {"table": "TBL_EMP", "name": "employee"}
    )
    assert response.status_code == 302 and response.url.endswith("#table-1")
    assert CurationEdit.objects.get().after == "employee"


def test_the_goal_sampler_samples_nothing_hidden_and_joins_on_confirmed_keys(staff, ada):
    import random

    from annotation.goals.sampler import GoalSampler

    curation.database_foreign_key_set(
        database=staff, by=ada, child="TBL_EMP.dept_id", parent="dept.dept_id", confirmed=True
    )
    curation.database_hidden_set(database=staff, by=ada, target="TBL_EMP.full_name", hidden=True)
    curation.database_hidden_set(database=staff, by=ada, target="TBL_EMP.FullName", hidden=True)
    staff.refresh_from_db()
    goals = GoalSampler(staff.schema, staff.path, random.Random(7)).sample(40)
    assert goals, "the sampler found no goal at all: this test would prove nothing"
    assert not [goal.sql for goal in goals if "full_name" in goal.sql.lower() or "fullname" in goal.sql.lower()]
    assert any("JOIN" in goal.sql.upper() for goal in goals)


def test_a_schema_only_database_is_curated_from_its_own_entry(db, ada, tmp_path):
    from annotation.databases.services import database_register_schema

    entry = introspect_sqlite(_sqlite(tmp_path / "s.sqlite"), "staff_schema")
    database = database_register_schema(schema=entry)
    curation.database_hidden_set(database=database, by=ada, target="TBL_EMP.note", hidden=True)
    curation.database_hidden_set(database=database, by=ada, target="TBL_EMP.note", hidden=False)
    database.refresh_from_db()
    assert database.schema == entry and database.current_version.file == ""
    assert list(CurationEdit.objects.values_list("after", flat=True)) == [False, True]


def test_a_fill_runs_none_of_the_files_triggers_and_holds_no_transaction_while_it_works(
    db, tmp_path, ada, django_capture_on_commit_callbacks
):
    # An uploaded file's own trigger: any change to TBL_EMP empties dept. The fill must not run it (the version's note
    # names only the cells filled), must keep it in the new file as it was, and must do the file work before the
    # transaction that records the version (on SQLite that transaction holds the platform's write lock): the file
    # work refuses to run inside one (InsideTransaction), as the sandbox does.
    from django.db import transaction

    from annotation.sql.sandbox import InsideTransaction

    script = STAFF_SQL + "CREATE TRIGGER wipe AFTER UPDATE ON TBL_EMP BEGIN DELETE FROM dept; END;"
    with django_capture_on_commit_callbacks():
        database = database_register(db_id="staff", source_path=_sqlite(tmp_path / "staff.sqlite", script))
    with transaction.atomic(), pytest.raises(InsideTransaction, match="work on an uploaded file"):
        database_fill_empty(database=database, by=ada, column="TBL_EMP.note", value="no note")
    version = database_fill_empty(database=database, by=ada, column="TBL_EMP.note", value="no note")
    with sqlite3.connect(version.path) as filled:
        assert filled.execute("SELECT count(*) FROM dept").fetchone() == (2,)  # the trigger did not run
        assert filled.execute("SELECT note FROM TBL_EMP WHERE id = 2").fetchone() == ("no note",)
        [(trigger,)] = filled.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    filled.close()
    assert trigger == "CREATE TRIGGER wipe AFTER UPDATE ON TBL_EMP BEGIN DELETE FROM dept; END"
    assert version.note == "1 empty entry of TBL_EMP.note filled with no note"
