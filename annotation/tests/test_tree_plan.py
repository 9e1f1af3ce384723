"""An operation tree as a readable plan (annotation.goals.tree_plan): the steps in OTTA's order, each step's SQL runs
and the last one is the goal's, a drafted question, adapting a filter, and checking a token alignment."""

import random
import sqlite3

import pytest

from annotation.goals.sampler import GoalSampler, tree_sql
from annotation.goals.tree_plan import TreeError, adapt_filter, check_alignment, draft_question, plan
from annotation.labels.tokens import utterance_toks
from annotation.sql.sandbox import execute, execute_many
from annotation.sql.schema import introspect_sqlite

JOINED = {
    "type": "count",
    "tables": ["student", "lives_in", "dorm"],
    "joins": [["student", "student_id", "lives_in", "student_id"], ["lives_in", "dorm_id", "dorm", "dorm_id"]],
    "project": ["student.first_name"],
    "filters": [
        {"column": "dorm.dorm_name", "op": "=", "value": "Harbor View Hall"},
        {"column": "student.age", "op": ">", "value": 20},
    ],
}
GROUPED = {
    "type": "group_count",
    "tables": ["student"],
    "joins": [],
    "project": ["student.first_name"],
    "filters": [],
    "group": "student.major",
    "having": {"op": ">=", "value": 2},
    "order": {"by": "count", "desc": True, "limit": 1},
}
SET = {
    "type": "list",
    "tables": ["student"],
    "joins": [],
    "project": ["student.last_name"],
    "filters": [{"column": "student.major", "op": "=", "value": "History"}],
    "set": {"op": "except", "filters": [{"column": "student.age", "op": "<", "value": 20}]},
}


@pytest.mark.django_db
def test_the_steps_come_in_otta_order_each_runs_and_the_last_is_the_goal(demo_databases):
    database = demo_databases["dorm_demo"]
    steps = plan(JOINED, database.schema)
    assert [step.id for step in steps] == [
        "table-1",
        "table-2",
        "table-3",
        "join-1",
        "join-2",
        "filter-1",
        "filter-2",
        "type",
    ]
    assert steps[-1].sql == tree_sql(JOINED)
    assert "Harbor View Hall" in steps[5].label and "dorm name" in steps[5].label
    assert steps[3].label.startswith("Join each student")
    results = execute_many(database.path, [step.sql for step in steps])
    assert all(result.ok for result in results), [result.error for result in results]
    # Each filter narrows what the joins gave.
    assert results[4].row_count >= results[5].row_count >= results[6].row_count
    assert results[-1].rows == [[7]]

    grouped = plan(GROUPED, database.schema)
    assert [step.kind for step in grouped] == ["table", "group", "having", "order", "type"]
    assert "more" not in grouped[2].label and "at least 2" in grouped[2].label
    set_steps = plan(SET, database.schema)
    assert [step.id for step in set_steps] == ["table-1", "filter-1", "project", "set-filter-1", "set", "type"]
    for steps in (grouped, set_steps):
        assert all(result.ok for result in execute_many(database.path, [step.sql for step in steps]))


@pytest.mark.django_db
def test_every_step_of_every_sampled_tree_runs_on_the_demo_databases(demo_databases):
    for database in demo_databases.values():
        goals = GoalSampler(database.schema, database.path, random.Random(11)).sample(12)
        assert goals, database.db_id
        for goal in goals:
            steps = plan(goal.tree, database.schema)
            assert steps[-1].sql == goal.sql
            assert len({step.id for step in steps}) == len(steps)
            for step, result in zip(steps, execute_many(database.path, [step.sql for step in steps]), strict=True):
                assert result.ok, (goal.sql, step.sql, result.error)


