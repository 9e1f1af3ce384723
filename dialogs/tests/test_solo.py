"""Solo sequences (SParC, CHASE-C): one expert writes questions and their SQL; the log, the pages and the exports."""

import json

import pytest
from django.urls import reverse

from annotation.models import Database
from dialogs import lobby, room, solo
from dialogs.errors import DialogueError
from dialogs.models import Dialogue, DialogueStatus, Event, EventKind
from tests.builders import expert_ready

pytestmark = pytest.mark.django_db

QUESTIONS = [
    ("Which students are there?", "SELECT first_name, age FROM student"),
    ("Only those older than 20?", "SELECT first_name, age FROM student WHERE age > 20"),
    ("Sort them by age.", "SELECT first_name, age FROM student WHERE age > 20 ORDER BY age"),
]


@pytest.fixture
def dorm(demo_databases):
    return Database.objects.get(db_id="dorm_demo")


@pytest.fixture
def sequence(dorm, erin):
    return solo.solo_create(expert=erin, database=dorm)


def add(sequence, erin, question, sql, request_id=None):
    return solo.solo_turn_add(
        dialogue=sequence, person=erin, question=question, sql=sql, request_id=request_id or question[:40]
    )


def test_a_question_is_recorded_as_a_room_records_a_turn(sequence, erin):
    turn = add(sequence, erin, *QUESTIONS[0])
    kinds = list(Event.objects.filter(dialogue=sequence, seq__gt=1).order_by("seq").values_list("kind", flat=True))
    assert kinds == [
        EventKind.SQL_RUN,
        EventKind.UTTERANCE,
        EventKind.USER_ACTS,
        EventKind.RESULT_SHARED,
        EventKind.TURN_LABELS,
        EventKind.RESPONSE,
        EventKind.RECOMMENDATION,
    ]
    utterance = Event.objects.get(dialogue=sequence, seq=turn)
    assert utterance.author == erin and utterance.author_role == "worker"  # the author writes the user's side
    response = Event.objects.get(dialogue=sequence, kind=EventKind.RESPONSE)
    assert response.payload["draft"] == "kept" and response.payload["acts"] == ["CONFIRM_SQL"]


def test_a_repeated_request_stores_nothing_new(sequence, erin):
    first = add(sequence, erin, *QUESTIONS[0], request_id="r1")
    count = Event.objects.filter(dialogue=sequence).count()
    assert add(sequence, erin, *QUESTIONS[0], request_id="r1") == first
    assert Event.objects.filter(dialogue=sequence).count() == count


def test_a_question_whose_sql_fails_is_refused(sequence, erin):
    with pytest.raises(DialogueError) as caught:
        add(sequence, erin, "Which dragons?", "SELECT name FROM dragons")
    assert caught.value.code == "invalid" and "fails" in caught.value.message
    assert not Event.objects.filter(dialogue=sequence, kind=EventKind.UTTERANCE).exists()


def test_the_sequence_finishes_at_its_minimum_and_needs_no_score(sequence, erin, settings):
    settings.SOLO_MIN_QUESTIONS = 2
    add(sequence, erin, *QUESTIONS[0])
    end = {"id": "end-1", "type": "end"}
    with pytest.raises(DialogueError) as caught:
        room.dialogue_post(dialogue=sequence, person=erin, message=end)
    assert caught.value.code == "too_early"
    add(sequence, erin, *QUESTIONS[1])
    room.dialogue_post(dialogue=sequence, person=erin, message={"id": "end-2", "type": "end"})
    sequence.refresh_from_db()
    assert sequence.status == DialogueStatus.COMPLETED and not sequence.incomplete
    with pytest.raises(DialogueError) as caught:
        room.dialogue_post(dialogue=sequence, person=erin, message={"id": "s", "type": "score", "score": 5})
    assert caught.value.code == "invalid"


def test_nobody_else_writes_into_a_sequence(sequence, alice, dorm):
    from annotation.people.services import person_create

    olga, _ = person_create(username="olga", role="expert", password="correct-horse-battery")
    for person in (alice, olga):
        with pytest.raises(DialogueError) as caught:
            add(sequence, person, *QUESTIONS[0])
        assert caught.value.code == "forbidden"
    with pytest.raises(DialogueError):
        solo.solo_create(expert=alice, database=dorm)


def test_an_open_sequence_does_not_keep_its_expert_from_chatting(sequence, erin, alice, dorm):
    from annotation.demo import demo_load

    demo_load()
    lobby.lobby_join(person=alice)
    expert_ready(erin)
    (dialogue,) = lobby.lobby_pair()
    assert dialogue.expert == erin and not dialogue.is_solo


