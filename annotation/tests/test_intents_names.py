"""Suggestions name things a worker can read (issue 35, section 3, the raw-name losses of set 8): tables that pair
things or values are no other entity, a group noun's table holds its members, a verb in a name makes it a clause.
One cheap test per rule, no database file."""

import random

from annotation.tests.test_intents_seen import schema_of, texts
from annotation.wording.suggestions import IntentError, recommend

BROWSERS = schema_of(
    {
        "Web_client_accelerator": ["id", "name", "Client"],
        "browser": ["id", "name", "market_share"],
        "accelerator_compatible_browser": ["accelerator_id", "browser_id", "compatible_since_year"],
        "film": ["Film_ID", "Title"],
        "market": ["Market_ID", "Country"],
        "film_market_estimation": ["Estimation_ID", "Film_ID", "Market_ID", "Low_Estimate"],
    },
    primary=["Web_client_accelerator.id", "browser.id", "accelerator_compatible_browser.accelerator_id"]
    + ["film.Film_ID", "market.Market_ID", "film_market_estimation.Estimation_ID"],
    foreign=[
        ("accelerator_compatible_browser.accelerator_id", "Web_client_accelerator.id"),
        ("accelerator_compatible_browser.browser_id", "browser.id"),
        ("film_market_estimation.Film_ID", "film.Film_ID"),
        ("film_market_estimation.Market_ID", "market.Market_ID"),
    ],
    types={"browser.market_share": "number", "accelerator_compatible_browser.compatible_since_year": "number"},
)


def test_a_table_named_by_two_things_it_links_is_no_other_entity_unless_it_has_an_id_of_its_own():
    said = texts("SELECT count(*) FROM browser", [[4]], "different_entity", schema=BROWSERS)
    assert said and not any("compatible" in text for text in said), set(said)
    films = texts("SELECT count(*) FROM market", [[6]], "different_entity", schema=BROWSERS)
    assert any("film market estimations" in text for text in films), set(films)


def test_a_table_named_by_its_columns_run_together_is_no_other_entity():
    schema = schema_of(
        {
            "AREA_CODE_STATE": ["area_code", "state"],
            "CONTESTANTS": ["contestant_number", "contestant_name"],
            "VOTES": ["vote_id", "phone_number", "state", "contestant_number"],
        },
        primary=["AREA_CODE_STATE.area_code", "CONTESTANTS.contestant_number", "VOTES.vote_id"],
        foreign=[
            ("VOTES.state", "AREA_CODE_STATE.state"),
            ("VOTES.contestant_number", "CONTESTANTS.contestant_number"),
        ],
    )
    said = texts("SELECT count(*) FROM VOTES", [[4]], "different_entity", schema=schema)
    assert said and not any("area code" in text for text in said), set(said)


def test_a_group_noun_s_table_of_people_holds_its_members():
    schema = schema_of(
        {
            "Activity": ["actid", "activity_name"],
            "Faculty": ["FacID", "Lname", "Fname", "Sex", "Building"],
            "Department": ["DNO", "DName", "Faculty"],
        },
        primary=["Activity.actid", "Faculty.FacID", "Department.DNO"],
    )
    said = texts("SELECT count(*) FROM Activity", [[16]], "different_entity", schema=schema)
    assert any("the faculty members instead" in text for text in said), set(said)
    assert not any("faculties" in text for text in said), set(said)


def test_a_name_of_two_plurals_reads_as_a_verb_and_its_object():
    schema = schema_of(
        {
            "student": ["ID", "name", "dept_name"],
            "section": ["course_id", "sec_id", "building"],
            "takes": ["ID", "course_id", "sec_id", "grade"],
        },
        primary=["student.ID", "section.course_id"],
        foreign=[("takes.ID", "student.ID"), ("takes.course_id", "section.course_id")],
        readable={"takes": "takes classes"},
    )
    said = texts("SELECT count(*) FROM student", [[13]], "different_entity", schema=schema)
    assert said and not any("takes" in text for text in said), set(said)


def test_a_verb_in_the_past_inside_a_column_s_name_makes_it_no_detail():
    schema = schema_of(
        {
            "Customers": ["customer_id", "customer_name", "date_became_customer", "payment_method"],
            "Addresses": ["address_id", "city"],
        },
        primary=["Customers.customer_id", "Addresses.address_id"],
    )
    said = texts("SELECT count(*) FROM Addresses", [[15]], "different_entity", schema=schema)
    assert any("the customers instead" in text for text in said), set(said)
    assert not any("became" in text for text in said), set(said)


def test_a_table_pairing_two_rows_of_a_table_it_names_is_a_link_and_a_wedding_is_a_thing():
    schema = schema_of(
        {
            "Person": ["name", "age", "city", "gender"],
            "PersonFriend": ["name", "friend", "year"],
            "wedding": ["Church_ID", "Male_ID", "Female_ID", "Year"],
            "people": ["People_ID", "Name", "Age"],
            "church": ["Church_ID", "Name"],
        },
        primary=["Person.name", "people.People_ID", "church.Church_ID"],
        foreign=[("PersonFriend.name", "Person.name"), ("PersonFriend.friend", "Person.name")]
        + [("wedding.Male_ID", "people.People_ID"), ("wedding.Female_ID", "people.People_ID")]
        + [("wedding.Church_ID", "church.Church_ID")],
    )
    said = texts("SELECT max(age) FROM Person", [[45]], "different_entity", schema=schema)
    assert not any("person friends" in text for text in said), set(said)
    weddings = texts("SELECT count(*) FROM church", [[4]], "different_entity", schema=schema)
    assert any("the weddings instead" in text for text in weddings), set(weddings)