def test_a_drafted_question_is_a_plain_question_that_names_what_the_tree_asks(demo_files):
    schema = introspect_sqlite(demo_files["dorm_demo"], "dorm_demo")
    joined = draft_question(JOINED, schema)
    assert joined.startswith("How many students") and joined.endswith("?")
    assert "Harbor View Hall" in joined and "greater than 20" in joined
    assert draft_question(GROUPED, schema).startswith("Which major has the most students")
    assert "but not those whose age is less than 20" in draft_question(SET, schema)


def test_adapting_a_filter_rewrites_the_tree_and_records_before_and_after():
    adapted, change = adapt_filter(JOINED, step_id="filter-2", op=">=", value="22")
    assert adapted["filters"][1] == {"column": "student.age", "op": ">=", "value": 22}
    assert JOINED["filters"][1]["value"] == 20  # the original is not touched
    assert change == {
        "step": "filter-2",
        "column": "student.age",
        "before": {"op": ">", "value": 20},
        "after": {"op": ">=", "value": 22},
    }
    assert "AGE >= 22" in tree_sql(adapted).upper()
    _, like = adapt_filter(SET, step_id="filter-1", op="like", value="Hist")
    assert like["after"] == {"op": "like", "value": "%Hist%"}
    second, _ = adapt_filter(SET, step_id="set-filter-1", op="<", value="19")
    assert second["set"]["filters"][0]["value"] == 19
    for step_id, op, value, message in [
        ("filter-9", "=", "x", "no filter"),
        ("filter-1", "<>", "x", "operator"),
        ("filter-2", ">", "twenty", "not a number"),
        ("filter-1", "=", 'say "hi"', "double quotes"),
        ("filter-1", "=", "  ", "short text"),
    ]:
        with pytest.raises(TreeError, match=message):
            adapt_filter(JOINED, step_id=step_id, op=op, value=value)


def test_an_alignment_needs_the_query_type_and_every_filter_and_refuses_bad_spans(demo_files):
    schema = introspect_sqlite(demo_files["dorm_demo"], "dorm_demo")
    steps = plan(JOINED, schema)
    tokens = utterance_toks("How many students older than 20 live in Harbor View Hall?")
    good = [
        {"step": "filter-1", "beg": 8, "end": 10},
        {"step": "type", "beg": 0, "end": 1},
        {"step": "filter-2", "beg": 3, "end": 5},
        {"step": "type", "beg": 0, "end": 1},
    ]
    assert check_alignment(good, tokens, steps) == [
        {"step": "filter-1", "beg": 8, "end": 10},
        {"step": "filter-2", "beg": 3, "end": 5},
        {"step": "type", "beg": 0, "end": 1},
    ]
    with pytest.raises(TreeError, match="Give words to: Keep those whose age is greater than 20"):
        check_alignment(good[:2], tokens, steps)
    for bad, message in [
        ([{"step": "nope", "beg": 0, "end": 0}], "no operation 'nope'"),
        ([{"step": "type", "beg": 3, "end": 2}], "from one token to a later one"),
        ([{"step": "type", "beg": 0, "end": 99}], "among the 12 tokens"),
        ([{"step": "type", "beg": "0", "end": 1}], "from one token"),
        ([{"step": "type", "beg": 0}], "exactly a step"),
        ("type 0 1", "a list of spans"),
    ]:
        with pytest.raises(TreeError, match=message):
            check_alignment(bad, tokens, steps)


@pytest.mark.django_db
def test_the_adapted_tree_runs_in_the_sandbox(demo_databases):
    database = demo_databases["dorm_demo"]
    adapted, _ = adapt_filter(JOINED, step_id="filter-2", op=">", value="0")
    assert execute(database.path, tree_sql(adapted)).ok


