"""The rules a sampled goal passes before it is kept (annotation.goals.rules): each on small databases of two
domains built here (a clinic with a link table, a shop whose codes and scales are told only by their data), and the
sampler's goals checked against them from outside, with SQL of their own."""

import random
import sqlite3
from collections import Counter

import pytest

from annotation.goals.operation_tree import set_side, tree_sql
from annotation.goals.rules import (
    GoalRules,
    count_per_group_shape,
    is_person_name_part,
    name_kind,
    round_numbers,
)
from annotation.goals.sampler import GoalSampler, refusals_report
from annotation.sql.hardness import HARDNESS_LEVELS
from annotation.sql.sandbox import execute
from annotation.sql.schema import introspect_sqlite

CLINIC = """
CREATE TABLE patient (patient_id INTEGER PRIMARY KEY, name TEXT, gender TEXT, birth_year INTEGER, zip_code INTEGER);
CREATE TABLE doctor (doctor_id INTEGER PRIMARY KEY, name TEXT, floor INTEGER, room_no INTEGER, speciality TEXT);
CREATE TABLE appointment (
    appt_id INTEGER PRIMARY KEY, patient_id INTEGER REFERENCES patient (patient_id),
    doctor_id INTEGER REFERENCES doctor (doctor_id), fee REAL, year INTEGER
);
CREATE TABLE treatment (treatment_id INTEGER PRIMARY KEY, label TEXT, code TEXT);
CREATE TABLE appointment_treatment (
    appt_id INTEGER REFERENCES appointment (appt_id), treatment_id INTEGER REFERENCES treatment (treatment_id),
    PRIMARY KEY (appt_id, treatment_id)
);
CREATE TABLE referral (referral_id INTEGER PRIMARY KEY, patient_id INTEGER REFERENCES patient (patient_id), note TEXT);
"""
SHOP = """
CREATE TABLE product (
    product_id INTEGER PRIMARY KEY, title TEXT, badge INTEGER, price REAL, level INTEGER, stock INTEGER
);
CREATE TABLE orders (
    order_id INTEGER PRIMARY KEY, product_id INTEGER REFERENCES product (product_id), ref INTEGER, qty INTEGER,
    channel TEXT
);
"""
TREATMENTS = ["X-ray", "Blood test", "Ultrasound", "Vaccination", "Physiotherapy", "ECG", "Dressing", "Suture"]


def _clinic(path):
    rng = random.Random(4)
    connection = sqlite3.connect(path)
    connection.executescript(CLINIC)
    for patient in range(1, 121):
        connection.execute(
            "INSERT INTO patient VALUES (?, ?, ?, ?, ?)",
            (
                patient,
                f"Patient {patient:03d}",
                rng.choice("MF"),
                rng.randint(1940, 2010),
                rng.choice([1010, 1020, 1100]),
            ),
        )
    for doctor in range(1, 13):
        speciality = rng.choice(["Cardiology", "Surgery", "Radiology"])
        connection.execute(
            "INSERT INTO doctor VALUES (?, ?, ?, ?, ?)",
            (doctor, f"Dr {doctor}", rng.randint(1, 5), 100 + doctor, speciality),
        )
    for appointment in range(1, 145):
        connection.execute(
            "INSERT INTO appointment VALUES (?, ?, ?, ?, ?)",
            (
                appointment,
                rng.randint(1, 120),
                rng.randint(1, 12),
                round(rng.uniform(30, 300), 2),
                rng.randint(2019, 2024),
            ),
        )
        for treatment in rng.sample(range(1, len(TREATMENTS) + 1), rng.randint(3, 8)):
            connection.execute("INSERT INTO appointment_treatment VALUES (?, ?)", (appointment, treatment))
    for treatment, label in enumerate(TREATMENTS, start=1):
        connection.execute("INSERT INTO treatment VALUES (?, ?, ?)", (treatment, label, f"T{treatment:02d}"))
    for referral in range(1, 41):
        connection.execute("INSERT INTO referral VALUES (?, ?, ?)", (referral, rng.randint(1, 120), "see notes"))
    connection.commit()
    connection.close()


def _shop(path):
    rng = random.Random(5)
    connection = sqlite3.connect(path)
    connection.executescript(SHOP)
    badges = rng.sample(range(100000, 999999), 40)
    for product in range(1, 41):
        connection.execute(
            "INSERT INTO product VALUES (?, ?, ?, ?, ?, ?)",
            (
                product,
                f"Item {product}",
                badges[product - 1],
                round(rng.uniform(2, 90), 2),
                rng.randint(1, 4),
                rng.randint(0, 500),
            ),
        )
    for order in range(1, 301):
        connection.execute(
            "INSERT INTO orders VALUES (?, ?, ?, ?, ?)",
            (order, rng.randint(1, 40), 5000 + order, rng.randint(1, 5), rng.choice(["web", "shop", "phone"])),
        )
    connection.commit()
    connection.close()


@pytest.fixture(scope="module")
def clinic(tmp_path_factory):
    path = tmp_path_factory.mktemp("clinic") / "clinic.sqlite"
    _clinic(path)
    return introspect_sqlite(path, "clinic"), path


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    path = tmp_path_factory.mktemp("shop") / "shop.sqlite"
    _shop(path)
    return introspect_sqlite(path, "shop"), path


def rules_for(database):
    schema, path = database
    return GoalRules(schema, path)


def tree(tables, kind="list", project=(), joins=(), filters=(), **more):
    return {
        "type": kind,
        "tables": list(tables),
        "joins": [list(step) for step in joins],
        "project": list(project),
        "filters": list(filters),
        **more,
    }


PATIENT_APPOINTMENT = ("patient", "patient_id", "appointment", "patient_id")
APPOINTMENT_LINK = ("appointment", "appt_id", "appointment_treatment", "appt_id")
LINK_TREATMENT = ("appointment_treatment", "treatment_id", "treatment", "treatment_id")


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("room_no", "identifier"),
        ("Dno", "identifier"),
        ("Pnumber", "identifier"),
        ("Dnum", "identifier"),
        ("casino", None),
        ("Hours", None),
        ("phone_number", "identifier"),
        ("GuestID", "identifier"),
        ("number", "identifier"),
        ("number_of_rooms", None),
        ("num_employees", None),
        ("Num_of_Staff", None),
        ("since_yr", "ordinal"),
        ("flr", "ordinal"),
        ("birth_year", "ordinal"),
        ("years_of_service", None),
        ("floors", None),
        ("zip_code", "code"),
        ("price", None),
        ("nights", None),
    ],
)
def test_a_name_says_an_identifier_a_code_or_an_ordinal_and_a_plural_or_a_leading_number_says_an_amount(name, kind):
    assert name_kind(name) == kind


def test_identifiers_codes_and_ordinals_are_told_by_their_names_and_by_their_data(clinic, shop):
    rules = rules_for(clinic)
    assert rules.identifier_kind("patient.patient_id") == "key"
    assert rules.identifier_kind("patient.zip_code") == "code"
    assert rules.identifier_kind("doctor.floor") == "ordinal"
    assert rules.identifier_kind("doctor.room_no") == "identifier"
    assert rules.identifier_kind("appointment.year") == "ordinal"
    assert rules.identifier_kind("appointment.fee") is None
    shop_rules = rules_for(shop)
    # Names that say nothing: the data does. Unique and packed numbers the rows; unique and all six digits wide names
    # one thing; four consecutive small values and no amount in the name is a scale.
    assert shop_rules.identifier_kind("orders.ref") == "code"
    assert shop_rules.identifier_kind("product.badge") == "code"
    assert shop_rules.identifier_kind("product.level") == "ordinal"
    # An amount, even as small whole numbers when the name says so (qty); a spread of whole numbers (stock).
    assert shop_rules.identifier_kind("orders.qty") is None
    assert shop_rules.identifier_kind("product.stock") is None
    assert shop_rules.identifier_kind("product.price") is None


def test_totals_and_averages_of_identifiers_codes_and_ordinals_are_refused_and_of_amounts_kept(clinic, shop):
    rules, shop_rules = rules_for(clinic), rules_for(shop)
    for database_rules, table, kind, column in [
        (rules, "doctor", "sum", "doctor.floor"),
        (rules, "patient", "avg", "patient.birth_year"),
        (rules, "patient", "avg", "patient.zip_code"),
        (rules, "appointment", "sum", "appointment.appt_id"),
        (shop_rules, "product", "sum", "product.level"),
        (shop_rules, "orders", "avg", "orders.ref"),
        (shop_rules, "product", "avg", "product.badge"),
    ]:
        refusal = database_rules.before_run(tree([table], kind, [column]))
        assert refusal is not None and refusal.rule == "aggregate_of_identifier", (kind, column)
    nested = tree(
        ["patient"], project=["patient.name"], nested={"column": "patient.patient_id", "op": ">", "aggregate": "avg"}
    )
    assert rules.before_run(nested).rule == "aggregate_of_identifier"
    assert rules.before_run(tree(["appointment"], "avg", ["appointment.fee"])) is None
    assert shop_rules.before_run(tree(["orders"], "sum", ["orders.qty"])) is None


def test_a_set_operation_must_give_something_else_than_each_of_its_sides(clinic):
    rules = rules_for(clinic)
    _, path = clinic

    def judged(op, first, second):
        candidate = tree(["patient"], project=["patient.name"], filters=[first], set={"op": op, "filters": [second]})
        result = execute(path, tree_sql(candidate))
        return rules.after_run(candidate, result.rows)[1]

    born_2000 = {"column": "patient.birth_year", "op": "=", "value": 2000}
    born_after_1990 = {"column": "patient.birth_year", "op": ">", "value": 1990}
    women = {"column": "patient.gender", "op": "=", "value": "F"}
    # "born in 2000 and born after 1990" is "born in 2000": the second side adds nothing.
    assert judged("intersect", born_2000, born_after_1990).rule == "set_same_as_side"
    assert judged("union", born_2000, born_after_1990).rule == "set_same_as_side"
    assert judged("except", born_2000, {"column": "patient.birth_year", "op": "<", "value": 1960}).rule == (
        "set_same_as_side"
    )
    assert judged("intersect", born_after_1990, women) is None
    assert judged("except", born_after_1990, women) is None


def test_a_count_per_group_of_one_row_each_is_refused_whatever_the_schema_declares(clinic):
    rules = rules_for(clinic)
    _, path = clinic
    # patient.name is declared neither key nor unique; its data is unique: every count would be 1.
    by_name = tree(["patient"], "group_count", group="patient.name")
    assert rules.after_run(by_name, execute(path, tree_sql(by_name)).rows)[1].rule == "group_of_one"
    # A fee is nearly one value per appointment and names nothing: refused before it runs.
    assert rules.before_run(tree(["appointment"], "group_count", group="appointment.fee")).rule == "group_of_one"
    by_gender = tree(["patient"], "group_count", group="patient.gender")
    assert rules.after_run(by_gender, execute(path, tree_sql(by_gender)).rows)[1] is None
    # Grouping by a unique name over a join counts what each has: "which patient has the most appointments".
    most = tree(
        ["patient", "appointment"], "group_count", joins=[PATIENT_APPOINTMENT], group="patient.name",
        order={"by": "count", "desc": True, "limit": 1},
    )  # fmt: skip
    assert rules.before_run(most) is None
    refusal = rules.after_run(most, execute(path, tree_sql(most)).rows)[1]
    assert refusal is None or refusal.rule == "superlative_tie"  # a tie for first place is another rule's


def test_a_list_of_mostly_repeated_values_is_refused_unless_the_values_tell_its_rows_apart(clinic):
    rules = rules_for(clinic)
    _, path = clinic
    genders = tree(["patient"], project=["patient.gender"])
    rows = execute(path, tree_sql(genders)).rows
    assert len(rows) == 120 and rules.after_run(genders, rows)[1].rule == "duplicate_rows"
    names = tree(["patient"], project=["patient.name"], filters=[{"column": "patient.gender", "op": "=", "value": "F"}])
    assert rules.after_run(names, execute(path, tree_sql(names)).rows)[1] is None