def test_a_detail_is_said_without_its_table_s_own_words_and_another_value_is_one():
    schema = schema_of(
        {
            "Staff": ["staff_id", "staff_first_name", "staff_last_name"],
            "Complaints": ["complaint_id", "date_complaint_raised", "date_complaint_closed", "staff_id"],
            "files": ["f_id", "formats", "duration"],
        },
        primary=["Staff.staff_id", "Complaints.complaint_id", "files.f_id"],
        foreign=[("Complaints.staff_id", "Staff.staff_id")],
        types={"Complaints.date_complaint_raised": "time", "Complaints.date_complaint_closed": "time"},
    )
    rows = [["Ward"], ["Lucie"], ["Dagmar"]]
    details = texts("SELECT staff_first_name FROM Staff", rows, "same_instances", schema=schema)
    assert any(text.endswith("such as their last name") for text in details), set(details)
    assert not any("their staff last name" in text for text in details), set(details)
    others = texts("SELECT staff_first_name FROM Staff", rows, "different_entity", schema=schema)
    assert any("their date raised" in text or "their date closed" in text for text in others), set(others)
    assert not any("date complaint" in text for text in others), set(others)
    formats = texts(
        "SELECT duration FROM files WHERE formats = 'mp4'", [["3:45"], ["4:12"]], "different_instances", schema=schema
    )
    assert any("another format" in text for text in formats), set(formats)
    assert not any("another formats" in text for text in formats), set(formats)


def test_a_column_named_as_its_table_is_its_name_only_as_text_no_other_key_names():
    schema = schema_of(
        {
            "useracct": ["u_id", "name"],
            "trust": ["source_u_id", "target_u_id", "trust"],
            "Allergy_Type": ["Allergy", "AllergyType"],
            "Student": ["StuID", "Fname"],
        },
        primary=["useracct.u_id", "Allergy_Type.Allergy", "Student.StuID"],
        foreign=[("trust.source_u_id", "useracct.u_id")],
        types={"trust.trust": "number", "trust.source_u_id": "number", "trust.target_u_id": "number"},
        readable={"Allergy_Type.AllergyType": "allergy type"},
    )
    said = texts("SELECT count(*) FROM trust WHERE trust > 2", [[7]], schema=schema)
    assert said and not any("name" in text for text in said), set(said)
    rows = [["Bee Stings"], ["Cat"], ["Dog"], ["Grass Pollen"]]
    allergies = texts("SELECT Allergy FROM Allergy_Type WHERE AllergyType = 'food'", rows, schema=schema)
    assert allergies and not any("whose name is" in text for text in allergies), set(allergies)


def test_a_table_named_by_a_storage_word_alone_and_one_letter_words_are_not_said():
    schema = schema_of(
        {
            "list": ["LastName", "FirstName", "Grade", "Classroom"],
            "teachers": ["LastName", "FirstName", "Classroom"],
            "Video_Games": ["GameID", "GName", "GType"],
        },
        primary=["teachers.LastName", "Video_Games.GameID"],
        types={"list.Grade": "number", "list.Classroom": "number", "teachers.Classroom": "number"},
        readable={"Video_Games.GName": "g name", "Video_Games.GType": "g type"},
    )
    said = texts("SELECT FirstName FROM teachers WHERE Classroom = 107", [["CHARMAINE"]], schema=schema)
    assert not any("lists" in text for text in said), set(said)
    games = texts("SELECT GType FROM Video_Games WHERE GName = 'RNG Stone'", [["Collectible card game"]], schema=schema)
    assert not any(" g " in text for text in games), set(games)


def test_each_group_is_one_value_of_a_plural_column():
    schema = schema_of(
        {"film": ["film_id", "title", "length", "special_features"]},
        primary=["film.film_id"],
        types={"film.length": "number"},
    )
    rows = [["Trailers", 70], ["Commentaries", 66], ["Deleted Scenes", 65], ["Behind the Scenes", 68]]
    said = texts(
        "SELECT special_features, count(*) FROM film GROUP BY special_features", rows, "same_instances", schema=schema
    )
    assert not any("each special features" in text for text in said), set(said)
    assert any("each special feature" in text for text in said), set(said)


