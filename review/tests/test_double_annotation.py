"""Blind double annotation (docs/double_annotation.md): a reproducible draw, a labeller who never sees the first labels,
the agreement figures on a small crafted set (computed again here, by hand), adjudication as a review correction, and
who may open which page."""

import sqlite3
from collections import Counter

import pytest
from django.urls import reverse

from dialogs.models import Event, EventKind
from review.double import selectors
from review.double.models import DoubleAdjudication, DoubleItem, DoubleSample
from review.double.services import (
    DoubleError,
    double_adjudicate,
    double_label,
    double_sample_draw,
    item_token,
    item_turn,
)
from review.passes.services import ReviewError, review_claim, review_claim_next, review_correct, review_sync
from review.records import dialogue_record_of
from tests.double_builders import labeller_named

pytestmark = pytest.mark.django_db

COUNT_SQL = "SELECT count(*) FROM student"
AGE_SQL = "SELECT age FROM student"
DORM_SQL = "SELECT dorm_name FROM dorm WHERE student_capacity > 100"


@pytest.fixture
def dina(db):
    """Dina is an expert who labels a second time."""
    return labeller_named("dina")


@pytest.fixture
def dmitri(db):
    """Dmitri is a reviewer who labels a second time."""
    return labeller_named("dmitri", "reviewer")


@pytest.fixture
def collected(open_room):
    """Two dialogues of Alice and Erin on dorm_demo, in review: four labelled turns in all."""
    room = open_room("dorm_demo")
    first = room.ask("How many students are there?")
    room.answer(first, COUNT_SQL)
    room.send(room.dialogue.expert, type="turn_labels", turn=first, pragmatics="主动", question_style="疑问句")
    room.send(room.dialogue.expert, type="turn_labels", turn=first, contextual_phenomena=["Context Independent"])
    second = room.ask("And their age?")
    room.answer(second, AGE_SQL)
    link = {"beg": 2, "end": 2, "type": "column", "entity": {"columnId": 4, "value": "age"}}
    room.send(
        room.dialogue.expert,
        type="turn_labels",
        turn=second,
        contextual_phenomena=["Ellipsis Continuation"],
        question_style="疑问句",
        schema_linking=[link],
        thematic_relations=["theme_entity"],
    )
    thanks = room.ask("Thanks!")
    room.reply(thanks, "You are welcome.")
    one = room.end(approve=False)
    other = open_room("dorm_demo")
    dorms = other.ask("Which dorms hold more than 100 students?")
    other.answer(dorms, DORM_SQL)
    other.send(other.dialogue.expert, type="turn_labels", turn=dorms, question_style="疑问句")
    two = other.end(approve=False)
    review_sync()
    return {"A": (one, [first, second, thanks]), "B": (two, [dorms])}


def _draw(ada, person, **options):
    options.setdefault("size", 4)
    options.setdefault("seed", 11)
    return double_sample_draw(admin=ada, labeller=person, **options)


def _keys(sample):
    return [(item.dialogue_id, item.turn) for item in sample.items.order_by("position")]


# --- The draw ------------------------------------------------------------------------------------------------------


def test_the_same_filters_and_seed_draw_the_same_turns_and_other_seeds_draw_others(collected, ada, dina):
    again = [_keys(_draw(ada, dina, size=2, seed=7)) for _ in range(2)]
    assert again[0] == again[1] and len(again[0]) == 2
    drawn = {tuple(_keys(_draw(ada, dina, size=2, seed=seed))) for seed in range(10)}
    assert len(drawn) > 1  # the seed decides (four turns, six pairs)
    every = set(_keys(_draw(ada, dina, size=4)))
    one, turns = collected["A"]
    two, dorm_turns = collected["B"]
    assert every == {(one.pk, turn) for turn in turns} | {(two.pk, turn) for turn in dorm_turns}