def test_a_count_through_a_link_table_counts_each_appointment_once(clinic):
    rules = rules_for(clinic)
    _, path = clinic
    counted = tree(
        ["appointment", "appointment_treatment", "treatment"], "count", project=["appointment.fee"],
        joins=[APPOINTMENT_LINK, LINK_TREATMENT],
        filters=[{"column": "treatment.label", "op": "!=", "value": "X-ray"}],
    )  # fmt: skip
    joined = execute(path, tree_sql(counted)).rows[0][0]
    assert joined > 144  # every appointment once per treatment: the fan-out the rule is for
    rewritten, refusal = rules.after_run(counted, [[joined]])
    assert refusal is None and rewritten["distinct"] == "appointment.appt_id"
    assert "count(DISTINCT T1.appt_id)" in tree_sql(rewritten)
    assert execute(path, tree_sql(rewritten)).rows == [[144]] == execute(path, "SELECT count(*) FROM appointment").rows
    # A count per doctor of the treatments given (the link table's rows, the far end of the path): kept as it is.
    per_doctor = tree(
        ["doctor", "appointment", "appointment_treatment"], "group_count", group="doctor.name",
        joins=[("doctor", "doctor_id", "appointment", "doctor_id"), APPOINTMENT_LINK],
    )  # fmt: skip
    assert rules.after_run(per_doctor, execute(path, tree_sql(per_doctor)).rows)[1] is None
    # Up to the patient and down again to the referrals: pairs of unrelated rows, counted for nothing.
    pairs = tree(
        ["appointment", "patient", "referral"], "group_count", group="appointment.year",
        joins=[("appointment", "patient_id", "patient", "patient_id"), ("patient", "patient_id", "referral",
               "patient_id")],
    )  # fmt: skip
    assert rules.before_run(pairs).rule == "count_fan_out"


def test_a_join_along_a_column_unique_on_neither_side_is_refused(clinic):
    rules = rules_for(clinic)
    on_a_key = tree(
        ["patient", "appointment"], project=["patient.name", "appointment.fee"], joins=[PATIENT_APPOINTMENT]
    )
    assert rules.before_run(on_a_key) is None
    # One column of a key of two, as a release's tables.json lists it: a patient with every doctor of that gender.
    pairs = tree(
        ["patient", "doctor"],
        project=["patient.name", "doctor.name"],
        joins=[("patient", "gender", "doctor", "speciality")],
    )
    assert rules.before_run(pairs).rule == "join_not_on_a_key"


@pytest.mark.parametrize("database", ["clinic", "shop"])
def test_no_goal_the_sampler_keeps_breaks_a_rule_when_checked_from_outside(request, database):
    schema, path = request.getfixturevalue(database)
    sampler = GoalSampler(schema, path, random.Random(35))
    goals = sampler.sample(30)
    assert len(goals) >= 20
    not_amounts = {"patient.zip_code", "patient.birth_year", "doctor.floor", "doctor.room_no", "appointment.year"}
    not_amounts |= {"product.level", "product.badge", "orders.ref"}
    for goal in goals:
        sql, found = goal.sql, goal.tree
        rows = execute(path, sql).rows
        if "set" in found:
            for side in (1, 2):
                assert {tuple(r) for r in execute(path, tree_sql(set_side(found, side))).rows} != {
                    tuple(r) for r in rows
                }
        if found["type"] == "group_count" and not found.get("order"):
            assert max(row[-1] for row in rows) > 1, sql
        if found["type"] in ("sum", "avg"):
            assert found["project"][0] not in not_amounts, sql
            assert not found["project"][0].endswith("_id"), sql
        if found["type"] == "list" and not found.get("order") and len(rows) >= 2:
            assert len({tuple(row) for row in rows}) * 2 > len(rows), sql
        if found["type"] == "count" and found["joins"]:
            anchor = found["tables"][0]
            key = {"patient": "patient_id", "doctor": "doctor_id", "appointment": "appt_id"}.get(anchor)
            if key:
                distinct = sql.replace("count(*)", f"count(DISTINCT T1.{key})")
                assert rows == execute(path, distinct).rows, sql
    refused = refusals_report(sampler.refused, sampler.rules.rewritten)
    assert refused and all(row["reason"] and row["refused"] + row["rewritten"] for row in refused)
    assert Counter(goal.sql for goal in goals).most_common(1)[0][1] == 1


SCHOOL = """
CREATE TABLE slot (
    slot_id TEXT PRIMARY KEY, day TEXT, start_hr INTEGER, start_min INTEGER, end_hr INTEGER, end_min INTEGER,
    duration_min INTEGER
);
CREATE TABLE lesson (
    lesson_id INTEGER PRIMARY KEY, teacher TEXT, slot_id TEXT REFERENCES slot (slot_id), held_on TEXT,
    minutes_long INTEGER
);
CREATE TABLE mark (mark_id INTEGER PRIMARY KEY, grade TEXT, lesson_id INTEGER REFERENCES lesson (lesson_id));
"""


def _school(path):
    rng = random.Random(6)
    connection = sqlite3.connect(path)
    connection.executescript(SCHOOL)
    for number in range(20):
        start_hr, start_min = 8 + number % 9, rng.choice([0, 30])
        length = rng.choice([50, 75, 90])
        end = start_hr * 60 + start_min + length
        connection.execute(
            "INSERT INTO slot VALUES (?, ?, ?, ?, ?, ?, ?)",
            (chr(65 + number), "MTWRF"[number % 5], start_hr, start_min, end // 60, end % 60, length),
        )
    for lesson in range(1, 61):
        connection.execute(
            "INSERT INTO lesson VALUES (?, ?, ?, ?, ?)",
            (
                lesson,
                f"Teacher {rng.randint(1, 15)}",
                chr(65 + rng.randrange(20)),
                f"2026-03-{rng.randint(1, 30):02d}",
                30 + 5 * rng.randrange(20),
            ),
        )
    for mark in range(1, 1001):
        connection.execute("INSERT INTO mark VALUES (?, ?, ?)", (mark, rng.choice("ABCD"), rng.randint(1, 60)))
    connection.commit()
    connection.close()


@pytest.fixture(scope="module")
def school(tmp_path_factory):
    path = tmp_path_factory.mktemp("school") / "school.sqlite"
    _school(path)
    return introspect_sqlite(path, "school"), path


def test_minutes_beside_hours_are_part_of_a_time_not_an_amount(school):
    rules = rules_for(school)
    # end_min beside end_hr is the minute of the hour: no average, no group; duration_min has no hours beside it.
    assert rules.identifier_kind("slot.end_min") == "ordinal"
    assert rules.identifier_kind("slot.duration_min") is None
    nested = tree(["slot"], project=["slot.day"], nested={"column": "slot.end_min", "op": "<", "aggregate": "avg"})
    assert rules.before_run(nested).rule == "aggregate_of_identifier"
    assert rules.before_run(tree(["slot"], "group_count", group="slot.end_min")).rule == "group_by_identifier"
    assert rules.before_run(tree(["slot"], "avg", ["slot.duration_min"])) is None


def test_counts_per_id_number_per_own_key_and_per_number_or_date_of_many_values_are_refused(clinic, school):
    rules, school_rules = rules_for(clinic), rules_for(school)
    for database_rules, table, column, rule in [
        (rules, "appointment_treatment", "appointment_treatment.treatment_id", "group_by_identifier"),
        (rules, "appointment", "appointment.patient_id", "group_by_identifier"),
        (school_rules, "slot", "slot.slot_id", "group_by_identifier"),  # its own key, letters A-T
        (school_rules, "lesson", "lesson.minutes_long", "group_by_many_values"),  # 20 lengths over 60 lessons
        (school_rules, "lesson", "lesson.held_on", "group_by_date"),  # dates
    ]:
        refusal = database_rules.before_run(tree([table], "group_count", group=column))
        assert refusal is not None and refusal.rule == rule, column
        assert not database_rules.groups_well(column)
    # A kind (a gender), a code of few values, a teacher's name: kept.
    for database_rules, table, column in [
        (rules, "patient", "patient.gender"),
        (rules, "doctor", "doctor.speciality"),
        (school_rules, "lesson", "lesson.teacher"),
    ]:
        assert database_rules.before_run(tree([table], "group_count", group=column)) is None, column


def test_a_count_per_kind_of_a_link_tables_rows_is_refused_and_per_named_thing_kept(clinic):
    rules = rules_for(clinic)
    through = [PATIENT_APPOINTMENT, APPOINTMENT_LINK]
    tables = ["patient", "appointment", "appointment_treatment"]
    per_gender = tree(tables, "group_count", joins=through, group="patient.gender")
    assert rules.before_run(per_gender).rule == "count_of_links"
    assert rules.links_rows("appointment_treatment") and not rules.links_rows("appointment")
    # Per patient (a unique name): what each patient had done, kept.
    assert rules.before_run(tree(tables, "group_count", joins=through, group="patient.name")) is None


def test_ids_are_shown_only_where_nothing_names_the_rows_and_never_compared(clinic):
    rules = rules_for(clinic)
    women = {"column": "patient.gender", "op": "=", "value": "F"}
    dear = {"column": "appointment.fee", "op": ">", "value": 100}
    assert rules.before_run(tree(["patient"], project=["patient.zip_code"], filters=[women])).rule == (
        "shows_identifier"
    )
    # A look-up by a unique name may ask for the code.
    named = {"column": "patient.name", "op": "=", "value": "Patient 007"}
    assert rules.before_run(tree(["patient"], project=["patient.zip_code"], filters=[named])) is None
    # The id of the patient an appointment holds: no; the appointment's own number (nothing names it): yes.
    assert rules.before_run(tree(["appointment"], project=["appointment.patient_id"], filters=[dear])).rule == (
        "shows_identifier"
    )
    assert rules.before_run(tree(["appointment"], project=["appointment.appt_id"], filters=[dear])) is None
    treatment_3 = {"column": "appointment_treatment.treatment_id", "op": "=", "value": 3}
    by_id = tree(["appointment_treatment"], "count", ["appointment_treatment.appt_id"], filters=[treatment_3])
    assert rules.before_run(by_id).rule == "filter_on_identifier"


def test_lists_and_set_operations_that_ask_nothing_are_refused(clinic):
    rules = rules_for(clinic)
    named = {"column": "patient.name", "op": "=", "value": "Patient 007"}
    young = {"column": "patient.birth_year", "op": ">", "value": 1990}
    lookups = tree(["patient"], project=["patient.gender"], filters=[young], set={"op": "except", "filters": [named]})
    assert rules.before_run(lookups).rule == "set_of_lookups"
    assert rules.before_run(tree(["appointment"], project=["appointment.fee"])).rule == "list_of_values"
    assert rules.before_run(tree(["doctor"], project=["doctor.speciality"])) is None  # words: another rule's
    above = tree(
        ["appointment"],
        project=["appointment.fee"],
        nested={"column": "appointment.fee", "op": ">", "aggregate": "avg"},
    )
    assert rules.before_run(above).rule == "answers_itself"


def test_thresholds_are_said_as_round_numbers(school):
    assert round_numbers(3359)[:2] == [3500, 3400]
    assert round_numbers(188.62)[0] == 200 and round_numbers(24)[0] == 25 and round_numbers(7) == [7]
    rules = rules_for(school)
    _, path = school
    # Every grade has 230-270 marks: a HAVING of at least 2 keeps them all, and is moved to a round size between.
    grades = tree(["mark"], "group_count", group="mark.grade", having={"op": ">=", "value": 2})
    rewritten, refusal = rules.after_run(grades, execute(path, tree_sql(grades)).rows)
    sizes = [row[1] for row in execute(path, tree_sql({**grades, "having": {"op": ">=", "value": 1}})).rows]
    assert refusal is None and rewritten["having"]["value"] % 10 == 0
    assert 0 < sum(size >= rewritten["having"]["value"] for size in sizes) < len(sizes)


def test_a_column_joined_to_a_fixed_one_is_fixed_and_an_id_named_so_is_an_id_declared_or_not(clinic, school):
    rules = rules_for(clinic)
    # "The patient id of the appointments whose patient's id is 7" shows what the join and the filter fix.
    joined = tree(
        ["patient", "appointment"], project=["appointment.patient_id"], joins=[PATIENT_APPOINTMENT],
        filters=[{"column": "patient.patient_id", "op": "=", "value": 7}],
    )  # fmt: skip
    assert rules.before_run(joined).rule == "answers_itself"
    # lesson_id of mark is declared; an undeclared column named an id is one too, a room number is not.
    school_rules = rules_for(school)
    assert school_rules.id_number("mark.lesson_id") and school_rules.id_number("lesson.lesson_id")
    assert not rules_for(clinic).id_number("doctor.room_no")


CAMPUS = """
CREATE TABLE faculty (fac_id INTEGER PRIMARY KEY, lname TEXT, sex TEXT, room TEXT, country TEXT);
CREATE TABLE dept (dno INTEGER PRIMARY KEY, dname TEXT, division TEXT);
CREATE TABLE member_of (
    fac_id INTEGER REFERENCES faculty (fac_id), dno INTEGER REFERENCES dept (dno), PRIMARY KEY (fac_id, dno)
);
CREATE TABLE student (
    stu_id INTEGER PRIMARY KEY, lname TEXT, age INTEGER, advisor INTEGER, kind TEXT, joined TEXT, level INTEGER,
    grade TEXT, major INTEGER, size INTEGER
);
CREATE TABLE unit (unit_no INTEGER PRIMARY KEY, title TEXT);
"""


def _campus(path):
    rng = random.Random(6)
    connection = sqlite3.connect(path)
    connection.executescript(CAMPUS)
    for number in range(30):
        connection.execute(
            "INSERT INTO faculty VALUES (?, ?, ?, ?, ?)",
            (1100 + 37 * number, f"Prof{number:02d}", rng.choice("MF"), str(rng.randint(100, 130)), "USA"),
        )
    for dno in range(1, 9):
        connection.execute("INSERT INTO dept VALUES (?, ?, ?)", (dno, f"Dept {dno}", rng.choice(["AS", "EN"])))
    for number in range(30):
        for dno in rng.sample(range(1, 9), rng.randint(1, 3)):
            connection.execute("INSERT INTO member_of VALUES (?, ?)", (1100 + 37 * number, dno))
    for stu in range(1, 61):
        connection.execute(
            "INSERT INTO student VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                stu,
                f"Student{stu:02d}",
                rng.randint(17, 25),
                1100 + 37 * rng.randint(0, 29),
                rng.choice(["full", "part"]),
                f"2020-0{rng.randint(1, 3)}-1{rng.randint(0, 9)} 12:00:00",
                rng.randint(1, 4),
                "ABCDF"[stu % 5],
                [10, 20, 50, 520, 600][stu % 5],
                [10, 20, 30, 40, 45][stu % 5],
            ),
        )
    for unit in (10, 20, 30, 40, 50, 100, 520, 550, 600):
        connection.execute("INSERT INTO unit VALUES (?, ?)", (unit, f"Unit {unit}"))
    connection.commit()
    connection.close()


