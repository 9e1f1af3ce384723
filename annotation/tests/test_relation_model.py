"""The learned intent category (annotation/labels/relation_model.py): the committed model loads and predicts, reads the
questions' words only when given, falls back to the rules without a model, and `sql_relation --learned` reads lines
with and without the question columns. Conformance with CHASE's labels is measured in bench/relations_cv.py; here
only floors that catch a broken model."""

import json
import logging
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from annotation.labels.acts import check_intent
from annotation.labels.relation_features import question_features, question_sql_features, sql_features
from annotation.labels.relation_model import (
    MODEL_PATH,
    SQL_ONLY,
    WITH_WORDS,
    IntentLabel,
    RelationModel,
    forget_loaded_models,
    label_intent,
    loaded_model,
    pair_features,
)
from annotation.labels.relations import CATEGORIES, detect_relation, read_pair
from annotation.tests.test_relations import DEFINITIONS, LIBRARY, SCHOOL, SHARED_DIR

ASKED = "select name from student"
FOLLOW_UP = "select name, age from student"
FRENCH_DORMS = (
    "select T2.dorm_name from student as T1 join dorm as T2 on T1.dorm_id = T2.dorm_id where T1.country = 'France'"
)


@pytest.fixture(autouse=True)
def _fresh_models():
    forget_loaded_models()
    yield
    forget_loaded_models()


def test_the_committed_model_is_small_plain_json_with_both_variants():
    assert MODEL_PATH.stat().st_size < 1_000_000
    document = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    model = RelationModel(document)
    assert set(model.variants) == {SQL_ONLY, WITH_WORDS}
    assert list(model.classes) == list(CATEGORIES)


def test_the_model_labels_a_pair_and_keeps_the_rules_relations():
    label = label_intent(ASKED, FOLLOW_UP, SCHOOL)
    assert label.source == SQL_ONLY
    assert label.category in CATEGORIES
    assert label.relations == detect_relation(ASKED, FOLLOW_UP, SCHOOL).relations
    # A plain added column is the commonest Same Instances change: a model that gets it wrong is broken.
    assert label.category == "same_instances"


@pytest.mark.parametrize(("previous", "current", "expected"), DEFINITIONS[::4])
def test_a_learned_label_is_always_a_valid_intent_label(previous, current, expected):
    # The model may choose another category than the relations' (CHASE's annotators often did): the relations it
    # keeps are those of its category, so the expert can save the label as proposed.
    for question in (None, "它们呢？", "按年份排序"):
        label = label_intent(previous, current, LIBRARY, current_question=question)
        assert check_intent(label.as_dict()) == label.as_dict()
        assert set(label.relations) <= set(label.rule_relations) == {expected}


def test_the_questions_words_count_when_given_and_only_then():
    reading = read_pair(ASKED, FOLLOW_UP, SCHOOL)
    bare, variant = pair_features(reading, None, None)
    assert variant == SQL_ONLY and not any(name.startswith("q:") for name in bare)
    worded, variant = pair_features(reading, "有哪些学生？", "他们的年龄分别是多少？")
    assert variant == WITH_WORDS and "q:年龄" in worded and "both:学生" not in worded
    model = loaded_model()
    assert model.probabilities(bare, SQL_ONLY) != model.probabilities(worded, WITH_WORDS)
    assert label_intent(ASKED, FOLLOW_UP, SCHOOL, current_question="他们的年龄分别是多少？").source == WITH_WORDS
    # A previous question alone, or a blank current one, is no question to read.
    assert label_intent(ASKED, FOLLOW_UP, SCHOOL, previous_question="有哪些学生？").source == SQL_ONLY
    assert label_intent(ASKED, FOLLOW_UP, SCHOOL, current_question="  ").source == SQL_ONLY


def test_question_features_are_character_ngrams_of_any_script():
    features = question_features("Which students?", "Sort the students by age")
    assert {"q:s", "q:so", "q:sor", "both:st", "both:stu"} <= set(features)
    assert "q:sort the" not in features  # spaces separate n-grams
    assert question_features("前一个问题", None) == {}


def test_sql_features_pair_filters_by_column_and_follow_values_and_tables():
    kept_column = sql_features(
        read_pair(
            "select name from student where country = 'France'", "select name from student where country = 'Peru'"
        )
    )
    assert kept_column["filter_column:value_changed"] == 1 and kept_column["filter_column:only_values_changed"] == 1
    assert kept_column["values:none_kept"] == 1 and kept_column["values:new"] == 1
    joined = sql_features(read_pair("select name from student where country = 'France'", FRENCH_DORMS, SCHOOL))
    assert joined["filter_column:same_test"] == 1 and joined["filter_column:value_changed"] == 0
    assert joined["values:all_kept"] == 1 and joined["tables:only_added"] == 1
    assert joined["shown:only_new_tables"] == 1 and joined["entity:previous_still_joined"] == 1