CLINIC = """
CREATE TABLE patient (patient_id INTEGER PRIMARY KEY, name TEXT, gender TEXT, birth_year INTEGER);
CREATE TABLE appointment (appt_id INTEGER PRIMARY KEY, patient_id INTEGER REFERENCES patient (patient_id), fee REAL);
CREATE TABLE treatment (treatment_id INTEGER PRIMARY KEY, label TEXT);
CREATE TABLE appointment_treatment (
    appt_id INTEGER REFERENCES appointment (appt_id), treatment_id INTEGER REFERENCES treatment (treatment_id)
);
CREATE TABLE booking (booking_id INTEGER PRIMARY KEY, patient_id INTEGER REFERENCES patient (patient_id));
"""
TO_APPOINTMENT = ["patient", "patient_id", "appointment", "patient_id"]


@pytest.fixture
def clinic_schema(tmp_path):
    import sqlite3

    path = tmp_path / "clinic.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(CLINIC)
    connection.close()
    return introspect_sqlite(path, "clinic")


def test_a_count_per_name_over_a_join_asks_which_thing_has_the_most_of_what_it_counts(clinic_schema):
    most = {
        "type": "group_count", "tables": ["patient", "appointment"], "joins": [TO_APPOINTMENT],
        "project": ["patient.name"], "filters": [], "group": "patient.name",
        "order": {"by": "count", "desc": True, "limit": 1},
    }  # fmt: skip
    assert draft_question(most, clinic_schema) == "Which patient has the most appointments?"
    # Through the link table to its far side: what it counts is named by the far table.
    treatments = {
        **most, "tables": ["appointment", "appointment_treatment", "treatment"], "group": "appointment.fee",
        "joins": [["appointment", "appt_id", "appointment_treatment", "appt_id"],
                  ["appointment_treatment", "treatment_id", "treatment", "treatment_id"]],
        "order": {"by": "count", "desc": False, "limit": 1},
    }  # fmt: skip
    assert draft_question(treatments, clinic_schema) == "Which appointment fee has the fewest treatments?"
    # A foreign key grouped: per row of the table it names.
    per_patient = {**most, "tables": ["appointment"], "joins": [], "group": "appointment.patient_id"}
    per_patient.pop("order")
    assert draft_question(per_patient, clinic_schema) == "How many appointments are there for each patient?"
    having = {**per_patient, "having": {"op": ">=", "value": 3}}
    assert draft_question(having, clinic_schema) == (
        "For each patient with at least 3 appointments, how many appointments are there?"
    )
    for question in (draft_question(most, clinic_schema), draft_question(having, clinic_schema)):
        assert "name has" not in question and "with their" not in question and "for those with" not in question


def test_no_draft_rather_than_a_question_about_what_the_tree_does_not_ask(clinic_schema):
    # The join to appointments is read by nothing: the old draft asked "... of the patients with their appointments".
    unread = {
        "type": "list", "tables": ["patient", "appointment"], "joins": [TO_APPOINTMENT], "project": ["patient.name"],
        "filters": [], "order": {"by": "patient.birth_year", "desc": True, "limit": 1},
    }  # fmt: skip
    assert draft_question(unread, clinic_schema) == ""
    # Counting per booking the patients its rows point to: a question nobody asks, and no draft.
    upward = {
        "type": "group_count", "tables": ["booking", "patient"], "project": [], "filters": [],
        "joins": [["booking", "patient_id", "patient", "patient_id"]], "group": "booking.booking_id",
    }  # fmt: skip
    assert draft_question(upward, clinic_schema) == ""
    # The question is about the rows whose column it shows, and their conditions are said of them.
    shown = {
        "type": "list", "tables": ["patient", "appointment"], "joins": [TO_APPOINTMENT], "project": ["appointment.fee"],
        "filters": [{"column": "patient.gender", "op": "=", "value": "F"}],
    }  # fmt: skip
    assert draft_question(shown, clinic_schema) == "What are the fees of the appointments whose patient gender is F?"
    assert draft_question(
        {**shown, "type": "count", "tables": ["booking"], "joins": [], "filters": []}, clinic_schema
    ) == ("How many bookings are there?")