@pytest.fixture(scope="module")
def campus(tmp_path_factory):
    path = tmp_path_factory.mktemp("campus") / "campus.sqlite"
    _campus(path)
    return introspect_sqlite(path, "campus"), path


def test_an_id_column_no_foreign_key_declares_is_told_by_its_values_and_joined_on(campus):
    rules = rules_for(campus)
    # Every advisor is a faculty id (1100 and above): an id, never averaged, ranked, grouped by or compared.
    assert rules.undeclared_key("student.advisor") == "faculty.fac_id"
    assert rules.identifier_kind("student.advisor") == "key"
    for kind in ("avg", "min", "max"):
        assert rules.before_run(tree(["student"], kind, ["student.advisor"])).rule == "aggregate_of_identifier"
    # Small numbers inside a packed key's range by chance (a level 1-4 within dept 1-8, ages) are no ids: their names
    # share no word with it. Inside a sparse key's values (a major among department numbers 10, 20, ...) they are.
    assert rules.undeclared_key("student.level") is None and rules.undeclared_key("student.age") is None
    assert rules.undeclared_key("student.major") == "unit.unit_no"
    assert rules.undeclared_key("student.size") is None  # 10-40 with a value no unit has
    assert rules.before_run(tree(["student"], "max", ["student.age"])) is None
    schema, path = campus
    sampler = GoalSampler(schema, path, random.Random(3))
    assert ("student", "advisor", "faculty", "fac_id") in sampler.links
    assert sampler.rules.points_to("student.advisor") == "faculty"


def test_conditions_that_keep_every_row_and_columns_of_one_value_are_refused(campus):
    rules = rules_for(campus)
    _, path = campus
    usa = {"column": "faculty.country", "op": "=", "value": "USA"}
    women = {"column": "faculty.sex", "op": "=", "value": "F"}
    kept_all = tree(["faculty"], project=["faculty.lname"], filters=[usa, women])
    refusal = rules.after_run(kept_all, execute(path, tree_sql(kept_all)).rows)[1]
    assert refusal is not None and refusal.rule == "condition_keeps_all"
    only_women = tree(["faculty"], project=["faculty.lname"], filters=[women])
    assert rules.after_run(only_women, execute(path, tree_sql(only_women)).rows)[1] is None
    # A union of the only two values a column has gives every row.
    full, part = ({"column": "student.kind", "op": "=", "value": value} for value in ("full", "part"))
    both = {**tree(["student"], project=["student.lname"], filters=[full]), "set": {"op": "union", "filters": [part]}}
    assert rules.after_run(both, execute(path, tree_sql(both)).rows)[1].rule == "condition_keeps_all"
    # Shown or grouped by, a column of one value answers before it is asked.
    assert rules.before_run(tree(["faculty"], project=["faculty.country"], filters=[women])).rule == "one_value"
    assert rules.before_run(tree(["faculty"], "group_count", group="faculty.country")).rule == "one_value"
    assert not rules.filled("faculty.country") and rules.filled("faculty.sex")


def test_counts_per_kind_through_a_link_table_per_date_and_of_a_nearly_unique_value_are_refused(campus, clinic):
    rules = rules_for(campus)
    through = [("faculty", "fac_id", "member_of", "fac_id"), ("member_of", "dno", "dept", "dno")]
    tables = ["faculty", "member_of", "dept"]
    # "Which faculty sex has the most departments": a kind counted through the link table, its far end included.
    per_sex = tree(tables, "group_count", joins=through, group="faculty.sex", distinct="dept.dno")
    assert rules.before_run(per_sex).rule == "count_of_links"
    assert rules.before_run(tree(tables, "group_count", joins=through, group="faculty.lname")) is None
    assert rules.before_run(tree(["student"], "group_count", group="student.joined")).rule == "group_by_date"
    clinic_rules = rules_for(clinic)
    # How many patients are named X: names are nearly unique (one in ten repeats at most): one, or two.
    named = {"column": "patient.name", "op": "=", "value": "Patient 007"}
    assert clinic_rules.before_run(tree(["patient"], "count", filters=[named])).rule == "answers_itself"
    women = {"column": "patient.gender", "op": "=", "value": "F"}
    assert clinic_rules.before_run(tree(["patient"], "count", filters=[women])) is None


def test_parts_of_numbers_seconds_of_time_stamps_and_unions_of_two_look_ups_are_refused(campus):
    rules = rules_for(campus)
    _, path = campus
    for item, rule in [
        ({"column": "faculty.room", "op": "like", "value": "%12%"}, "part_of_a_number"),  # a room held as text
        ({"column": "student.joined", "op": "like", "value": "%2020-01%"}, "part_of_a_number"),
        ({"column": "student.grade", "op": "like", "value": "%B%"}, "part_of_a_number"),  # part of one letter
        ({"column": "student.joined", "op": "=", "value": "2020-01-12 12:00:00"}, "exact_time"),
    ]:
        refusal = rules.before_run(tree(["student" if "student" in item["column"] else "faculty"],
                                        project=["student.lname" if "student" in item["column"] else "faculty.lname"],
                                        filters=[item]))  # fmt: skip
        assert refusal is not None and refusal.rule == rule, item
    words = {"column": "faculty.lname", "op": "like", "value": "%Prof%"}
    assert rules.before_run(tree(["faculty"], project=["faculty.sex"], filters=[words])) is None
    # A part holding a digit is part of a number, even of a name's ('Prof1'): see the ward's test.
    digits = {"column": "faculty.lname", "op": "like", "value": "%Prof1%"}
    assert rules.before_run(tree(["faculty"], project=["faculty.sex"], filters=[digits])).rule == "part_of_a_number"
    before = {"column": "student.joined", "op": "<", "value": "2020-02-01"}
    assert rules.before_run(tree(["student"], project=["student.lname"], filters=[before])) is None
    # Two rooms, one professor each: two look-ups joined by UNION.
    rooms = execute(path, "SELECT room FROM faculty GROUP BY room HAVING count(*) = 1 LIMIT 2").rows
    first, second = ({"column": "faculty.room", "op": "=", "value": row[0]} for row in rooms)
    lookups = {
        **tree(["faculty"], project=["faculty.lname"], filters=[first]),
        "set": {"op": "union", "filters": [second]},
    }
    assert rules.after_run(lookups, execute(path, tree_sql(lookups)).rows)[1].rule == "set_of_lookups"


def test_the_sampler_draws_no_condition_on_a_time_stamps_second_nor_a_part_of_a_number(campus):
    schema, path = campus
    sampler = GoalSampler(schema, path, random.Random(11))
    joined = [sampler._filter(["student"], only="student.joined") for _ in range(30)]
    # Before or after a day, never one second of it.
    assert {item["op"] for item in joined} <= {"<", ">"} and all(len(item["value"]) == 10 for item in joined)
    rooms = [sampler._filter(["faculty"], only="faculty.room") for _ in range(60)]
    names = [sampler._filter(["faculty"], only="faculty.lname") for _ in range(60)]
    grades = [sampler._filter(["student"], only="student.grade") for _ in range(60)]
    assert all(item["op"] != "like" for item in rooms + grades)  # a room number, a letter
    assert any(item["op"] == "like" for item in names)  # part of a word may be asked


REGISTRY = """
CREATE TABLE account (
    account_id INTEGER PRIMARY KEY, user_name TEXT, password TEXT, stamp TEXT, first_name TEXT, minit TEXT,
    gender TEXT, grade TEXT, logged_in INTEGER, city TEXT, post_code TEXT
);
CREATE TABLE ticket (
    ticket_id INTEGER PRIMARY KEY, account_id INTEGER REFERENCES account (account_id), details TEXT, opened TEXT,
    hours INTEGER
);
CREATE TABLE trait (trait_id INTEGER PRIMARY KEY, trait_name TEXT);
CREATE TABLE account_trait (
    account_id INTEGER REFERENCES account (account_id), trait_id INTEGER REFERENCES trait (trait_id),
    trait_value TEXT
);
"""
TRAITS = ["Verified", "Premium", "Muted", "Beta"]


def _registry(path):
    rng = random.Random(8)
    connection = sqlite3.connect(path)
    connection.executescript(REGISTRY)
    letters = "abcdefghijklmnopqrstuvwxyz"
    for number in range(1, 41):
        connection.execute(
            "INSERT INTO account VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                number,
                f"user{number:02d}",
                f"pw{rng.getrandbits(64):016x}",
                f"{rng.getrandbits(80):020x}",
                rng.choice(["Ann", "Bob", "Carl", "Dora", "Eve"]),
                letters[number % 26].upper(),
                rng.choice("MF"),
                rng.choice("ABCDF"),
                rng.randint(0, 1),
                rng.choice(["Lyon", "Porto", "Graz", "Turku"]),
                f"{rng.choice(['AB', 'CD', 'EF'])}{rng.randint(1, 99)} {rng.randint(1, 9)}XY",
            ),
        )
    for number in range(1, 121):
        connection.execute(
            "INSERT INTO ticket VALUES (?, ?, ?, ?, ?)",
            (number, rng.randint(1, 40), rng.choice(letters), f"2020-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}",
             rng.randint(1, 30)),
        )  # fmt: skip
    for trait, name in enumerate(TRAITS, start=1):
        connection.execute("INSERT INTO trait VALUES (?, ?)", (trait, name))
    for account in range(1, 41):
        for trait in rng.sample(range(1, len(TRAITS) + 1), 2):
            connection.execute(
                "INSERT INTO account_trait VALUES (?, ?, ?)", (account, trait, rng.choice(["on", "off", "auto"]))
            )
    connection.commit()
    connection.close()