def test_a_sample_of_dialogues_takes_every_labelled_turn_of_each_and_filters_narrow_the_draw(collected, ada, dina):
    one, turns = collected["A"]
    by_dialogue = [_keys(_draw(ada, dina, unit="dialogues", size=1, seed=seed)) for seed in range(6)]
    assert [(one.pk, turn) for turn in turns] in by_dialogue
    with pytest.raises(DoubleError, match="Asked for 5 turns, but only 4 match"):
        _draw(ada, dina, size=5)
    with pytest.raises(DoubleError, match="only 0 match"):
        _draw(ada, dina, size=1, db_id="library_demo")
    with pytest.raises(DoubleError, match="only 0 match"):
        _draw(ada, dina, size=1, mode="solo")
    # Erin collected them: she knows the labels, so nothing is drawn for her.
    with pytest.raises(DoubleError, match="only 0 match"):
        _draw(ada, one.expert, size=1)
    # An admin reads every export: never a second labeller.
    with pytest.raises(DoubleError, match="an active expert or reviewer may"):
        _draw(ada, ada, size=1)


def test_the_draw_form_says_what_is_wrong(collected, client, ada, dina):
    client.force_login(ada)
    url = reverse("review:double_draw")
    asked = {"labeller": dina.pk, "unit": "turns", "size": 2, "seed": "abc"}
    response = client.post(url, asked)
    assert response.status_code == 400 and "The seed must be a whole number" in response.content.decode()
    response = client.post(url, {**asked, "seed": 3, "size": 50})
    assert response.status_code == 400 and "Asked for 50 turns, but only 4 match" in response.content.decode()
    response = client.post(url, {**asked, "seed": 3})
    sample = DoubleSample.objects.get()
    assert response.status_code == 302 and response.url == reverse("review:double_sample", args=[sample.pk])
    assert (sample.seed, sample.size, sample.labeller) == (3, 2, dina)


# --- Blind labelling -----------------------------------------------------------------------------------------------