def test_the_pages_walk_the_permission_matrix(client, sequence, erin, alice, dorm):
    page = reverse("dialogs:solo", args=[sequence.pk])
    assert client.get(page).status_code == 302  # anonymous: to the login page
    client.force_login(alice)
    assert client.get(reverse("dialogs:solo_home")).status_code == 403
    assert client.get(page).status_code == 403
    client.force_login(erin)
    assert client.get(reverse("dialogs:solo_home")).status_code == 200
    assert client.get(page).status_code == 200
    # The room URL of a solo sequence leads to its page.
    assert client.get(reverse("dialogs:room", args=[sequence.pk])).url == page


def test_another_experts_sequence_is_not_found(client, sequence):
    from annotation.people.services import person_create

    other, _ = person_create(username="olga", role="expert", password="correct-horse-battery")
    client.force_login(other)
    assert client.get(reverse("dialogs:solo", args=[sequence.pk])).status_code == 404
    answer = client.post(reverse("dialogs:solo_turns", args=[sequence.pk]), data="{}", content_type="application/json")
    assert answer.status_code == 404


def test_the_json_endpoints_add_label_and_refuse_with_reasons(client, sequence, erin):
    client.force_login(erin)
    turns_url = reverse("dialogs:solo_turns", args=[sequence.pk])
    answer = client.post(
        turns_url,
        data=json.dumps({"question": QUESTIONS[0][0], "sql": QUESTIONS[0][1], "request_id": "a"}),
        content_type="application/json",
    )
    assert answer.status_code == 200 and answer.json()["ok"]
    turn = answer.json()["turn"]
    bad = client.post(turns_url, data="not json", content_type="application/json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"
    nested = client.post(turns_url, data="[" * 30_000 + "]" * 30_000, content_type="application/json")
    assert nested.status_code == 400 and nested.json()["code"] == "invalid"
    labels_url = reverse("dialogs:solo_labels", args=[sequence.pk])
    saved = client.post(
        labels_url,
        data=json.dumps({"id": "l1", "turn": turn, "contextual_phenomena": ["Context Independent"]}),
        content_type="application/json",
    )
    assert saved.status_code == 200
    refused = client.post(
        labels_url,
        data=json.dumps({"id": "l2", "turn": turn, "contextual_phenomena": ["Telepathy"]}),
        content_type="application/json",
    )
    assert refused.status_code == 400 and refused.json()["code"] == "labels"
    another = client.post(
        reverse("dialogs:solo_another", args=[sequence.pk]),
        data=json.dumps({"id": "x1", "turn": turn}),
        content_type="application/json",
    )
    assert another.status_code == 200 and another.json()["text"]
    page = client.get(reverse("dialogs:solo", args=[sequence.pk]))
    assert page.context["answered"] == 1 and page.context["suggestion"]["text"] == another.json()["text"]


def test_exports_take_solo_sequences_into_sparc_and_chase_and_cosql_only_when_asked(tmp_path, sequence, erin, settings):
    from review.dataset.services import dataset_build, export_options_clean

    settings.SOLO_MIN_QUESTIONS = 3
    for question, sql in QUESTIONS:
        add(sequence, erin, question, sql)
    room.dialogue_post(dialogue=sequence, person=erin, message={"id": "end", "type": "end"})

    def exported(**options):
        out = tmp_path / f"out{len(list(tmp_path.iterdir()))}"
        cleaned = export_options_clean(formats=["cosql", "sparc", "chase"], statuses=["completed"], **options)
        dataset_build(options=cleaned, out_dir=out)

        def read(pattern):
            return [
                item
                for split in ("train", "dev", "test")
                for item in json.loads((out / pattern.format(split=split)).read_text(encoding="utf-8"))
            ]

        return (
            read("sparc/{split}.json"),
            read("chase/chase_{split}.json"),
            read("cosql_dataset/sql_state_tracking/cosql_{split}.json"),
        )

    sparc, chase, cosql = exported()
    assert len(sparc) == 1 and len(chase) == 1 and cosql == []
    assert [turn["utterance"] for turn in sparc[0]["interaction"]] == [question for question, _ in QUESTIONS]
    # No goal: the sequence's final is its last question, where it ended up.
    assert sparc[0]["final"] == {"query": QUESTIONS[-1][1], "utterance": QUESTIONS[-1][0]}
    assert chase[0]["interaction"][1]["intent"] == "相同实体类型的不同实例的属性"  # R8 Subset, detected
    _, _, cosql = exported(cosql_solo=True)
    assert len(cosql) == 1
    assert Dialogue.objects.get(pk=sequence.pk).is_solo