@pytest.fixture(scope="module")
def registry(tmp_path_factory):
    path = tmp_path_factory.mktemp("registry") / "registry.sqlite"
    _registry(path)
    return introspect_sqlite(path, "registry"), path


def test_values_that_mean_nothing_are_never_conditions_lists_rankings_or_groups(registry):
    rules = rules_for(registry)
    assert rules.meaningless("account.password") == "a password or a token"  # by its name
    assert rules.meaningless("account.stamp") == "hashes"  # by its values
    assert rules.meaningless("ticket.details") == "single letters"  # 26 kinds of one letter in 120 rows
    assert rules.meaningless("account.minit") == "single letters"  # initials
    for kinds in ("account.gender", "account.grade", "account.city", "account.user_name"):
        assert rules.meaningless(kinds) is None, kinds  # M/F and grades A-F are kinds, names are words
    for column in ("account.password", "account.stamp", "account.minit"):
        item = {"column": column, "op": "=", "value": "x"}
        assert rules.before_run(tree(["account"], project=["account.city"], filters=[item])).rule == (
            "meaningless_values"
        )
        assert rules.before_run(tree(["account"], project=[column], filters=[])).rule == "meaningless_values"
        assert not rules.filled(column)
    per_letter = tree(["ticket"], "group_count", group="ticket.details")
    assert rules.before_run(per_letter).rule == "meaningless_values"
    letter = {"column": "ticket.details", "op": "=", "value": "k"}
    assert rules.before_run(tree(["ticket"], "count", filters=[letter])).rule == "meaningless_values"
    women = {"column": "account.gender", "op": "=", "value": "F"}
    assert rules.before_run(tree(["account"], project=["account.user_name"], filters=[women])) is None
    # Part of a code is no question either ('post code containing AB1'); part of a word is.
    for column, part, rule in (("account.post_code", "%AB1%", "part_of_a_number"), ("account.city", "%Por%", None)):
        found = rules.before_run(tree(["account"], project=["account.user_name"], filters=[
            {"column": column, "op": "like", "value": part}]))  # fmt: skip
        assert (found and found.rule) == rule, column
    # The sampler draws none of them.
    schema, path = registry
    goals = GoalSampler(schema, path, random.Random(35)).sample(25)
    assert len(goals) >= 10
    for goal in goals:
        assert not {"password", "stamp", "details", "minit"} & set(goal.sql.replace(".", " ").split()), goal.sql


@pytest.mark.parametrize(
    ("name", "part"),
    [("Fname", True), ("staff_first_name", True), ("Minit", True), ("surname", True), ("LastName", True)]
    + [("first_nm", True), ("last_nm", True)]  # shortened as real schemas shorten them
    + [("user_name", False), ("dept_name", False), ("first_day", False), ("name", False), ("farm_nm", False)],
)
def test_a_name_says_part_of_a_persons_name(name, part):
    assert is_person_name_part(name) is part


def test_counts_per_yes_no_flag_and_per_shared_first_name_are_refused(registry):
    rules = rules_for(registry)
    assert rules.is_flag("account.logged_in") and not rules.is_flag("account.gender")
    per_flag = tree(["account"], "group_count", group="account.logged_in", order={"by": "count", "desc": True})
    assert rules.before_run(per_flag).rule == "group_by_flag"
    assert rules.before_run(tree(["account"], "group_count", group="account.first_name")).rule == (
        "group_by_person_name"
    )
    assert rules.before_run(tree(["account"], "group_count", group="account.city")) is None
    assert rules.before_run(tree(["account"], "group_count", group="account.gender")) is None


def test_the_values_of_a_table_of_attributes_are_asked_of_a_named_attribute(registry):
    rules = rules_for(registry)
    assert rules.attribute_of("account_trait.trait_value") == "account_trait.trait_id"
    assert rules.attribute_of("account.user_name") is None and rules.attribute_of("ticket.details") is None
    join = [
        ("account", "account_id", "account_trait", "account_id"),
        ("account_trait", "trait_id", "trait", "trait_id"),
    ]
    tables = ["account", "account_trait", "trait"]
    one = {"column": "account_trait.trait_value", "op": "=", "value": "on"}
    # "The users having some trait set on": which trait?
    anyone = tree(tables[:2], project=["account.user_name"], joins=join[:1], filters=[one])
    assert rules.before_run(anyone).rule == "value_without_attribute"
    per_value = tree(["account_trait"], "group_count", group="account_trait.trait_value")
    assert rules.before_run(per_value).rule == "value_without_attribute"
    # Of a named trait it is a question: "the users whose Premium trait is on".
    premium = {"column": "trait.trait_name", "op": "=", "value": "Premium"}
    named = tree(tables, project=["account.user_name"], joins=join, filters=[one, premium])
    assert rules.before_run(named) is None


WARD = """
CREATE TABLE nurse (
    nurse_id INTEGER PRIMARY KEY, nurse_name TEXT, phone TEXT, registered INTEGER, on_leave TEXT, team TEXT
);
CREATE TABLE device (device_id INTEGER PRIMARY KEY, model TEXT, max_load TEXT, nurse_id INTEGER REFERENCES nurse);
CREATE TABLE device_check (check_id INTEGER PRIMARY KEY, device_id INTEGER REFERENCES device, minutes INTEGER);
"""


@pytest.fixture(scope="module")
def ward(tmp_path_factory):
    path = tmp_path_factory.mktemp("ward") / "ward.sqlite"
    rng = random.Random(12)
    connection = sqlite3.connect(path)
    connection.executescript(WARD)
    for number in range(1, 31):
        connection.execute(
            "INSERT INTO nurse VALUES (?, ?, ?, ?, ?, ?)",
            (number, f"Nurse {number:02d}", f"+44 20 7946 {number:04d}", rng.randint(0, 1), rng.choice("YN"),
             rng.choice(["Night shift", "Day shift", "Theatre"])),
        )  # fmt: skip
    for number in range(1, 21):
        connection.execute(
            "INSERT INTO device VALUES (?, ?, ?, ?)",
            (number, rng.choice(["Infusion pump Alaris", "Monitor Philips", "Hoist Arjo"]),
             f"{rng.choice([2.6, 14.5, 7.25])} kg/h", rng.randint(1, 30)),
        )  # fmt: skip
    for number in range(1, 61):
        checked = (number, rng.randint(1, 20), rng.randint(5, 40))
        connection.execute("INSERT INTO device_check VALUES (?, ?, ?)", checked)
    connection.commit()
    connection.close()
    return introspect_sqlite(path, "ward"), path


def test_a_flag_of_0_or_1_is_never_shown_and_a_phone_never_a_condition(ward):
    rules = rules_for(ward)
    # "The registered flag of the nurse with ...": 1. A flag of Y and N reads by itself.
    assert rules.numeric_flag("nurse.registered") and not rules.numeric_flag("nurse.on_leave")
    assert not rules.shows_well("nurse.registered") and rules.shows_well("nurse.on_leave")
    team = {"column": "nurse.team", "op": "=", "value": "Theatre"}
    assert rules.before_run(tree(["nurse"], project=["nurse.registered"], filters=[team])).rule == "shows_flag"
    looked_up = {"column": "nurse.nurse_name", "op": "=", "value": "Nurse 03"}
    assert rules.before_run(tree(["nurse"], project=["nurse.registered"], filters=[looked_up])).rule == "shows_flag"
    assert rules.before_run(tree(["nurse"], project=["nurse.on_leave"], filters=[team])) is None
    # As a condition the flag names itself ("the nurses whose registered is 1"): kept.
    flagged = {"column": "nurse.registered", "op": "=", "value": 1}
    assert rules.before_run(tree(["nurse"], project=["nurse.nurse_name"], filters=[flagged])) is None
    # A phone is a number nobody asking knows.
    phone = {"column": "nurse.phone", "op": "=", "value": "+44 20 7946 0003"}
    assert rules.before_run(tree(["nurse"], project=["nurse.team"], filters=[phone])).rule == "filter_on_identifier"
    assert not rules.conditions_well("nurse.phone") and rules.conditions_well("nurse.team")


def test_part_of_a_value_holding_digits_is_no_condition_and_the_sampler_draws_none(ward):
    rules = rules_for(ward)
    shown = ["device.model"]
    for part, rule in (("%2.6 kg%", "part_of_a_number"), ("%14.5%", "part_of_a_number"), ("%kg/h%", None)):
        found = rules.before_run(tree(["device"], project=shown, filters=[
            {"column": "device.max_load", "op": "like", "value": part}]))  # fmt: skip
        assert (found and found.rule) == rule, part
    schema, path = ward
    goals = GoalSampler(schema, path, random.Random(35)).sample(20)
    assert len(goals) >= 5
    for goal in goals:
        assert "phone" not in goal.sql.split("WHERE", 1)[-1] or "WHERE" not in goal.sql, goal.sql
        assert "registered" not in goal.sql.split("FROM", 1)[0], goal.sql
        assert not any(part.startswith("'%") and any(c.isdigit() for c in part) for part in goal.sql.split()), goal.sql


def test_a_count_per_kind_of_few_values_is_asked_of_things_one_table_away_at_most(ward):
    rules = rules_for(ward)
    to_device = ("nurse", "nurse_id", "device", "nurse_id")
    to_check = ("device", "device_id", "device_check", "device_id")
    most = {"by": "count", "desc": True, "limit": 1}
    # "Which team's nurses' devices had the most checks?": three teams, two tables away.
    far = tree(["nurse", "device", "device_check"], "group_count", joins=[to_device, to_check], group="nurse.team",
               order=most)  # fmt: skip
    assert rules.before_run(far).rule == "few_kinds_far"
    # One table away ("which team has the most devices"), or per nurse (a name), it is a question.
    near = tree(["nurse", "device"], "group_count", joins=[to_device], group="nurse.team", order=most)
    assert rules.before_run(near) is None
    per_nurse = {**far, "group": "nurse.nurse_name"}
    assert rules.before_run(per_nurse) is None