def test_a_link_table_named_for_neither_side_is_asked_about_as_pairs(tmp_path):
    import sqlite3

    path = tmp_path / "school.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        """
        CREATE TABLE instructor (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE course (course_id INTEGER PRIMARY KEY, title TEXT);
        CREATE TABLE teaches (
            id INTEGER REFERENCES instructor (id), course_id INTEGER REFERENCES course (course_id), semester TEXT,
            PRIMARY KEY (id, course_id)
        );
        CREATE TABLE course_instructor (
            course_id INTEGER REFERENCES course (course_id), id INTEGER REFERENCES instructor (id)
        );
        """
    )
    connection.close()
    schema = introspect_sqlite(path, "school")
    spring = [{"column": "teaches.semester", "op": "=", "value": "Spring"}]
    count = {"type": "count", "tables": ["teaches"], "joins": [], "project": ["teaches.semester"], "filters": spring}
    # "How many teaches are there" asks nothing; its rows are pairs of the two things it links.
    assert draft_question(count, schema) == ("How many instructor and course pairs are there whose semester is Spring?")
    # Named for both sides, the table's own name reads.
    linked = {**count, "tables": ["course_instructor"], "project": ["course_instructor.id"], "filters": []}
    assert draft_question(linked, schema) == "How many course instructors are there?"


def test_a_pairs_table_names_no_owner_and_a_text_column_is_no_number_of(tmp_path):
    import sqlite3

    path = tmp_path / "faculty.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        """
        CREATE TABLE faculty (fac_id INTEGER PRIMARY KEY, lname TEXT);
        CREATE TABLE department (dno INTEGER PRIMARY KEY, dname TEXT);
        CREATE TABLE member_of (
            fac_id INTEGER REFERENCES faculty (fac_id), dno INTEGER REFERENCES department (dno), appt_type TEXT
        );
        CREATE TABLE course (cid TEXT PRIMARY KEY, days TEXT, nights INTEGER);
        """
    )
    connection.close()
    schema = introspect_sqlite(path, "faculty")
    secondary = {
        "type": "list", "tables": ["faculty", "member_of"], "project": ["faculty.lname"],
        "joins": [["faculty", "fac_id", "member_of", "fac_id"]],
        "filters": [{"column": "member_of.appt_type", "op": "=", "value": "Secondary"}],
    }  # fmt: skip
    assert (
        draft_question(secondary, schema) == "What are the lnames of the faculties whose appointment type is Secondary?"
    )
    per_days = {"type": "group_count", "tables": ["course"], "joins": [], "project": [], "filters": [], "group": ""}
    # Days holds patterns (MTW): per value of it, not "for each number of days"; nights is a number.
    assert "number of days" not in draft_question({**per_days, "group": "course.days"}, schema)
    assert "number of nights" in draft_question({**per_days, "group": "course.nights"}, schema)


def test_a_thing_named_in_ing_is_counted_and_a_plural_column_takes_are(tmp_path):
    import sqlite3

    path = tmp_path / "offices.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        "CREATE TABLE office (office_id INTEGER PRIMARY KEY, building TEXT, clothing TEXT, other_details TEXT, "
        "opened INTEGER);"
    )
    connection.close()
    schema = introspect_sqlite(path, "offices")
    shown = {"type": "list", "tables": ["office"], "joins": [], "filters": [], "project": ["office.building"]}
    assert draft_question(shown, schema) == "What are the buildings of the offices?"
    # A mass noun in -ing stays as it is.
    assert draft_question({**shown, "project": ["office.clothing"]}, schema) == "What are the clothing of the offices?"
    latest = {**shown, "project": ["office.other_details"], "order": {"by": "office.opened", "desc": True, "limit": 1}}
    assert draft_question(latest, schema).startswith("What are the other details of the office with the highest")
    assert draft_question({**latest, "project": ["office.building"]}, schema).startswith("What is the building of")


def test_a_pair_is_said_in_the_singular_and_a_table_with_a_key_of_its_own_is_no_pairs(tmp_path):
    import sqlite3

    path = tmp_path / "events.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        """
        CREATE TABLE student (stu_id INTEGER PRIMARY KEY, lname TEXT);
        CREATE TABLE course (cid TEXT PRIMARY KEY, cname TEXT);
        CREATE TABLE enrolled_in (
            stu_id INTEGER REFERENCES student (stu_id), cid TEXT REFERENCES course (cid), grade TEXT
        );
        CREATE TABLE visit (
            visit_id INTEGER PRIMARY KEY, stu_id INTEGER REFERENCES student (stu_id), cid TEXT REFERENCES course (cid)
        );
        """
    )
    connection.close()
    schema = introspect_sqlite(path, "events")
    lowest = {
        "type": "list", "tables": ["enrolled_in"], "joins": [], "filters": [], "project": ["enrolled_in.grade"],
        "order": {"by": "enrolled_in.stu_id", "desc": False, "limit": 1},
    }  # fmt: skip
    assert "of the student and course pair with the lowest" in draft_question(lowest, schema)
    counted = {"type": "count", "tables": ["visit"], "joins": [], "filters": [], "project": ["visit.cid"]}
    assert draft_question(counted, schema) == "How many visits are there?"
    assert draft_question({**counted, "tables": ["enrolled_in"]}, schema) == (
        "How many student and course pairs are there?"
    )


def test_a_table_named_by_a_verb_gets_no_draft_and_a_code_tables_column_is_not_said_twice(tmp_path):
    import sqlite3

    path = tmp_path / "tracking.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        """
        CREATE TABLE employee (ssn INTEGER PRIMARY KEY, fname TEXT, salary INTEGER);
        CREATE TABLE works_on (essn INTEGER, pno INTEGER, hours REAL);
        CREATE TABLE status_codes (status_code TEXT PRIMARY KEY, status_description TEXT);
        CREATE TABLE problem (
            problem_id INTEGER PRIMARY KEY, status_code TEXT REFERENCES status_codes (status_code),
            reported_by INTEGER REFERENCES employee (ssn)
        );
        """
    )
    connection.close()
    schema = introspect_sqlite(path, "tracking")
    # No foreign key says what a works_on row links: "How many works on are there?" is no question.
    counted = {"type": "count", "tables": ["works_on"], "joins": [], "filters": [], "project": ["works_on.hours"]}
    assert draft_question(counted, schema) == ""
    # Said of another table's rows, its column names no owner: "whose hours", not "whose works on hours".
    joined = {
        "type": "list", "tables": ["employee", "works_on"], "project": ["employee.fname"],
        "joins": [["employee", "ssn", "works_on", "essn"]],
        "filters": [{"column": "works_on.hours", "op": ">", "value": 20}],
    }  # fmt: skip
    assert draft_question(joined, schema) == "What are the fnames of the employees whose hours is greater than 20?"
    per_status = {
        "type": "group_count", "tables": ["status_codes", "problem"], "project": [], "filters": [],
        "joins": [["status_codes", "status_code", "problem", "status_code"]],
        "group": "status_codes.status_description",
        "order": {"by": "count", "desc": True, "limit": 1},
    }  # fmt: skip
    # Not "Which status code status description has the most problems?".
    assert draft_question(per_status, schema) == "Which status description has the most problems?"
    # A column whose name shares no word with its table's keeps the table's name.
    richest = {
        "type": "list", "tables": ["problem", "employee"], "project": ["problem.status_code"], "filters": [],
        "joins": [["problem", "reported_by", "employee", "ssn"]],
        "order": {"by": "employee.salary", "desc": True, "limit": 1},
    }  # fmt: skip
    assert "with the highest employee salary" in draft_question(richest, schema)


def test_a_bare_verb_and_an_adverb_name_a_thing_with_a_hyphen(tmp_path):
    import sqlite3

    path = tmp_path / "operator.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        """
        CREATE TABLE contract (contract_no TEXT PRIMARY KEY, msisdn TEXT);
        CREATE TABLE bolt_on (bolt_cd TEXT PRIMARY KEY, bolt_nm TEXT, monthly_amt REAL);
        CREATE TABLE contract_bolt_on (
            contract_no TEXT REFERENCES contract (contract_no), bolt_cd TEXT REFERENCES bolt_on (bolt_cd),
            added_dt TEXT, PRIMARY KEY (contract_no, bolt_cd)
        );
        CREATE TABLE top_up (top_up_id INTEGER PRIMARY KEY, amt REAL);
        CREATE TABLE minor_in (stu_id INTEGER, dno INTEGER);
        CREATE TABLE works_on (essn INTEGER, pno INTEGER, hours REAL);
        """
    )
    connection.close()
    schema = introspect_sqlite(path, "operator")

    def count(table):
        return draft_question({"type": "count", "tables": [table], "joins": [], "filters": [], "project": []}, schema)

    # A bolt-on is a thing ("How many bolt on are there?" was no question, so no draft was offered).
    assert count("bolt_on") == "How many bolt-ons are there?"
    assert count("top_up") == "How many top-ups are there?"
    assert count("contract_bolt_on") == "How many contract bolt-ons are there?"
    shown = {"type": "list", "tables": ["bolt_on"], "joins": [], "filters": [], "project": ["bolt_on.monthly_amt"]}
    assert draft_question(shown, schema) == "What are the monthly amounts of the bolt-ons?"
    # An inflected verb ("works on") or "in" ("minor in") is a verb's name: still no draft.
    assert count("works_on") == "" and count("minor_in") == ""


def test_a_column_that_names_its_tables_rows_and_a_persons_unique_last_name_are_said_of_the_rows(tmp_path):
    import sqlite3

    path = tmp_path / "offices.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        """
        CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, last_name TEXT, salary INTEGER);
        CREATE TABLE dept_location (dept_no INTEGER, dept_location TEXT, opened INTEGER);
        CREATE TABLE ticket (ticket_id INTEGER PRIMARY KEY, staff_id INTEGER REFERENCES staff (staff_id));
        """
    )
    connection.close()
    schema = introspect_sqlite(path, "offices")
    listed = {
        "type": "list", "tables": ["dept_location"], "joins": [], "project": ["dept_location.dept_location"],
        "filters": [{"column": "dept_location.dept_no", "op": "=", "value": 4}],
    }  # fmt: skip
    # Not "What are the department locations of the department locations whose ...".
    assert draft_question(listed, schema) == "What are the department locations whose department number is 4?"
    newest = {**listed, "filters": [], "order": {"by": "dept_location.opened", "desc": True, "limit": 1}}
    assert draft_question(newest, schema) == "Which department location has the highest opened?"
    per_person = {
        "type": "group_count", "tables": ["staff", "ticket"], "project": [], "filters": [],
        "joins": [["staff", "staff_id", "ticket", "staff_id"]], "group": "staff.last_name",
        "order": {"by": "count", "desc": True, "limit": 1},
    }  # fmt: skip
    # Not "Which staff last name has the most tickets?": a last name the rules let group names its person.
    assert draft_question(per_person, schema) == "Which staff has the most tickets?"


def test_a_count_per_value_of_a_link_tables_own_column_names_no_owner(tmp_path):
    import sqlite3

    path = tmp_path / "faculty.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        """
        CREATE TABLE faculty (fac_id INTEGER PRIMARY KEY, lname TEXT);
        CREATE TABLE department (dno INTEGER PRIMARY KEY, dname TEXT);
        CREATE TABLE member_of (
            fac_id INTEGER REFERENCES faculty (fac_id), dno INTEGER REFERENCES department (dno), appt_type TEXT
        );
        """
    )
    connection.close()
    schema = introspect_sqlite(path, "faculty")
    per_type = {
        "type": "group_count", "tables": ["member_of"], "joins": [], "project": [], "filters": [],
        "group": "member_of.appt_type",
    }  # fmt: skip
    # Not "for each member of appointment type": the rows counted are the table's own pairs.
    assert (
        draft_question(per_type, schema) == "How many faculty and department pairs are there for each appointment type?"
    )


def test_rows_counted_per_their_own_name_are_said_per_name(tmp_path):
    path = tmp_path / "contacts.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        "CREATE TABLE guardian (guardian_id INTEGER PRIMARY KEY, guardian_name TEXT, postcode TEXT);"
        "CREATE TABLE hotel (hotel_id INTEGER PRIMARY KEY, hotel_name TEXT);"
        "CREATE TABLE booking (booking_id INTEGER PRIMARY KEY, hotel_id INTEGER REFERENCES hotel (hotel_id));"
    )
    for number in range(1, 13):
        connection.execute("INSERT INTO guardian VALUES (?, ?, ?)", (number, f"Mr {'ABC'[number % 3]}", "BS1"))
    connection.commit()
    connection.close()
    schema = introspect_sqlite(path, "contacts")
    per_name = {"type": "group_count", "tables": ["guardian"], "joins": [], "project": [], "filters": [],
                "group": "guardian.guardian_name", "having": {"op": ">=", "value": 3}}  # fmt: skip
    assert draft_question(per_name, schema).startswith("For each guardian name with at least 3 guardians")
    # Things of a named row are still said per that row: "Which hotel has the most bookings?"
    bookings = {"type": "group_count", "tables": ["hotel", "booking"], "joins": [["hotel", "hotel_id", "booking",
                "hotel_id"]], "project": [], "filters": [], "group": "hotel.hotel_name",
                "order": {"by": "count", "desc": True, "limit": 1}}  # fmt: skip
    assert draft_question(bookings, schema) == "Which hotel has the most bookings?"


def test_a_yes_no_column_is_said_as_what_the_rows_are_as_the_drafts_say_it(tmp_path):
    """Issue 35, written after goals set 13 was read: 'How many vehicles are there whose hybrid is 0?'. The flags are
    read from the file's values as a room's draft response reads them (`dialogs.assist.schema_with_flags`)."""
    from dialogs.assist import schema_with_flags

    path = tmp_path / "fleet.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        "CREATE TABLE vehicle (reg TEXT PRIMARY KEY, odo_km INTEGER, hybrid INTEGER, leased INTEGER);"
        "INSERT INTO vehicle VALUES ('A1', 1000, 0, 1), ('B2', 5000, 1, 0), ('C3', 9000, 0, 0);"
    )
    connection.commit()
    connection.close()
    schema = introspect_sqlite(path, "fleet")
    count = {
        "type": "count", "tables": ["vehicle"], "joins": [], "project": [],
        "filters": [{"column": "vehicle.hybrid", "op": "=", "value": 0}],
    }  # fmt: skip
    sql = tree_sql(count)
    flagged = schema_with_flags(schema, sql, str(path))
    assert draft_question(count, flagged) == "How many vehicles are there that are not marked as hybrid?"
    # A participle is a state by its form alone, file or not; other conditions follow after "whose".
    leased = {
        **count,
        "filters": [
            {"column": "vehicle.leased", "op": "=", "value": 1},
            {"column": "vehicle.odo_km", "op": ">", "value": 10},
        ],
    }
    question = draft_question(leased, schema)
    assert question == "How many vehicles are there that are leased and whose odometer in km is greater than 10?"
    listed = {
        "type": "list", "tables": ["vehicle"], "joins": [], "project": ["vehicle.reg"],
        "filters": [{"column": "vehicle.odo_km", "op": ">", "value": 10}],
        "set": {"op": "except", "filters": [{"column": "vehicle.hybrid", "op": "=", "value": 1}]},
    }  # fmt: skip
    assert draft_question(listed, flagged).endswith(", but not those that are marked as hybrid?")