def _label_page(client, item):
    response = client.get(reverse("review:double_item", args=[item.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_labeller_sees_no_first_label_anywhere_they_can_go(collected, client, ada, dmitri):
    sample = _draw(ada, dmitri)
    one, _ = collected["A"]
    client.force_login(dmitri)
    seen = [client.get(reverse("review:double_home")).content.decode()]
    for item in sample.items.all():
        page = _label_page(client, item)
        seen.append(page)
        assert " checked" not in page  # no act, phenomenon, ... given in advance
        # Intent, pragmatics, question style: each on its empty choice (the header's language switcher is not a label).
        assert page.split("</header>", 1)[1].count(" selected") == 3
    for text in seen:
        for secret in (COUNT_SQL, AGE_SQL, DORM_SQL, "FROM student", '"columnId"'):
            assert secret not in text
    # The review screen and the review's comparison would show them: refused while a turn of the dialogue waits.
    assert client.get(reverse("review:dialogue", args=[one.pk])).status_code == 403
    compared = client.post(
        reverse("review:compare", args=[one.pk]), {"turn": 1, "sql": "SELECT 1"}, content_type="application/json"
    )
    assert compared.status_code == 403
    assert client.get(reverse("review:double_sample", args=[sample.pk])).status_code == 403
    assert client.get(reverse("review:double_sample_json", args=[sample.pk])).status_code == 403
    # Nor may they take it for review: the claim rule refuses it, and "take the next" passes it by.
    with pytest.raises(ReviewError, match="labelling this dialogue blind"):
        review_claim(reviewer=dmitri, dialogue=one)
    assert review_claim_next(reviewer=dmitri) is None  # every dialogue in review is in the sample
    # The JSON a reviewer may fetch holds no label of a turn either.
    figures = client.get(reverse("review:agreement"))
    assert figures.status_code == 200 and not any(sql in figures.content.decode() for sql in (COUNT_SQL, AGE_SQL))
    # Once every turn of that dialogue is labelled, its review screen opens again.
    for item in sample.items.filter(dialogue=one):
        turn, _ = item_turn(item)
        labels = {"user_acts": ["THANK_YOU"] if turn.sql is None else ["INFORM_SQL"], "system_acts": turn.response.acts}
        double_label(labeller=dmitri, item=item, labels=labels, token=item_token(item, turn))
    assert client.get(reverse("review:dialogue", args=[one.pk])).status_code == 200


def _post_labels(client, item, **labels):
    turn, _ = item_turn(item)
    form = {"token": item_token(item, turn), "schema_linking": "[]", **labels}
    return client.post(reverse("review:double_item", args=[item.pk]), form)


def test_labels_are_given_once_and_a_stale_form_is_refused(
    collected, client, ada, dina, rita, django_capture_on_commit_callbacks
):
    sample = _draw(ada, dina, size=1, seed=2)
    item = sample.items.get()
    client.force_login(dina)
    turn, _ = item_turn(item)
    opened = item_token(item, turn)
    assert f'value="{opened}"' in _label_page(client, item)
    acts = ["THANK_YOU"] if turn.sql is None else ["INFORM_SQL"]
    form = {"token": opened, "user_acts": acts, "system_acts": turn.response.acts, "schema_linking": "[]"}
    # While Dina reads, a reviewer corrects the question's words: her form is about words that are gone.
    review_correct(
        reviewer=rita, dialogue=item.dialogue, turn=item.turn, field="utterance", value=turn.text + " please",
        require_claim=False,
    )  # fmt: skip
    stale = client.post(reverse("review:double_item", args=[item.pk]), form)
    assert stale.status_code == 409 and "The turn changed since you opened it" in stale.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        done = _post_labels(client, item, user_acts=acts, system_acts=turn.response.acts)
    assert done.status_code == 302
    again = _post_labels(client, item, user_acts=acts, system_acts=turn.response.acts)
    assert again.status_code == 409 and "You labelled this turn already" in again.content.decode()
    item.refresh_from_db()
    assert item.second["user_acts"] == sorted(acts)
    refused = _post_labels(client, _draw(ada, dina, size=1, seed=5).items.get(), user_acts=["SHOUTING"])
    assert refused.status_code == 400


# --- The figures, computed again by hand -----------------------------------------------------------------------------

SECOND = {
    # (dialogue, turn index) -> the second person's labels
    ("A", 0): {
        "user_acts": ["INFORM_SQL"],
        "system_acts": ["CONFIRM_SQL"],
        "query": COUNT_SQL,
        "contextual_phenomena": ["Context Independent"],
        "pragmatics": "主动",
        "question_style": "陈述句",
    },
    ("A", 1): {
        "user_acts": ["INFORM_SQL", "AMBIGUOUS"],
        "system_acts": ["CONFIRM_SQL"],
        "query": "SELECT first_name FROM student",
        "contextual_phenomena": ["Coreference"],
        "intent": "display",
        "thematic_relations": ["refinement", "theme_entity"],
        "question_style": "疑问句",
        "schema_linking": [
            {"beg": 2, "end": 2, "type": "column", "entity": {"columnId": 4, "value": "age"}},
            {"beg": 1, "end": 1, "type": "table", "entity": {"tableId": 0, "value": "student"}},
        ],
    },
    ("A", 2): {"user_acts": ["THANK_YOU"], "system_acts": ["WELCOME"]},
    ("B", 0): {
        "user_acts": ["INFORM_SQL"],
        "system_acts": ["CONFIRM_SQL"],
        "query": "SELECT dorm_name FROM dorm WHERE 100 < student_capacity",
        "question_style": "疑问句",
    },
}


def _kappa(pairs):
    """Cohen's kappa, written out again: (p_o - p_e) / (1 - p_e)."""
    n = len(pairs)
    agreed = sum(a == b for a, b in pairs) / n
    first, second = Counter(a for a, _ in pairs), Counter(b for _, b in pairs)
    chance = sum(first[label] / n * second[label] / n for label in set(first) | set(second))
    return 1.0 if chance == 1 else (agreed - chance) / (1 - chance)


@pytest.fixture
def labelled(collected, ada, dina, django_capture_on_commit_callbacks):
    sample = _draw(ada, dina)
    where = {
        (dialogue.pk, turn): (key, index)
        for key, (dialogue, turns) in collected.items()
        for index, turn in enumerate(turns)
    }
    for item in sample.items.all():
        turn, _ = item_turn(item)
        with django_capture_on_commit_callbacks(execute=True):
            double_label(
                labeller=dina,
                item=item,
                labels=SECOND[where[(item.dialogue_id, item.turn)]],
                token=item_token(item, turn),
            )
    return sample, where


def _firsts(collected):
    """The first labels read straight from the dialogues: (key, index) -> turn."""
    turns = {}
    for key, (dialogue, seqs) in collected.items():
        record = dialogue_record_of(dialogue)
        for index, seq in enumerate(seqs):
            turns[(key, index)] = next(turn for turn in record.user_turns if turn.seq == seq)
    return turns


def _rows(path, sql):
    with sqlite3.connect(path) as connection:
        return Counter(tuple(row) for row in connection.execute(sql).fetchall())


def test_the_figures_on_a_crafted_set_are_the_ones_computed_by_hand(collected, labelled):
    sample, _ = labelled
    figures = selectors.sample_agreement(sample)["fields"]
    firsts = _firsts(collected)
    assert selectors.sample_agreement(sample)["labelled"] == 4

    # User acts: per-label kappa (a yes/no decision per label), and their mean.
    used = {act for key in SECOND for act in SECOND[key]["user_acts"]} | {
        act for turn in firsts.values() for act in turn.acts
    }
    per_label = {
        act: _kappa([(act in firsts[key].acts, act in SECOND[key]["user_acts"]) for key in SECOND]) for act in used
    }
    got = {row["label"]: row["kappa"] for row in figures["user_acts"]["per_label"]}
    assert got == pytest.approx(per_label, abs=1e-4)
    assert per_label["AMBIGUOUS"] == 0 and per_label["INFORM_SQL"] == 1
    assert figures["user_acts"]["kappa_mean"] == pytest.approx(sum(per_label.values()) / len(per_label), abs=1e-4)
    ambiguous = next(row for row in figures["user_acts"]["per_label"] if row["label"] == "AMBIGUOUS")
    assert (ambiguous["both"], ambiguous["first_only"], ambiguous["second_only"], ambiguous["neither"]) == (0, 0, 1, 3)

    # Contextual phenomena: a turn counts when at least one of the two gave some.
    counted = [
        (set(firsts[key].labels.get("contextual_phenomena") or []), set(SECOND[key].get("contextual_phenomena") or []))
        for key in SECOND
    ]
    counted = [(first, second) for first, second in counted if first or second]
    phenomena = figures["contextual_phenomena"]
    assert phenomena["items"] == len(counted) == 2
    by_hand = {
        name: _kappa([(name in first, name in second) for first, second in counted])
        for name in set().union(*(first | second for first, second in counted))
    }
    assert {row["label"]: row["kappa"] for row in phenomena["per_label"]} == pytest.approx(by_hand, abs=1e-4)

    # Question style (single label): Cohen's kappa and the confusion table.
    pairs = [
        (firsts[key].labels.get("question_style") or "(none)", SECOND[key].get("question_style") or "(none)")
        for key in SECOND
        if firsts[key].labels.get("question_style") or SECOND[key].get("question_style")
    ]
    style = figures["question_style"]
    assert style["items"] == len(pairs) == 3
    assert style["kappa"] == pytest.approx(_kappa(pairs), abs=1e-4)
    confusion = {row["label"]: dict(zip(style["labels"], row["counts"], strict=True)) for row in style["confusion"]}
    assert confusion["疑问句"]["陈述句"] == 1 and confusion["疑问句"]["疑问句"] == 2

    # Intent (the first is the expert's, else the detected one, as a release writes it).
    intent_pairs = [
        ((firsts[key].labels.get("intent") or {}).get("category") or "(none)", SECOND[key].get("intent") or "(none)")
        for key in SECOND
    ]
    intent_pairs = [pair for pair in intent_pairs if pair != ("(none)", "(none)")]
    assert figures["intent"]["items"] == len(intent_pairs)
    if intent_pairs:
        assert figures["intent"]["kappa"] == pytest.approx(_kappa(intent_pairs), abs=1e-4)

    # SQL by execution on the dialogue's file, computed here with sqlite3 directly.
    path = collected["A"][0].database_path
    matches = [
        _rows(path, firsts[key].sql) == _rows(path, SECOND[key]["query"]) for key in SECOND if SECOND[key].get("query")
    ]
    sql = figures["query"]
    assert sql["waiting"] == 0
    assert (sql["execution_match"], sql["execution_items"]) == (sum(matches), len(matches)) == (2, 3)
    # On the test suite: the same query, and one written the other way round, mean the same; count vs names do not.
    assert (sql["suite_match"], sql["suite_items"]) == (2, 3)

    # Schema links: one span of the first's two... the second gave two, one of them the first's only span.
    links = figures["schema_linking"]
    precision, recall = 1 / 2, 1 / 1
    assert (links["precision"], links["recall"]) == (precision, recall)
    assert links["f1"] == pytest.approx(2 * precision * recall / (precision + recall), abs=1e-4)


def test_the_disagreements_list_each_field_and_an_adjudication_becomes_a_correction(
    collected, labelled, ada, rita, dina, dmitri
):
    sample, where = labelled
    rows = selectors.disagreements(sample)
    fields = {(where[(row["item"].dialogue_id, row["item"].turn)], row["field"]) for row in rows}
    assert {(("A", 0), "question_style"), (("A", 1), "user_acts"), (("A", 1), "query")} <= fields
    assert (("B", 0), "query") not in fields and (("A", 0), "query") not in fields
    # Erin gave the question styles; nobody gave an intent here, so any first intent is the platform's detection.
    assert all(not row["first_detected"] for row in rows if row["field"] == "question_style")
    intents = [row for row in rows if row["field"] == "intent"]
    assert intents and all(row["first_detected"] for row in intents) and intents[0]["second"] == "display"
    item = next(row["item"] for row in rows if row["field"] == "question_style")
    dialogue = item.dialogue

    settled = double_adjudicate(adjudicator=rita, item=item, field="question_style", choice="second", note="a request")
    correction = Event.objects.get(dialogue=dialogue, kind=EventKind.CORRECTION, seq=settled.correction_seq)
    assert correction.author == rita and correction.author_role == "reviewer"
    assert (correction.payload["field"], correction.payload["old"], correction.payload["new"]) == (
        "question_style",
        "疑问句",
        "陈述句",
    )
    turn = next(turn for turn in dialogue_record_of(dialogue).user_turns if turn.seq == item.turn)
    assert turn.labels["question_style"] == "陈述句" and turn.original_value("question_style") == "疑问句"
    with pytest.raises(DoubleError, match="settled already"):
        double_adjudicate(adjudicator=rita, item=item, field="question_style", choice="first")

    acts = next(row["item"] for row in rows if row["field"] == "user_acts")
    kept = double_adjudicate(adjudicator=rita, item=acts, field="user_acts", choice="first")
    assert kept.correction_seq is None  # the dialogue holds the first label already: nothing to correct
    assert DoubleAdjudication.objects.count() == 2
    with pytest.raises(DoubleError, match="may not adjudicate"):
        double_adjudicate(adjudicator=dina, item=acts, field="query", choice="second")
    with pytest.raises(DoubleError, match="do not disagree"):
        double_adjudicate(adjudicator=rita, item=acts, field="pragmatics", choice="second")
    # A reviewer may adjudicate, but never a sample they labelled.
    own = _draw(ada, dmitri, size=1).items.get()
    with pytest.raises(DoubleError, match="someone else adjudicates"):
        double_adjudicate(adjudicator=dmitri, item=own, field="query", choice="second")


def test_thematic_relations_are_labelled_on_follow_ups_compared_and_adjudicated(
    collected, labelled, client, ada, rita, dmitri
):
    sample, where = labelled
    figure = selectors.sample_agreement(sample)["fields"]["thematic_relations"]
    # Only the follow-up ("And their age?") has some: theme-entity from both, refinement from the second alone.
    assert (figure["items"], figure["agreed"]) == (1, 0)
    counts = {row["label"]: (row["both"], row["first_only"], row["second_only"]) for row in figure["per_label"]}
    assert counts == {"refinement": (0, 0, 1), "theme_entity": (1, 0, 0)}
    rows = [row for row in selectors.disagreements(sample) if row["field"] == "thematic_relations"]
    assert [where[(row["item"].dialogue_id, row["item"].turn)] for row in rows] == [("A", 1)]
    settled = double_adjudicate(adjudicator=rita, item=rows[0]["item"], field="thematic_relations", choice="second")
    dialogue = settled.item.dialogue
    correction = Event.objects.get(kind=EventKind.CORRECTION, seq=settled.correction_seq, dialogue=dialogue)
    assert (correction.payload["old"], correction.payload["new"]) == (["theme_entity"], ["refinement", "theme_entity"])

    # A first question has no earlier question to relate to: its page does not ask, and the server refuses one.
    fresh = {where[(item.dialogue_id, item.turn)]: item for item in _draw(ada, dmitri).items.all()}
    client.force_login(dmitri)
    assert 'data-testid="thematic"' in _label_page(client, fresh[("A", 1)])
    assert 'data-testid="thematic"' not in _label_page(client, fresh[("A", 0)])
    first = {"user_acts": ["INFORM_SQL"], "system_acts": ["CONFIRM_SQL"]}
    refused = _post_labels(client, fresh[("A", 0)], **first, thematic_relations=["refinement"])
    assert refused.status_code == 400 and "this is the first" in refused.content.decode()
    fresh[("A", 0)].refresh_from_db()
    assert fresh[("A", 0)].second is None


def test_an_adjudicator_settles_a_disagreement_on_the_page(collected, labelled, client, rita):
    sample, _ = labelled
    client.force_login(rita)
    page = client.get(reverse("review:double_sample", args=[sample.pk])).content.decode()
    assert "execution match" in page and 'data-testid="disagreements"' in page
    figures = client.get(reverse("review:double_sample_json", args=[sample.pk])).json()
    assert figures["fields"] == selectors.sample_agreement(sample)["fields"]
    assert {(row["field"], row["second"]) for row in figures["disagreements"]} >= {
        ("question_style", "陈述句"),
        ("query", "SELECT first_name FROM student"),
    }
    row = next(row for row in selectors.disagreements(sample) if row["field"] == "query")
    response = client.post(
        reverse("review:double_adjudicate", args=[row["item"].pk]), {"field": "query", "choice": "second"}
    )
    assert response.status_code == 302
    settled = DoubleAdjudication.objects.get(item=row["item"], field="query")
    assert settled.adjudicator == rita and settled.correction_seq
    record = dialogue_record_of(row["item"].dialogue)
    assert next(t for t in record.user_turns if t.seq == row["item"].turn).sql == "SELECT first_name FROM student"


# --- Who may open what ---------------------------------------------------------------------------------------------


def test_every_url_refuses_a_worker_and_the_wrong_people(collected, client, ada, dina, rita, alice):
    sample = _draw(ada, dina, size=2, seed=1)
    item = sample.items.first()
    urls = [
        ("get", reverse("review:double_home")),
        ("post", reverse("review:double_draw")),
        ("get", reverse("review:double_sample", args=[sample.pk])),
        ("get", reverse("review:double_sample_json", args=[sample.pk])),
        ("post", reverse("review:double_compare_waiting", args=[sample.pk])),
        ("get", reverse("review:double_label_next", args=[sample.pk])),
        ("get", reverse("review:double_item", args=[item.pk])),
        ("post", reverse("review:double_item", args=[item.pk])),
        ("post", reverse("review:double_adjudicate", args=[item.pk])),
    ]
    for method, url in urls:
        assert getattr(client, method)(url).status_code == 302  # anonymous: to the sign-in page
    client.force_login(alice)
    for method, url in urls:
        assert getattr(client, method)(url).status_code == 403, url
    client.force_login(dina)  # the labeller: her own pages only
    assert client.get(reverse("review:double_item", args=[item.pk])).status_code == 200
    for method, url in [urls[1], urls[2], urls[3], urls[4], urls[8]]:
        assert getattr(client, method)(url).status_code == 403, url
    client.force_login(rita)  # a reviewer: adjudicates, labels nothing of Dina's, draws nothing
    assert client.get(reverse("review:double_sample", args=[sample.pk])).status_code == 200
    assert client.get(reverse("review:double_sample_json", args=[sample.pk])).status_code == 200
    for method, url in [urls[1], urls[4], urls[5], urls[6], urls[7]]:
        assert getattr(client, method)(url).status_code == 403, url
    with pytest.raises(DoubleError):
        double_sample_draw(admin=rita, labeller=dina, size=1, seed=1)
    with pytest.raises(DoubleError):
        double_label(labeller=rita, item=item, labels={}, token="")
    assert DoubleItem.objects.filter(second__isnull=False).count() == 0


def test_the_sample_page_reads_the_same_number_of_queries_whatever_its_size(collected, labelled, client, ada, dina):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    big, _ = labelled
    small = _draw(ada, dina, size=1, seed=3)
    item = small.items.get()
    turn, _ = item_turn(item)
    double_label(
        labeller=dina,
        item=item,
        labels={"user_acts": ["NEGATE"], "system_acts": ["REJECT"]},
        token=item_token(item, turn),
    )
    client.force_login(ada)
    counts = []
    for sample in (small, big):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("review:double_sample", args=[sample.pk])).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_a_release_holding_labelled_dialogues_reports_their_agreement_in_its_report_folder(
    collected, labelled, tmp_path
):
    """The export's report/ folder: each round over the release's dialogues, as JSON, CSV and SVG; none without one."""
    import csv
    import io
    import json

    from review.dataset.services import dataset_build, export_options_clean
    from review.records import SELECTION_STATUS_VALUES

    sample, _ = labelled
    (one, _), (two, _) = collected["A"], collected["B"]
    options = export_options_clean(formats=["sparc"], statuses=list(SELECTION_STATUS_VALUES),
                                   split_map={"dorm_demo": "dev"})  # fmt: skip
    report = dataset_build(options=options, out_dir=tmp_path / "with")
    folder = tmp_path / "with" / "report"
    [round_] = json.loads((folder / "double_annotation.json").read_text(encoding="utf-8"))
    assert round_["sample"] == sample.pk and round_["labelled"] == 4 and "labeller" not in round_
    assert round_["fields"] == json.loads(json.dumps(selectors.sample_agreement(sample, [one.pk, two.pk])["fields"]))
    assert round_["fields"] == json.loads(json.dumps(selectors.sample_agreement(sample)["fields"]))  # all released
    rows = list(csv.DictReader(io.StringIO((folder / "double_annotation.csv").read_text(encoding="utf-8"))))
    assert [row["field"] for row in rows] == list(round_["fields"])
    style = next(row for row in rows if row["field"] == "question_style")
    assert float(style["observed"]) == round_["fields"]["question_style"]["observed"]
    assert (folder / "double_annotation.svg").read_text(encoding="utf-8").startswith("<?xml")
    assert report["files"][-3:] == [f"report/double_annotation.{suffix}" for suffix in ("json", "csv", "svg")]
    assert not report["report_folder"]["failed"]
    # Over one dialogue of the round, the figures are that dialogue's turns alone.
    assert selectors.release_rounds([two.pk])[0]["labelled"] == 1
    assert selectors.release_rounds([]) == []
    DoubleItem.objects.update(second=None)  # no turn labelled a second time: no round to report
    dataset_build(options=options, out_dir=tmp_path / "without")
    assert not (tmp_path / "without" / "report" / "double_annotation.json").exists()


def test_a_refusal_is_worded_in_the_persons_language(collected, ada, dina):
    from django.utils import translation

    with translation.override("zh-hans"), pytest.raises(DoubleError, match="要求 5 个轮次，但只有 4 个符合"):
        _draw(ada, dina, size=5)
    with pytest.raises(DoubleError, match="Asked for 5 turns, but only 4 match"):
        _draw(ada, dina, size=5)