def test_a_shared_ordinal_word_makes_no_undeclared_key(tmp_path):
    path = tmp_path / "riding.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        """
        CREATE TABLE club (club_id INTEGER PRIMARY KEY, club_name TEXT);
        CREATE TABLE result (rank INTEGER PRIMARY KEY, points INTEGER);
        CREATE TABLE coach (coach_id INTEGER PRIMARY KEY, coach_name TEXT, club INTEGER, rank INTEGER);
        """
    )
    for number in range(1, 7):
        connection.execute("INSERT INTO club VALUES (?, ?)", (number, f"Club {number}"))
        connection.execute("INSERT INTO result VALUES (?, ?)", (number, 200 - 20 * number))
    for number in range(1, 6):
        connection.execute("INSERT INTO coach VALUES (?, ?, ?, ?)", (number, f"Coach {number}", number % 3 + 1, number))
    connection.commit()
    connection.close()
    rules = GoalRules(introspect_sqlite(path, "riding"), path)
    # A coach's rank 1-5 lies among the results' ranks 1-6 and shares the word "rank": a position, not a reference.
    assert rules.undeclared_key("coach.rank") is None
    # A word that is no ordinal still says the reference: the coach's club is a club id.
    assert rules.undeclared_key("coach.club") == "club.club_id"


def test_a_shared_number_word_or_a_packed_key_from_one_makes_no_undeclared_key(tmp_path):
    path = tmp_path / "operator.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        """
        CREATE TABLE season (year INTEGER PRIMARY KEY, url TEXT);
        CREATE TABLE race (race_id INTEGER PRIMARY KEY, year INTEGER, race_nm TEXT);
        CREATE TABLE plan (plan_cd TEXT PRIMARY KEY, mins_incl INTEGER);
        CREATE TABLE usage_rec (rec_id INTEGER PRIMARY KEY, dur_sec INTEGER);
        CREATE TABLE field (farm_id INTEGER, field_no INTEGER, field_nm TEXT, PRIMARY KEY (farm_id, field_no));
        CREATE TABLE delivery (docket_no INTEGER PRIMARY KEY, net_kg REAL);
        """
    )
    connection.executemany("INSERT INTO season VALUES (?, ?)", [(year, f"s{year}") for year in range(1990, 2020)])
    connection.executemany("INSERT INTO race VALUES (?, ?, ?)", [(n, 1990 + n % 30, f"GP {n}") for n in range(1, 90)])
    connection.executemany("INSERT INTO plan VALUES (?, ?)", [(f"P{n}", 250 * (n % 4 + 1)) for n in range(9)])
    connection.executemany("INSERT INTO usage_rec VALUES (?, ?)", [(n, n * 7 % 600) for n in range(1, 1501)])
    connection.executemany(
        "INSERT INTO field VALUES (?, ?, ?)",
        [(farm, number, "Top Field") for farm in range(1, 20) for number in (1, 2, 3)],
    )
    connection.executemany("INSERT INTO delivery VALUES (?, ?)", [(n, 100.0 * n) for n in range(1, 300)])
    connection.commit()
    connection.close()
    rules = GoalRules(introspect_sqlite(path, "operator"), path)
    # Minutes included (250-1,000) lie among 1,500 record ids counted from 1, as any number up to 1,500 does.
    assert rules.undeclared_key("plan.mins_incl") is None
    # A field's number and a delivery's docket number share only "no": each is a number of its own table.
    assert rules.undeclared_key("field.field_no") is None
    # A race's year among the seasons' years 1990-2019 (a packed key of large numbers) is a reference to a season.
    assert rules.undeclared_key("race.year") == "season.year"


def test_a_count_per_group_is_kept_once_whatever_its_threshold(tmp_path):
    at_least = tree(["line"], "group_count", group="line.region_cd", having={"op": ">=", "value": 16})
    assert count_per_group_shape(at_least) == count_per_group_shape({**at_least, "having": {"op": ">", "value": 3}})
    # Every group's count, without a threshold, is another question.
    assert count_per_group_shape({**at_least, "having": None}) is None
    # A count per group shows its group and its count: the column the tree drew to show is not in its SQL.
    assert count_per_group_shape(at_least) == count_per_group_shape({**at_least, "project": ["line.seg_cd"]})
    most = {**at_least, "order": {"by": "count", "desc": True, "limit": 1}}
    assert count_per_group_shape(most) != count_per_group_shape(at_least)  # "which has the most" is another question
    assert count_per_group_shape(tree(["line"], project=["line.region_cd"])) is None
    path = tmp_path / "lines.sqlite"
    connection = sqlite3.connect(path)
    connection.execute(
        "CREATE TABLE line (line_id INTEGER PRIMARY KEY, region_cd TEXT, plan_cd TEXT, seg_cd TEXT, tech_cd TEXT)"
    )
    rng = random.Random(12)
    for number in range(1, 401):
        connection.execute(
            "INSERT INTO line VALUES (?, ?, ?, ?, ?)",
            (number, rng.choice("ABCDEFGH"), rng.choice(["S5", "S30", "HSU", "BIZ"]), rng.choice(["CON", "ENT"]),
             rng.choice(["4G", "5G"])),
        )  # fmt: skip
    connection.commit()
    connection.close()
    sampler = GoalSampler(introspect_sqlite(path, "lines"), path, random.Random(35))
    seen, answers, shapes = set(), set(), Counter()

    def kept(tree_drawn):
        return sampler._kept(tree_drawn, sampler._sql(tree_drawn), list(HARDNESS_LEVELS), seen, answers, shapes)

    first = {**at_least, "having": {"op": ">=", "value": 45}, "project": ["line.plan_cd"]}
    assert kept(first) is not None
    # The same count per region with another threshold (and another column drawn to show) is not kept again...
    assert kept({**first, "having": {"op": ">", "value": 50}, "project": ["line.seg_cd"]}) is None
    assert sampler.refused["same_as_another"] == 1
    # ...every region's count is.
    assert kept({key: value for key, value in first.items() if key != "having"}) is not None


def test_an_amount_is_compared_not_equalled_to_one_of_its_many_values(tmp_path):
    path = tmp_path / "shares.sqlite"
    connection = sqlite3.connect(path)
    connection.execute(
        "CREATE TABLE trade (trade_id INTEGER PRIMARY KEY, trader TEXT, kind TEXT, share_count TEXT, amount REAL)"
    )
    rng = random.Random(5)
    for number in range(1, 21):
        row = (
            number,
            f"Trader {number}",
            rng.choice(["Sale", "Purchase"]),
            str(rng.randint(1, 9_000_000)),
            rng.uniform(1, 1e6),
        )
        connection.execute("INSERT INTO trade VALUES (?, ?, ?, ?, ?)", row if number < 20 else (*row[:3], "", row[4]))
    connection.commit()
    connection.close()
    rules = GoalRules(introspect_sqlite(path, "shares"), path)
    shown = ["trade.trader"]
    for item, rule in (
        # Digits held as text, one of them empty (the lowest text).
        ({"column": "trade.share_count", "op": "=", "value": "2751"}, "exact_amount"),
        ({"column": "trade.amount", "op": "=", "value": 302507.7}, "exact_amount"),
        ({"column": "trade.amount", "op": ">", "value": 300000}, None),
        ({"column": "trade.kind", "op": "=", "value": "Sale"}, None),
    ):
        found = rules.before_run(tree(["trade"], project=shown, filters=[item]))
        assert (found and found.rule) == rule, item


def test_a_height_is_averaged_never_added_up(tmp_path):
    path = tmp_path / "people.sqlite"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE people (people_id INTEGER PRIMARY KEY, name TEXT, height REAL, weight REAL)")
    for number in range(1, 9):
        person = (number, f"P{number}", 1.7 + number / 50, 60 + number)
        connection.execute("INSERT INTO people VALUES (?, ?, ?, ?)", person)
    connection.commit()
    connection.close()
    rules = GoalRules(introspect_sqlite(path, "people"), path)
    # "The total of the people's heights" (14.61) is nobody's question; their average height and total weight are.
    assert rules.before_run(tree(["people"], "sum", ["people.height"])).rule == "sum_of_level"
    assert rules.before_run(tree(["people"], "avg", ["people.height"])) is None
    assert rules.before_run(tree(["people"], "sum", ["people.weight"])) is None


LEDGER = """
CREATE TABLE ref_type (type_code TEXT PRIMARY KEY, type_description TEXT);
CREATE TABLE deal (
    deal_id INTEGER PRIMARY KEY, type_code TEXT REFERENCES ref_type (type_code), desk TEXT, amount REAL,
    post_code TEXT
);
CREATE TABLE purchase (purchase_id INTEGER PRIMARY KEY REFERENCES deal (deal_id), broker TEXT);
CREATE TABLE sale (sale_deal_id INTEGER REFERENCES deal (deal_id), venue TEXT);
"""


@pytest.fixture(scope="module")
def ledger(tmp_path_factory):
    path = tmp_path_factory.mktemp("ledger") / "ledger.sqlite"
    rng = random.Random(7)
    connection = sqlite3.connect(path)
    connection.executescript(LEDGER)
    connection.executemany("INSERT INTO ref_type VALUES (?, ?)", [("PUR", "Purchase"), ("SAL", "Sale")])
    for number in range(1, 41):
        connection.execute("INSERT INTO deal VALUES (?, ?, ?, ?, ?)",
                           (number, rng.choice(["PUR", "SAL"]), rng.choice(["Rates", "Equity", "FX"]), number * 3.5,
                            f"LS{number % 30} {number % 7}AB"))  # fmt: skip
        if number % 2:
            connection.execute("INSERT INTO purchase VALUES (?, ?)", (number, rng.choice([None, None, "Ada", "Bo"])))
        else:
            connection.execute("INSERT INTO sale VALUES (?, ?)", (number, "LSE"))
    connection.commit()
    connection.close()
    return introspect_sqlite(path, "ledger"), path


def test_a_type_of_a_table_is_not_counted_per_type(ledger):
    rules = rules_for(ledger)
    assert rules.subtype_of("purchase") == "deal" and rules.subtype_of("deal") is None
    # No key declared: its one foreign key, unique in it, says a sale is a deal.
    assert rules.subtype_of("sale") == "deal"
    most = {"by": "count", "desc": True, "limit": 1}
    to_purchase = ("deal", "deal_id", "purchase", "purchase_id")
    # "Which transaction type has the most purchases?": every purchase is of its own type.
    per_code = tree(["deal", "purchase"], "group_count", joins=[to_purchase], group="deal.type_code", order=most)
    assert rules.before_run(per_code).rule == "count_of_subtype"
    to_deal = ("ref_type", "type_code", "deal", "type_code")
    per_description = tree(["ref_type", "deal", "purchase"], "group_count", joins=[to_deal, to_purchase],
                           group="ref_type.type_description", order=most)  # fmt: skip
    assert rules.before_run(per_description).rule == "count_of_subtype"
    # Per desk (no type) purchases are a question; deals per type too.
    assert rules.before_run({**per_code, "group": "deal.desk"}) is None
    assert rules.before_run(tree(["ref_type", "deal"], "group_count", joins=[to_deal],
                                 group="ref_type.type_description", order=most)) is None  # fmt: skip


def test_a_list_of_many_ids_and_an_empty_first_group_are_refused(ledger):
    rules = rules_for(ledger)
    _schema, path = ledger

    def after(goal):
        return rules.after_run(goal, execute(path, tree_sql(goal)).rows)[1]

    # "The ids of the deals above 20": 35 numbers nobody reads; the desks of those deals read.
    above = {"column": "deal.amount", "op": ">", "value": 20}
    assert after(tree(["deal"], project=["deal.deal_id"], filters=[above])).rule == "list_of_ids"
    few = {"column": "deal.amount", "op": ">", "value": 120}
    assert after(tree(["deal"], project=["deal.deal_id"], filters=[few])) is None
    # "Which broker has the most purchases": the purchases with no broker come first.
    most = {"by": "count", "desc": True, "limit": 1}
    found = after(tree(["purchase"], "group_count", group="purchase.broker", order=most))
    assert found.rule == "superlative_tie" and "empty" in found.detail
    fewest = {"by": "count", "desc": False, "limit": 1}
    assert after(tree(["purchase"], "group_count", group="purchase.broker", order=fewest)) is None


def test_a_code_nearly_every_row_has_its_own_of_makes_no_groups(ledger):
    rules = rules_for(ledger)
    # 30 post codes over 40 deals: "which post code has the most deals" is a group per deal.
    assert rules.group_column_refusal("deal.post_code").rule == "group_of_one"
    assert rules.group_column_refusal("deal.desk") is None


SHELF = """
CREATE TABLE book (book_id INTEGER PRIMARY KEY, title TEXT, published TEXT, pages INTEGER, kind TEXT);
CREATE TABLE author (author_id INTEGER PRIMARY KEY, author_name TEXT);
CREATE TABLE book_author (
    book_id INTEGER REFERENCES book (book_id), author_id INTEGER REFERENCES author (author_id), author_order INTEGER,
    PRIMARY KEY (book_id, author_id)
);
CREATE TABLE stock (
    book_id INTEGER REFERENCES book (book_id), store TEXT, on_hand INTEGER, floor INTEGER, PRIMARY KEY (book_id, store)
);
CREATE TABLE publisher (publisher_id INTEGER PRIMARY KEY, publisher_name TEXT, city TEXT);
"""


@pytest.fixture(scope="module")
def shelf(tmp_path_factory):
    path = tmp_path_factory.mktemp("shelf") / "shelf.sqlite"
    rng = random.Random(9)
    connection = sqlite3.connect(path)
    connection.executescript(SHELF)
    for number in range(101, 131):  # ids outside the places 1-3: no place is taken for an author's id
        connection.execute("INSERT INTO author VALUES (?, ?)", (number, f"Author {number - 100}"))
    for number in range(1, 41):
        published = f"20{rng.randint(10, 24)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}"
        row = (number, f"Book {number}", published, rng.randint(90, 700), rng.choice(["novel", "poetry", "essay"]))
        connection.execute("INSERT INTO book VALUES (?, ?, ?, ?, ?)", row)
        for order, author in enumerate(rng.sample(range(101, 131), rng.choice([1, 2, 2, 3])), start=1):
            connection.execute("INSERT INTO book_author VALUES (?, ?, ?)", (number, author, order))
        for store in rng.sample(["Leeds", "York", "Hull"], 2):
            connection.execute("INSERT INTO stock VALUES (?, ?, ?, ?)", (number, store, rng.randint(0, 90), 1))
    connection.execute("UPDATE stock SET floor = 2 WHERE store = 'York'")
    names = ["Faber", "Faber", "Vintage", "Corgi", "Corgi", "Penguin", "Picador", "Virago", "Canongate", "Granta"]
    for number, name in enumerate(names, start=1):
        connection.execute("INSERT INTO publisher VALUES (?, ?, ?)", (number, name, rng.choice(["London", "Leeds"])))
    connection.commit()
    connection.close()
    return introspect_sqlite(path, "shelf"), path


def test_places_in_a_sequence_are_no_groups_and_no_answers(shelf):
    rules = rules_for(shelf)
    # An author's order on a book never repeats within the book; a store's floor repeats within a book's stock.
    assert rules.position("book_author.author_order") and not rules.position("stock.floor")
    assert not rules.position("book.pages")
    assert rules.group_column_refusal("book_author.author_order").rule == "by_position"
    assert rules.group_column_refusal("stock.floor") is None
    # "The author order of the authorship of Author 3": a place naming nothing; the titles of second authors' books
    # are kept (a condition on the place is a question).
    to_author = ("book_author", "author_id", "author", "author_id")
    shows = tree(["book_author", "author"], project=["book_author.author_order"], joins=[to_author],
                 filters=[{"column": "author.author_name", "op": "=", "value": "Author 3"}])  # fmt: skip
    assert rules.before_run(shows).rule == "by_position"
    to_book = ("book", "book_id", "book_author", "book_id")
    second = {"column": "book_author.author_order", "op": "=", "value": 2}
    assert (
        rules.before_run(tree(["book", "book_author"], project=["book.title"], joins=[to_book], filters=[second]))
        is None
    )


def test_a_long_list_naming_nothing_is_named_or_refused_and_an_exact_stock_refused(shelf):
    rules = rules_for(shelf)
    _schema, path = shelf

    def after(goal):
        return rules.after_run(goal, execute(path, tree_sql(goal)).rows)[1]

    # "The amounts on hand in York": more than ten numbers of nothing named (a stock has no name to show beside).
    york = {"column": "stock.store", "op": "=", "value": "York"}
    assert after(tree(["stock"], project=["stock.on_hand"], filters=[york])).rule == "list_naming_nothing"
    assert after(tree(["stock"], project=["stock.on_hand", "stock.store"], filters=[york])) is None
    # "The publication dates of the novels": shown with the novels' titles (rewritten), not refused.
    novels = {"column": "book.kind", "op": "=", "value": "novel"}
    dates = tree(["book"], project=["book.published"], filters=[novels])
    named, refusal = rules.after_run(dates, execute(path, tree_sql(dates)).rows)
    assert refusal is None and named["project"] == ["book.title", "book.published"]
    assert rules.rewritten["list_naming_nothing"] == 1
    few = {"column": "book.pages", "op": ">", "value": 650}
    assert after(tree(["book"], project=["book.published"], filters=[few])) is None
    # "The books with exactly 37 on hand": a stock of many values looked up exactly; above it reads.
    exact = {"column": "stock.on_hand", "op": "=", "value": 37}
    to_stock = ("book", "book_id", "stock", "book_id")
    assert rules.exact_amount("stock.on_hand")
    found = rules.before_run(tree(["book", "stock"], project=["book.title"], joins=[to_stock], filters=[exact]))
    assert found.rule == "exact_amount"
    above = {**exact, "op": ">"}
    assert rules.before_run(tree(["book", "stock"], project=["book.title"], joins=[to_stock], filters=[above])) is None


def test_a_ranking_by_a_place_and_a_count_of_what_one_name_picks_are_refused(shelf):
    rules = rules_for(shelf)
    _schema, path = shelf

    def after(goal):
        return rules.after_run(goal, execute(path, tree_sql(goal)).rows)[1]

    # "The title of the book with the highest author order": the last place of any book's authors.
    to_book = ("book", "book_id", "book_author", "book_id")
    last = {"by": "book_author.author_order", "desc": True, "limit": 1}
    ranked = tree(["book", "book_author"], project=["book.title"], joins=[to_book], order=last)
    assert rules.before_run(ranked).rule == "by_position"
    assert rules.before_run(tree(["book_author"], "max", ["book_author.author_order"])).rule == "by_position"
    # "The authorships whose author order is above the average author order": an average of places.
    nested = {"column": "book_author.author_order", "op": ">"}
    above = tree(["book", "book_author"], project=["book.title"], joins=[to_book], nested=nested)
    assert rules.before_run(above).rule == "by_position"
    assert rules.before_run(tree(["book_author"], "avg", ["book_author.author_order"])).rule == "by_position"
    assert rules.before_run(tree(["book"], "max", ["book.pages"])) is None
    # "How many publishers are named Picador": one; "... named Faber": two, kept; per city a count, kept.
    named = {"column": "publisher.publisher_name", "op": "=", "value": "Picador"}
    assert after(tree(["publisher"], "count", filters=[named])).rule == "answers_itself"
    assert after(tree(["publisher"], "count", filters=[{**named, "value": "Faber"}])) is None
    in_leeds = {**named, "column": "publisher.city", "value": "Leeds"}
    assert after(tree(["publisher"], "count", filters=[in_leeds])) is None


def test_nothing_is_ranked_by_a_yes_no_flag(tmp_path):
    path = tmp_path / "wards.sqlite"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE ward (ward_id INTEGER PRIMARY KEY, ward_name TEXT, on_call INTEGER, beds INTEGER)")
    beds = [12, 20, 12, 8, 30, 20, 16, 12, 24, 8, 40, 16]
    for number, count in enumerate(beds, start=1):
        connection.execute("INSERT INTO ward VALUES (?, ?, ?, ?)", (number, f"Ward {number}", number % 3 == 0, count))
    connection.commit()
    connection.close()
    rules = GoalRules(introspect_sqlite(path, "wards"), path)
    # "The ward with the highest on-call flag", "the highest on-call flag": a flag is no scale.
    on_call = {"by": "ward.on_call", "desc": True, "limit": 1}
    found = rules.before_run(tree(["ward"], project=["ward.ward_name"], order=on_call))
    assert found.rule == "aggregate_of_identifier" and "flag" in found.detail
    assert rules.before_run(tree(["ward"], "max", ["ward.on_call"])).rule == "aggregate_of_identifier"
    most_beds = {**on_call, "by": "ward.beds"}
    assert rules.before_run(tree(["ward"], project=["ward.ward_name"], order=most_beds)) is None


def test_a_date_unique_in_its_table_is_no_name_to_show_beside_a_list(tmp_path):
    path = tmp_path / "deliveries.sqlite"
    connection = sqlite3.connect(path)
    connection.execute(
        "CREATE TABLE delivery (delivery_id INTEGER PRIMARY KEY, delivered TEXT, weight INTEGER, region TEXT)"
    )
    for number in range(1, 31):
        row = (number, f"2025-03-{number:02d}", 100 + number * 37 % 101, "north" if number % 3 else "south")
        connection.execute("INSERT INTO delivery VALUES (?, ?, ?, ?)", row)
    connection.commit()
    connection.close()
    rules = GoalRules(introspect_sqlite(path, "deliveries"), path)
    assert rules.name_column("delivery") == "delivery.delivered"
    # "The weights of the deliveries in the north": 20 numbers naming nothing; their dates, unique, name nothing either.
    north = tree(["delivery"], project=["delivery.weight"], filters=[{"column": "delivery.region", "op": "=",
                                                                      "value": "north"}])  # fmt: skip
    judged, refusal = rules.after_run(north, execute(path, tree_sql(north)).rows)
    assert judged is north and refusal.rule == "list_naming_nothing"


def test_a_number_of_its_own_refers_to_no_table_it_shares_no_word_with(tmp_path):
    path = tmp_path / "rooms.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        "CREATE TABLE guardian (guardian_id INTEGER PRIMARY KEY, guardian_name TEXT);"
        "CREATE TABLE lesson (lesson_id INTEGER PRIMARY KEY, room_no INTEGER, guardian_ref INTEGER);"
    )
    rng = random.Random(3)
    for number in range(1, 401):
        connection.execute("INSERT INTO guardian VALUES (?, ?)", (number, f"Guardian {number}"))
    for number in range(1, 61):
        row = (number, rng.choice([101, 102, 205, 206, 310, 311]), rng.randint(150, 400))
        connection.execute("INSERT INTO lesson VALUES (?, ?, ?)", row)
    connection.commit()
    connection.close()
    rules = GoalRules(introspect_sqlite(path, "rooms"), path)
    # Room numbers 101-311 lie among 400 guardians' ids by chance: no join of rooms to guardians.
    assert rules.undeclared_key("lesson.room_no") is None
    # A column sharing the table's word is its reference, numbers above 100 or not.
    assert rules.undeclared_key("lesson.guardian_ref") == "guardian.guardian_id"


def test_codes_of_a_letter_and_many_digits_name_nothing(tmp_path):
    path = tmp_path / "pupils.sqlite"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE pupil (pupil_id INTEGER PRIMARY KEY, upn TEXT, first_name TEXT, form TEXT)")
    rng = random.Random(8)
    for number in range(1, 41):
        row = (number, f"K{rng.randint(10**11, 10**12 - 1)}", f"Pupil {number}", "7A" if number % 4 else "7B")
        connection.execute("INSERT INTO pupil VALUES (?, ?, ?, ?)", row)
    connection.commit()
    connection.close()
    rules = GoalRules(introspect_sqlite(path, "pupils"), path)
    assert rules.names_things("pupil.upn") and not rules.names_rows("pupil.upn")
    assert rules.names_rows("pupil.first_name")

    def after(goal):
        return rules.after_run(goal, execute(path, tree_sql(goal)).rows)[1]

    # "The UPNs of the pupils of 7A": 30 codes naming nothing; their names read.
    form = {"column": "pupil.form", "op": "=", "value": "7A"}
    assert after(tree(["pupil"], project=["pupil.upn"], filters=[form])).rule == "list_naming_nothing"
    assert after(tree(["pupil"], project=["pupil.first_name", "pupil.upn"], filters=[form])) is None


def test_references_of_a_few_letters_and_groups_of_digits_name_nothing(tmp_path):
    path = tmp_path / "orders.sqlite"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE delivery (del_no INTEGER PRIMARY KEY, po_ref TEXT, docket TEXT, site TEXT,"
                       " late INTEGER)")  # fmt: skip
    for number in range(1, 61):
        row = (number, f"PO-{2024 + number % 2}-{number * 7:04d}", f"WD24-{number * 13:04d}",
               f"Suite {number}", number % 3)  # fmt: skip
        connection.execute("INSERT INTO delivery VALUES (?, ?, ?, ?, ?)", row)
    connection.commit()
    connection.close()
    rules = GoalRules(introspect_sqlite(path, "orders"), path)
    # "The purchase orders of the late deliveries": 20 references naming nothing, whose digits come in groups.
    assert not rules.names_rows("delivery.po_ref") and not rules.names_rows("delivery.docket")
    assert rules.names_rows("delivery.site")  # a word before a number: "Suite 12" names a place
    late = {"column": "delivery.late", "op": "=", "value": 1}
    listed = tree(["delivery"], project=["delivery.po_ref"], filters=[late])
    assert rules.after_run(listed, execute(path, tree_sql(listed)).rows)[1].rule == "list_naming_nothing"


def _staff_database(path):
    connection = sqlite3.connect(path)
    connection.executescript(
        """
        CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, staff_name TEXT, pay_scale INTEGER, team TEXT);
        CREATE TABLE dept (dept_id INTEGER PRIMARY KEY, dept_name TEXT, head_id INTEGER REFERENCES staff (staff_id));
        CREATE TABLE course (course_id INTEGER PRIMARY KEY, title TEXT, dept_id INTEGER REFERENCES dept (dept_id));
        CREATE TABLE race (race_id INTEGER PRIMARY KEY, race_name TEXT, year INTEGER);
        """
    )
    rng = random.Random(21)
    for number in range(1, 81):
        # 20 names ("Mrs Patel") shared by 80 people.
        name = f"{['Mr', 'Mrs', 'Ms', 'Dr'][number % 4]} {['Ali', 'Chen', 'Jones', 'Patel', 'Smith'][number % 5]}"
        connection.execute(
            "INSERT INTO staff VALUES (?, ?, ?, ?)", (number, name, rng.randint(1, 6), rng.choice(["red", "blue"]))
        )
    for number in range(1, 9):
        connection.execute("INSERT INTO dept VALUES (?, ?, ?)", (number, f"Department {number}", number * 3))
    for number in range(1, 81):
        connection.execute(
            "INSERT INTO race VALUES (?, ?, ?)", (number, f"Grand Prix {number % 20}", 2000 + number // 20)
        )
    for number in range(1, 41):
        connection.execute("INSERT INTO course VALUES (?, ?, ?)", (number, f"Course {number}", rng.randint(1, 8)))
    connection.commit()
    connection.close()
    return GoalRules(introspect_sqlite(path, "staff"), path)


def test_a_count_per_a_number_two_tables_away_and_per_a_shared_name_are_refused(tmp_path):
    rules = _staff_database(tmp_path / "staff.sqlite")
    to_dept = ("staff", "staff_id", "dept", "head_id")
    to_course = ("dept", "dept_id", "course", "dept_id")
    # "How many courses per pay scale of their department's head": refused; one table away it is asked.
    far = tree(["staff", "dept", "course"], "group_count", joins=[to_dept, to_course], group="staff.pay_scale")
    assert rules.before_run(far).rule == "far_number_group"
    near = tree(["staff", "dept"], "group_count", joins=[to_dept], group="staff.pay_scale")
    assert rules.before_run(near) is None
    # Per the head's name (words), two tables away, it is no number.
    assert (
        rules.before_run({**far, "group": "dept.dept_name", "tables": ["dept", "course"], "joins": [list(to_course)]})
        is None
    )
    # "The number of departments per staff name": 20 names shared by 80 people lump different people.
    assert rules.shared_own_name("staff.staff_name") and not rules.shared_own_name("dept.dept_name")
    assert rules.before_run({**near, "group": "staff.staff_name"}).rule == "group_by_shared_name"
    assert not rules.shared_own_name("staff.team")
    # A race's name shared by its years names one recurring race: kept.
    assert not rules.shared_own_name("race.race_name")


def test_a_table_already_referring_to_another_gets_no_second_undeclared_key_to_it(tmp_path):
    path = tmp_path / "routes.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        """
        CREATE TABLE stop (stop_id INTEGER PRIMARY KEY, stop_name TEXT);
        CREATE TABLE route_stop (
            route_id INTEGER, stop_seq INTEGER, stop_id INTEGER REFERENCES stop (stop_id),
            PRIMARY KEY (route_id, stop_seq)
        );
        CREATE TABLE visit (visit_id INTEGER PRIMARY KEY, stop_ref INTEGER);
        """
    )
    connection.executemany("INSERT INTO stop VALUES (?, ?)", [(number, f"Stop {number}") for number in range(1, 41)])
    rows = [(route, seq, (route * 7 + seq) % 40 + 1) for route in range(1, 6) for seq in range(1, 11)]
    connection.executemany("INSERT INTO route_stop VALUES (?, ?, ?)", rows)
    connection.executemany("INSERT INTO visit VALUES (?, ?)", [(number, number % 40 + 1) for number in range(1, 31)])
    connection.commit()
    connection.close()
    rules = GoalRules(introspect_sqlite(path, "routes"), path)
    # A route's stop is its stop_id: its stop_seq (1-10, among the stops' ids) is a place in the route's order.
    assert rules.undeclared_key("route_stop.stop_seq") is None
    # A table declaring no reference to stops may still hold one undeclared.
    assert rules.undeclared_key("visit.stop_ref") == "stop.stop_id"


def test_a_place_named_a_number_is_a_position_and_an_id_or_a_code_is_not(tmp_path):
    path = tmp_path / "credits.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        """
        CREATE TABLE film (film_id INTEGER PRIMARY KEY, title TEXT);
        CREATE TABLE credit (
            film_id INTEGER REFERENCES film (film_id), person_nm TEXT, billing_no INTEGER, role_id INTEGER,
            rank_code INTEGER
        );
        """
    )
    connection.executemany("INSERT INTO film VALUES (?, ?)", [(number, f"Film {number}") for number in range(1, 9)])
    credits = [(film, f"P{film}{n}", n, n, n) for film in range(1, 9) for n in range(1, 6)]
    connection.executemany("INSERT INTO credit VALUES (?, ?, ?, ?, ?)", credits)
    connection.commit()
    connection.close()
    rules = GoalRules(introspect_sqlite(path, "credits"), path)
    # 1-5 afresh for each film: the billing order of its credits, a place whatever "no" says.
    assert rules.position("credit.billing_no")
    shown = tree(["credit"], project=["credit.billing_no"], filters=[
        {"column": "credit.person_nm", "op": "like", "value": "%P1%"}])  # fmt: skip
    assert rules.before_run(shown).rule == "by_position"
    # The same values under an id's or a code's name are no place.
    assert not rules.position("credit.role_id") and not rules.position("credit.rank_code")


def test_a_place_within_the_rest_of_a_key_of_several_columns_is_a_position(tmp_path):
    path = tmp_path / "lines.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        """
        CREATE TABLE line (line_id INTEGER PRIMARY KEY, line_name TEXT);
        CREATE TABLE call (
            line_id INTEGER REFERENCES line (line_id), direction INTEGER, call_seq INTEGER, minutes INTEGER,
            PRIMARY KEY (line_id, direction, call_seq)
        );
        CREATE TABLE target (line_id INTEGER REFERENCES line (line_id), mon INTEGER, riders INTEGER,
            PRIMARY KEY (line_id, mon));
        """
    )
    connection.executemany("INSERT INTO line VALUES (?, ?)", [(number, f"Line {number}") for number in range(1, 7)])
    calls = [(line, way, seq, seq * 3) for line in range(1, 7) for way in (1, 2) for seq in range(1, 3 + line)]
    connection.executemany("INSERT INTO call VALUES (?, ?, ?, ?)", calls)
    targets = [(line, month, 100 * line + month) for line in range(1, 7) for month in range(1, 13)]
    connection.executemany("INSERT INTO target VALUES (?, ?, ?)", targets)
    connection.commit()
    connection.close()
    rules = GoalRules(introspect_sqlite(path, "lines"), path)
    # 1, 2, 3... afresh for each line and direction: a place, no kind ("how many calls per call sequence").
    assert rules.position("call.call_seq")
    assert rules.group_column_refusal("call.call_seq").rule == "by_position"
    assert not rules.position("call.direction") and not rules.position("call.minutes")
    # A month within (line, month) is a time.
    assert not rules._position_in_key("target", "mon")


def test_a_strength_an_interval_or_a_rate_is_averaged_never_added_up(tmp_path):
    path = tmp_path / "brewery.sqlite"
    connection = sqlite3.connect(path)
    connection.execute(
        "CREATE TABLE beer (beer_id INTEGER PRIMARY KEY, beer_nm TEXT, abv REAL, svc_interval_km INTEGER,"
        " hourly_rt REAL, vol_hl REAL)"
    )
    for number in range(1, 9):
        beer = (
            number,
            f"Beer {number}",
            3.5 + number / 4,
            40000 + 10000 * (number % 3),
            11 + number / 2,
            20.0 * number,
        )
        connection.execute("INSERT INTO beer VALUES (?, ?, ?, ?, ?, ?)", beer)
    connection.commit()
    connection.close()
    rules = GoalRules(introspect_sqlite(path, "brewery"), path)
    # "The total alcohol by volume of the beers", "the total service interval", "the total hourly rate" (a shortening
    # read spelled out) measure nothing; their averages do, and a total volume brewed is a question.
    for column in ("beer.abv", "beer.svc_interval_km", "beer.hourly_rt"):
        assert rules.before_run(tree(["beer"], "sum", [column])).rule == "sum_of_level"
        assert rules.before_run(tree(["beer"], "avg", [column])) is None
    assert rules.before_run(tree(["beer"], "sum", ["beer.vol_hl"])) is None


@pytest.mark.parametrize(
    ("name", "kind"),
    [("district_cd", "code"), ("tariff_cd", "code"), ("start_mth", "ordinal"), ("district_nm", None)],
)
def test_a_shortened_name_is_read_spelled_out(name, kind):
    assert name_kind(name) == kind


def test_a_count_per_key_is_asked_of_the_first_not_listed_for_every_key(tmp_path):
    path = tmp_path / "bills.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        """
        CREATE TABLE account (acct_no TEXT PRIMARY KEY, holder_nm TEXT, town TEXT);
        CREATE TABLE bill (bill_id INTEGER PRIMARY KEY, acct_no TEXT REFERENCES account (acct_no), amount REAL);
        """
    )
    towns = ["Leeds", "York", "Hull"]
    connection.executemany(
        "INSERT INTO account VALUES (?, ?, ?)",
        [(f"A{number:04d}E", f"Holder {number}", towns[number % 3]) for number in range(1, 31)],
    )
    sizes = {number: 7 if number == 7 else 2 + number % 3 for number in range(1, 31)}
    bills = [(f"A{number:04d}E", 10.0 * copy) for number, size in sizes.items() for copy in range(size)]
    connection.executemany("INSERT INTO bill (acct_no, amount) VALUES (?, ?)", bills)
    connection.commit()
    connection.close()
    rules = GoalRules(introspect_sqlite(path, "bills"), path)

    def after(goal):
        return rules.after_run(goal, execute(path, tree_sql(goal)).rows)[1]

    # "For each account number with at least 3 bills, how many bills": 20 account numbers beside their counts.
    per_account = tree(["bill"], "group_count", group="bill.acct_no", having={"op": ">=", "value": 3})
    assert after(per_account).rule == "list_naming_nothing"
    # The account with the most bills is a question; so is a count per town, every town listed.
    most = {"by": "count", "desc": True, "limit": 1}
    assert after({**tree(["bill"], "group_count", group="bill.acct_no"), "order": most}) is None
    assert after(tree(["account"], "group_count", group="account.town")) is None


def _orchestra(path):
    """Musicians named by first and last names that repeat, works whose titles repeat, a table of people whose titles
    (Mr, Mrs) are no names, and shipments whose customer's name is no name of the shipment."""
    connection = sqlite3.connect(path)
    connection.executescript(
        "CREATE TABLE musician (musician_id INTEGER PRIMARY KEY, first_nm TEXT, last_nm TEXT, joined_yr INTEGER,"
        " instr_cd TEXT);"
        "CREATE TABLE work (work_id INTEGER PRIMARY KEY, work_ttl TEXT, composed_yr INTEGER, players_cnt INTEGER);"
        "CREATE TABLE patron (patron_id INTEGER PRIMARY KEY, title TEXT, joined_dt TEXT);"
        "CREATE TABLE shipment (ship_ref TEXT PRIMARY KEY, customer_nm TEXT, cases_qty INTEGER);"
        "CREATE TABLE part (work_id INTEGER REFERENCES work (work_id), part_no INTEGER, pages INTEGER,"
        " PRIMARY KEY (work_id, part_no));"
    )
    rng = random.Random(15)
    for number in range(1, 41):
        row = (number, rng.choice(["Anna", "Ben", "Chloe", "Dan", "Eve"]), rng.choice(["Hughes", "Lee", "Roberts",
               "Young", "Walsh", "Price"]), 1990 + number % 30, rng.choice(["VN", "VA", "OB", "HN"]))  # fmt: skip
        connection.execute("INSERT INTO musician VALUES (?, ?, ?, ?, ?)", row)
    for number in range(1, 21):
        title = ["Cello Concerto", "Symphony No. 5"][number % 2] if number <= 4 else f"Overture {number}"
        connection.execute("INSERT INTO work VALUES (?, ?, ?, ?)", (number, title, 1780 + number * 7, 20 + number))
        for part_no in range(1, 4):
            connection.execute("INSERT INTO part VALUES (?, ?, ?)", (number, part_no, 10 + part_no * number))
    for number in range(1, 31):
        connection.execute(
            "INSERT INTO patron VALUES (?, ?, ?)", (number, rng.choice(["Mr", "Mrs", "Ms"]), f"2024-01-{number:02d}")
        )
        connection.execute(
            "INSERT INTO shipment VALUES (?, ?, ?)", (f"SH{number:03d}", f"Merchant {number % 25}", 5 * number)
        )
    connection.commit()
    connection.close()