def test_question_sql_features_say_whether_the_question_names_what_changed():
    reading = read_pair("select name from student where country = 'France'", FRENCH_DORMS, SCHOOL)
    referring = question_sql_features(reading, "Students from France?", "Which dorms do they live in?")
    assert referring["said:kept_value_unsaid"] == 1 and referring["said:joined_table"] == 1
    restating = question_sql_features(reading, "Students from France?", "Dorm names of the students from France")
    assert restating["said:kept_value"] == 1 and restating["said:kept_value_unsaid"] == 0
    assert question_sql_features(reading, "Students from France?", None) == {}
    assert "p:fr" in question_features("Students from France?", "Which dorms?")


def test_the_cue_words_experiment_names_how_a_chinese_question_refers_back_or_adds():
    # bench/relation_cues.py (docs/chase.md: tried, not kept) must keep reading what it says, for the measurement.
    from bench.relation_cues import question_cues

    assert question_cues("它们的年龄分别是多少？") >= {"them", "each", "count"}
    assert question_cues("其中有哪些在北京？") >= {"among"} and "them" not in question_cues("其中有哪些在北京？")
    assert {"other", "also"} <= question_cues("还有其他的公司吗？")
    assert {"and_or", "comparative"} <= question_cues("比他大的学生和老师有哪些？")
    assert question_cues("那女生呢？") >= {"what_about", "short"}
    assert "short" not in question_cues("列出所有在北京工作并且年龄超过三十岁的老师的名字")
    assert question_cues(None) == set() and question_cues("？") == set()


def test_the_cue_words_experiment_crosses_the_cues_with_what_the_sql_changed():
    from bench.relation_cues import question_cue_features

    united = read_pair(ASKED, f"{ASKED} union select dorm_name from dorm", SCHOOL)
    sql = sql_features(united)
    assert sql["set_operation:added"] == 1
    features = question_cue_features(sql, "有哪些学生？", "学生和宿舍的名字")
    assert features["said:cue:and_or"] == 1 and features["said:cue:and_or|set_operation:added"] == 1
    assert features[f"said:cue:and_or|rules:{united.relation.category}"] == 1
    assert "said:previous_cue:and_or" not in features and "said:cue:and_or|changed:order" not in features
    assert question_cue_features(sql, "有哪些学生和宿舍？", "学生和宿舍的名字")["said:previous_cue:and_or"] == 1
    assert question_cue_features(sql, "有哪些学生？", None) == {}
    # The platform's model does not read them.
    worded, _ = pair_features(united, "有哪些学生？", "学生和宿舍的名字")
    assert not any(name.startswith("said:cue") for name in worded)


@pytest.mark.parametrize("content", [None, "not json", '{"format": "something else"}'])
def test_without_a_readable_model_the_rules_decide_and_say_so(tmp_path, caplog, content):
    path = tmp_path / "model.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="annotation.labels.relation_model"):
        label = label_intent(ASKED, "select course_name from course", SCHOOL, model_path=path)
        again = label_intent(ASKED, FOLLOW_UP, SCHOOL, current_question="年龄", model_path=path)
    assert (label.category, label.source) == ("different_entity", "rules")
    assert (again.category, again.source) == ("same_instances", "rules")
    warnings = [record for record in caplog.records if "cannot be read" in record.getMessage()]
    assert len(warnings) == 1  # once per process, not once per turn


def test_a_tiny_model_fitted_here_is_read_back_and_predicts():
    pytest.importorskip("sklearn")
    from bench.relation_training import fit_document

    pairs = [
        (previous, current, "different_entity" if expected == "R13" else "same_instances")
        for previous, current, expected in DEFINITIONS
    ]
    sql_rows = [sql_features(read_pair(previous, current, LIBRARY)) for previous, current, _ in pairs]
    word_rows = [
        question_features("books", "authors" if label == "different_entity" else "books") for *_, label in pairs
    ]
    document = fit_document(sql_rows, word_rows, [label for *_, label in pairs], "smoke")
    model = RelationModel(json.loads(json.dumps(document)))
    assert model.predict(sql_rows[-1], SQL_ONLY) == "different_entity"
    assert model.predict({**sql_rows[0], **word_rows[0]}, WITH_WORDS) == "same_instances"