def test_a_table_named_by_words_of_the_same_stem_as_its_links_is_a_link():
    schema = schema_of(
        {
            "railway": ["Railway_ID", "Railway", "Builder"],
            "manager": ["Manager_ID", "Name", "Country"],
            "railway_manage": ["Railway_ID", "Manager_ID", "From_Year"],
        },
        primary=["railway.Railway_ID", "manager.Manager_ID", "railway_manage.Railway_ID"],
        foreign=[
            ("railway_manage.Railway_ID", "railway.Railway_ID"),
            ("railway_manage.Manager_ID", "manager.Manager_ID"),
        ],
    )
    said = texts("SELECT Railway FROM railway", [[f"R{n}"] for n in range(10)], "different_entity", schema=schema)
    assert any("the managers instead" in text for text in said), set(said)
    assert not any("railway manages" in text for text in said), set(said)


def _said_with_figures(sql, rows, category, schema, figures):
    """`texts`, with the columns' figures given."""
    result = {"rows": rows, "truncated": False, "total_rows": None}
    found = []
    for seed in range(60):
        try:
            found.append(
                recommend(
                    sql,
                    schema,
                    category=category,
                    rng=random.Random(seed),
                    result=result,
                    statistics=lambda table, column: figures.get((table, column)),
                    values=lambda table, column: [],
                ).text
            )
        except IntentError:
            continue
    return found


CLINIC = schema_of(
    {
        "diagnosis": ["icd_code", "description", "chapter", "chronic"],
        "patient": ["patient_id", "patient_name", "birth_year", "smoker"],
    },
    primary=["diagnosis.icd_code", "patient.patient_id"],
    types={"diagnosis.chronic": "number", "patient.birth_year": "number", "patient.smoker": "number"},
)
CLINIC_FIGURES = {
    ("diagnosis", "chronic"): {"rows": 16, "distinct": 2, "min": 0, "max": 1},
    ("patient", "smoker"): {"rows": 300, "distinct": 2, "min": 0, "max": 1},
    ("patient", "birth_year"): {"rows": 320, "distinct": 60, "min": 1930, "max": 2020},
}


def test_a_number_column_of_zeros_and_ones_is_a_yes_no_condition():
    rows = [["Circulatory"], ["Skin"], ["Circulatory"], ["Respiratory"]]
    sql = "SELECT chapter FROM diagnosis WHERE chronic = 1"
    widen = _said_with_figures(sql, rows, "different_instances", CLINIC, CLINIC_FIGURES)
    assert widen and not any("chronic is" in text or "chronic flag" in text for text in widen), set(widen)
    assert any("being chronic" in text or "that are not chronic" in text for text in widen), set(widen)
    shown = [[f"Patient {n}"] for n in range(8)]
    details = _said_with_figures("SELECT patient_name FROM patient", shown, "same_instances", CLINIC, CLINIC_FIGURES)
    assert not any("their smoker" in text for text in details), set(details)
    narrow = _said_with_figures(
        "SELECT patient_name FROM patient", shown, "different_instances", CLINIC, CLINIC_FIGURES
    )
    assert any("that are smokers" in text for text in narrow), set(narrow)
    # without figures nothing says it is a yes/no: a number stays a number
    plain = texts("SELECT patient_name FROM patient", shown, "same_instances", schema=CLINIC)
    assert any("their smoker" in text for text in plain), set(plain)


def test_no_alphabetical_order_of_names_already_a_to_z_no_count_per_group_of_one_row_and_a_postcode_is_no_patient():
    schema = schema_of(
        {
            "medication": ["medication_id", "drug_name", "dosage_form"],
            "department": ["dept_code", "dept_name", "floor_no", "wing"],
            "patient": ["patient_id", "patient_name", "postcode"],
            "doctor": ["doctor_id", "doctor_name"],
            "appointment": ["appointment_id", "patient_id", "doctor_id"],
        },
        primary=["medication.medication_id", "department.dept_code", "patient.patient_id", "doctor.doctor_id"]
        + ["appointment.appointment_id"],
        foreign=[("appointment.patient_id", "patient.patient_id"), ("appointment.doctor_id", "doctor.doctor_id")],
        types={"department.floor_no": "number"},
    )
    names = [["Amlodipine"], ["Apixaban"], ["Azithromycin"], ["Bisoprolol"], ["Cetirizine"], ["Diazepam"]]
    union = "SELECT drug_name FROM medication WHERE dosage_form = 'inhaler' UNION SELECT drug_name FROM medication"
    said = texts(union, names, "display", schema=schema)
    assert not any("alphabetically by their drug name" in text for text in said), set(said)
    shuffled = texts("SELECT drug_name FROM medication", names[::-1], "display", schema=schema)
    assert any("alphabetically by their drug name" in text for text in shuffled), set(shuffled)
    one = texts("SELECT dept_name FROM department WHERE floor_no = 4", [["Respiratory medicine"]], schema=schema)
    assert not any("per wing" in text for text in one), set(one)
    grouped = (
        "SELECT T1.postcode, count(DISTINCT T3.doctor_id) FROM patient AS T1 JOIN appointment AS T2"
        " ON T1.patient_id = T2.patient_id JOIN doctor AS T3 ON T2.doctor_id = T3.doctor_id GROUP BY T1.postcode"
    )
    per = texts(grouped, [["AB1", 3], ["CD2", 5], ["EF3", 2], ["GH4", 4], ["IJ5", 1], ["KL6", 6]], schema=schema)
    assert not any("each patient" in text for text in per), set(per)