def test_ids_dates_and_numbers_of_rows_that_have_names_are_shown_with_the_names(tmp_path):
    path = tmp_path / "orchestra.sqlite"
    _orchestra(path)
    rules = GoalRules(introspect_sqlite(path, "orchestra"), path)
    # Names that repeat still read where an id does not: a title of the work's own, a person's first and last names.
    assert rules.row_names("work") == ["work.work_ttl"]
    assert rules.row_names("musician") == ["musician.first_nm", "musician.last_nm"]
    # A title of few values (Mr, Mrs) names nobody; a customer's name is no name of a shipment.
    assert rules.row_names("patron") == [] and rules.row_names("shipment") == []
    recent = {"column": "work.composed_yr", "op": ">", "value": 1850}
    few = {"column": "work.players_cnt", "op": "<", "value": 30}
    ids = tree(["work"], project=["work.work_id"], filters=[recent], set={"op": "intersect", "filters": [few]})
    assert rules.named(ids)["project"] == ["work.work_ttl", "work.work_id"]
    years = tree(["work"], project=["work.composed_yr"], order={"by": "work.players_cnt", "desc": True, "limit": 1})
    assert rules.named(years)["project"] == ["work.work_ttl", "work.composed_yr"]
    # A last name alone gets the first name; a name a condition fixes is not shown again.
    laura = {"column": "musician.first_nm", "op": "=", "value": "Anna"}
    late = {"column": "musician.joined_yr", "op": ">", "value": 2000}
    last = tree(["musician"], project=["musician.last_nm"], filters=[late])
    assert rules.named(last)["project"] == ["musician.first_nm", "musician.last_nm"]
    anna = tree(["musician"], project=["musician.musician_id"], filters=[laura], set={"op": "intersect",
                "filters": [late]})  # fmt: skip
    assert rules.named(anna)["project"] == ["musician.last_nm", "musician.musician_id"]
    # A code that names a row of a table the list joins on it gets that row's names.
    pages = {"column": "part.pages", "op": ">", "value": 40}
    joined = tree(["part", "work"], project=["part.work_id"], joins=[("part", "work_id", "work", "work_id")],
                  filters=[pages])  # fmt: skip
    assert rules.named(joined)["project"] == ["work.work_ttl", "part.work_id"]
    # Names shown already, a list of every row (no condition: `list_of_values`), a table without names: unchanged.
    for unchanged in (
        tree(["work"], project=["work.work_ttl"], filters=[recent]),
        tree(["work"], project=["work.composed_yr"]),
        tree(
            ["shipment"],
            project=["shipment.ship_ref"],
            filters=[{"column": "shipment.cases_qty", "op": ">", "value": 50}],
        ),  # fmt: skip
    ):
        assert rules.named(unchanged) is unchanged
    # The sampler keeps no list of ids, dates or numbers of musicians or works without their names (but where a
    # condition names them: "the ids of the works titled X or Y").
    sampler = GoalSampler(introspect_sqlite(path, "orchestra"), path, random.Random(5))
    goals = sampler.sample(30)
    assert goals
    for goal in goals:
        shown = goal.tree.get("project") or []
        conditions = [*goal.tree.get("filters", []), *(goal.tree.get("set") or {}).get("filters", [])]
        named = any(rules.names_rows(item["column"]) and item["op"] == "=" for item in conditions)
        if goal.tree["type"] == "list" and shown and shown[0].split(".")[0] in ("work", "musician") and not named:
            assert any(rules.names_rows(column) for column in shown), goal.sql