# ---------------------------------------------------------------------------------------------------------------
# manage.py sql_relation --learned
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_sql_relation_reads_lines_with_and_without_the_question_columns(tmp_path):
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text(
        f"{ASKED}\t{FOLLOW_UP}\n"
        f"{ASKED}\t{FOLLOW_UP}\tWhich students are there?\tAnd their ages?\n"
        f"{ASKED}\t{FOLLOW_UP}\tonly one question\n",
        encoding="utf-8",
    )
    out = StringIO()
    call_command("sql_relation", "--file", str(pairs), "--learned", stdout=out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[0]["relations"] == ["R1"] and lines[0]["learned"]["source"] == SQL_ONLY
    assert lines[1]["relations"] == ["R1"] and lines[1]["learned"]["source"] == WITH_WORDS
    assert lines[0]["learned"]["category"] in CATEGORIES and lines[1]["learned"]["category"] in CATEGORIES
    assert "found 2" in lines[2]["error"]
    plain = StringIO()
    call_command("sql_relation", "--file", str(pairs), stdout=plain)
    first, second, _ = [json.loads(line) for line in plain.getvalue().splitlines()]
    # Without --learned a line is what it always was, question columns or not.
    assert first == {"line": 1, "category": "same_instances", "relations": ["R1"]}
    assert second == {"line": 2, "category": "same_instances", "relations": ["R1"]}


# ---------------------------------------------------------------------------------------------------------------
# Conformance: the committed model on the public CHASE sample (dev databases, never in the training split)
# ---------------------------------------------------------------------------------------------------------------

# Measured 123/178 = 69.1% (SQL) and 125/178 = 70.2% (with the questions) when the model was built; the rules, written
# on this very sample, get 72.5% here. The held-out figure on unseen databases is bench/relations_cv.py's.
MODEL_SAMPLE_FLOOR = 0.65


def _shared(*parts: str) -> Path:
    path = SHARED_DIR.joinpath(*parts)
    if not path.exists():
        pytest.fail(f"conformance data missing: {path} (the public samples live in ../shared)", pytrace=False)
    return path


@pytest.mark.conformance
def test_the_model_agrees_with_chase_on_the_samples_unseen_databases():
    from annotation.labels.acts import INTENT_CATEGORY_OF_CHASE_LABEL

    schemas = {
        schema["db_id"]: schema
        for schema in json.loads(_shared("samples", "chase_tables_sample.json").read_text(encoding="utf-8"))
    }
    interactions = json.loads(_shared("samples", "chase_dev_sample.json").read_text(encoding="utf-8"))
    sql_only = worded = total = 0
    for interaction in interactions:
        schema = schemas[interaction["database_id"]]
        turns = interaction["interaction"]
        for previous, current in zip(turns, turns[1:], strict=False):
            gold = INTENT_CATEGORY_OF_CHASE_LABEL.get(current.get("intent"))
            if gold is None:
                continue
            total += 1
            sql_only += label_intent(previous["query"], current["query"], schema).category == gold
            worded += (
                label_intent(
                    previous["query"],
                    current["query"],
                    schema,
                    previous_question=previous["utterance"],
                    current_question=current["utterance"],
                ).category
                == gold
            )
    assert total > 150
    assert sql_only / total >= MODEL_SAMPLE_FLOOR and worded / total >= MODEL_SAMPLE_FLOOR


@pytest.mark.conformance
def test_the_committed_corrections_are_the_definition_rules_applied_to_every_pair(tmp_path):
    # The list is the rules' output, not a choice: rebuilt from the corpus, it is the committed file line for line.
    from bench.chase_corpus import labelled_corpus_pairs
    from bench.relation_model_build import CORRECTIONS_PATH, write_corrections

    _shared("corpora", "chase_train.json")
    pairs = labelled_corpus_pairs(SHARED_DIR)
    assert len(pairs) == 3804
    rebuilt = tmp_path / "corrections.csv"
    count = write_corrections(pairs, rebuilt)
    assert rebuilt.read_text(encoding="utf-8") == CORRECTIONS_PATH.read_text(encoding="utf-8")
    assert 0 < count < len(pairs) // 10


# ---------------------------------------------------------------------------------------------------------------
# The room's detected labels
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_rooms_detected_intent_is_learned_only_when_the_previous_question_is_given(monkeypatch):
    from annotation.models import Database
    from dialogs import assist

    database = Database.objects.create(db_id="school", file="", schema=SCHOOL)
    result = {"ok": True, "columns": ["name", "age"], "rows": [["Ann", 20]], "truncated": False}
    # A stand-in model answer that the rules would never give shows which of the two decided.
    monkeypatch.setattr(assist, "label_intent", lambda *args, **kwargs: IntentLabel("display", (), "sql+words"))
    common = {"database": database, "utterance": "And their ages?", "sql": FOLLOW_UP, "result": result}
    rules = assist.labels_detected(**common, previous_sql=ASKED)
    learned = assist.labels_detected(**common, previous_sql=ASKED, previous_utterance="Which students are there?")
    assert rules["intent"] == {"category": "same_instances", "relations": ["R1"]}
    assert learned["intent"] == {"category": "display", "relations": []}