def test_quantities_in_different_units_are_not_added_ranked_or_compared(tmp_path):
    path = tmp_path / "bakery.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        "CREATE TABLE ingredient (ingredient_id INTEGER PRIMARY KEY, ingredient_nm TEXT, unit_cd TEXT,"
        " unit_cost REAL);"
        "CREATE TABLE recipe_line (product_nm TEXT, ingredient_id INTEGER REFERENCES ingredient (ingredient_id),"
        " qty REAL, PRIMARY KEY (product_nm, ingredient_id));"
        "CREATE TABLE order_line (order_id INTEGER, line_no INTEGER, qty INTEGER, PRIMARY KEY (order_id, line_no));"
    )
    units = {"Flour": "KG", "Butter": "KG", "Eggs": "EA", "Milk": "L", "Sugar": "KG"}
    for number, (name, unit) in enumerate(units.items(), start=1):
        connection.execute("INSERT INTO ingredient VALUES (?, ?, ?, ?)", (number, name, unit, 0.5 * number))
        for product in ("Loaf", "Bun", "Cake"):
            connection.execute("INSERT INTO recipe_line VALUES (?, ?, ?)", (product, number, 0.2 * number + 1))
    for number in range(1, 31):
        connection.execute("INSERT INTO order_line VALUES (?, ?, ?)", (number, 1, 6 * (number % 4 + 1)))
    connection.commit()
    connection.close()
    rules = GoalRules(introspect_sqlite(path, "bakery"), path)
    assert rules.unit_column("recipe_line.qty") == "ingredient.unit_cd"
    assert rules.unit_column("order_line.qty") is None and rules.unit_column("ingredient.unit_cost") is None
    line = ["recipe_line"]
    above = {"column": "recipe_line.qty", "op": ">", "value": 1.5}
    # "The largest recipe quantity": four eggs against 1.2 kilograms of flour.
    for mixed in (
        tree(line, "max", ["recipe_line.qty"]),
        tree(line, "sum", ["recipe_line.qty"]),
        tree(line, project=["recipe_line.product_nm"], order={"by": "recipe_line.qty", "desc": True, "limit": 1}),
        tree(
            line,
            project=["recipe_line.product_nm"],
            nested={"column": "recipe_line.qty", "op": ">", "aggregate": "avg"},
        ),  # fmt: skip
        tree(line, project=["recipe_line.product_nm"], filters=[above]),
    ):
        assert rules.before_run(mixed).rule == "mixed_units", mixed
    # One unit, or one ingredient, fixed by a condition: the quantities compare.
    joined = [("recipe_line", "ingredient_id", "ingredient", "ingredient_id")]
    for fixed in (
        {"column": "ingredient.unit_cd", "op": "=", "value": "KG"},
        {"column": "ingredient.ingredient_nm", "op": "=", "value": "Flour"},
    ):
        asked = tree(["recipe_line", "ingredient"], "max", ["recipe_line.qty"], joins=joined, filters=[fixed])
        assert rules.before_run(asked) is None
    assert rules.before_run(tree(["order_line"], "max", ["order_line.qty"])) is None


def test_ids_of_another_table_spread_over_all_its_ids_are_an_undeclared_key_named_by_no_shared_word(tmp_path):
    path = tmp_path / "world.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        "CREATE TABLE city (city_id INTEGER PRIMARY KEY, city_nm TEXT, pop INTEGER);"
        "CREATE TABLE country (code TEXT PRIMARY KEY, country_nm TEXT, capital INTEGER, provinces INTEGER);"
    )
    for number in range(1, 601):
        connection.execute("INSERT INTO city VALUES (?, ?, ?)", (number, f"City {number}", 1000 * number))
    for number in range(40):
        row = (f"C{number:02d}", f"Country {number}", 1 + number * 15, 5 + number % 20 * 2)
        connection.execute("INSERT INTO country VALUES (?, ?, ?, ?)", row)
    connection.commit()
    connection.close()
    rules = GoalRules(introspect_sqlite(path, "world"), path)
    # A capital is a city's id, 1..586 of 1..600, every country its own: no total or average of them.
    assert rules.undeclared_key("country.capital") == "city.city_id"
    assert rules.before_run(tree(["country"], "avg", ["country.capital"])).rule == "aggregate_of_identifier"
    # A count of provinces (5-43, each twice) lies among the city ids by chance, far from their end: an amount.
    assert rules.undeclared_key("country.provinces") is None
    assert rules.before_run(tree(["country"], "avg", ["country.provinces"])) is None


def test_one_of_many_days_is_no_condition_and_the_sampler_asks_before_or_after_it(tmp_path):
    path = tmp_path / "orders.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        "CREATE TABLE trade_order (order_id INTEGER PRIMARY KEY, account_nm TEXT, order_dt TEXT, festival_dt TEXT,"
        " crates INTEGER);"
    )
    rng = random.Random(8)
    for number in range(1, 121):
        row = (number, f"Account {number % 15}", f"2026-{9 + number % 3:02d}-{1 + number % 28:02d}",
               f"2026-07-{10 + number % 3:02d}", rng.randint(1, 30))  # fmt: skip
        connection.execute("INSERT INTO trade_order VALUES (?, ?, ?, ?, ?)", row)
    connection.commit()
    connection.close()
    schema = introspect_sqlite(path, "orders")
    rules = GoalRules(schema, path)
    count = "count"
    on_a_day = tree(
        ["trade_order"], count, filters=[{"column": "trade_order.order_dt", "op": "=", "value": "2026-10-03"}]
    )
    assert rules.before_run(on_a_day).rule == "exact_date"
    after = {"column": "trade_order.order_dt", "op": ">", "value": "2026-10-03"}
    assert rules.before_run(tree(["trade_order"], count, filters=[after])) is None
    # One of a festival's three days is one of its kinds.
    festival = {"column": "trade_order.festival_dt", "op": "=", "value": "2026-07-11"}
    assert rules.before_run(tree(["trade_order"], count, filters=[festival])) is None
    goals = GoalSampler(schema, path, random.Random(4)).sample(20)
    conditions = [item for goal in goals for item in [*goal.tree["filters"], *(goal.tree.get("set") or {}).get(
        "filters", [])]]  # fmt: skip
    assert any(item["column"] == "trade_order.order_dt" for item in conditions)
    assert all(item["op"] != "=" for item in conditions if item["column"] == "trade_order.order_dt")


def test_a_column_named_for_who_did_something_refers_to_the_table_of_people(tmp_path):
    path = tmp_path / "builder.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        "CREATE TABLE plant (plant_id INTEGER PRIMARY KEY, fleet_no TEXT);"
        "CREATE TABLE worker (worker_id INTEGER PRIMARY KEY, first_nm TEXT, last_nm TEXT);"
        "CREATE TABLE delivery (del_no INTEGER PRIMARY KEY, received_by INTEGER, late INTEGER, crates INTEGER);"
    )
    rng = random.Random(6)
    for number in range(1, 201):
        connection.execute("INSERT INTO plant VALUES (?, ?)", (number, f"EX{number:03d}"))
    for number in range(1, 41):
        row = (number, rng.choice(["Adam", "Billy", "Ellie"]), rng.choice(["Haigh", "Wood", "Dyson"]))
        connection.execute("INSERT INTO worker VALUES (?, ?, ?)", row)
    for number in range(1, 301):
        row = (number, rng.randint(1, 40), number % 2, rng.randint(1, 40))
        connection.execute("INSERT INTO delivery VALUES (?, ?, ?, ?)", row)
    connection.commit()
    connection.close()
    rules = GoalRules(introspect_sqlite(path, "builder"), path)
    # Who received a delivery is a worker (first and last names), not an item of plant whose ids 1-200 hold 1-40 too.
    assert rules.undeclared_key("delivery.received_by") == "worker.worker_id"
    received = {"column": "delivery.received_by", "op": ">", "value": 8}
    assert rules.before_run(tree(["delivery"], "count", filters=[received])).rule == "filter_on_identifier"
    # The same numbers named for nobody are an amount.
    assert rules.undeclared_key("delivery.crates") is None
