"""Human rating of system responses (docs/human_rating.md): the sample, blindness, the model's file, agreement, the
figures of CoSQL's Table 6, who may open what, and one rating per rater and response."""

import json
import re
from statistics import mean

import pytest
from django.urls import reverse

from review.rating import selectors, services
from review.rating.agreement import krippendorff_alpha
from review.rating.model_file import ModelFileError, model_responses_read
from review.rating.models import Rating, RatingAssignment, RatingItem, ResponseSource
from review.tests.conftest import reviewer
from tests.builders import expert_named
from tests.rating_builders import model_lines, rated_dialogue

MODEL_NAME = "pointer-gen-under-test"


@pytest.fixture
def dialogues(demo_databases, alice, erin):
    """Two completed dialogues on dorm_demo, three answered SQL turns each."""
    database = demo_databases["dorm_demo"]
    return [rated_dialogue(worker=alice, expert=erin, database=database) for _ in range(2)]


@pytest.fixture
def raters(db):
    """Rosa (an expert), Rufus and Ruth (reviewers): the three raters."""
    return [expert_named("rosa"), reviewer("rufus"), reviewer("ruth")]


def _model_file(dialogue_ids) -> tuple[str, bytes]:
    lines = model_lines(dialogue_ids)
    return "model.jsonl", "".join(json.dumps(line) + "\n" for line in lines).encode()


def _task(ada, raters, dialogues, *, sources=("expert", "draft"), size=4, seed=7, **more):
    if "model" in sources:
        more.setdefault("model_file", _model_file(dialogues))
        more.setdefault("model_name", MODEL_NAME)
    return services.rating_task_create(
        admin=ada, name="Responses, spring", size=size, seed=seed, sources=list(sources), raters=raters, **more
    )


def _keys(task) -> set:
    return set(task.items.values_list("dialogue_id", "turn"))


# --- What is drawn ---------------------------------------------------------------------------------------------------


def test_each_answered_turn_offers_the_experts_response_and_the_rooms_draft(dialogues):
    from dialogs.models import Dialogue
    from review.records import dialogue_records

    found = selectors.candidate_turns(dialogue_records(Dialogue.objects.filter(pk__in=dialogues)))
    assert len(found) == 6
    first = found[0]
    assert first.question == "How many students are there?"
    assert first.responses[ResponseSource.EXPERT] == "There are this many students in all."
    # The draft is the room's, read from the log, not the expert's words.
    assert first.responses[ResponseSource.DRAFT] and first.responses[ResponseSource.DRAFT] != first.responses["expert"]
    assert first.result["columns"] and first.result["rows"]


def test_the_same_seed_draws_the_same_turns(ada, raters, dialogues):
    keys = [(d, t) for d in range(1, 40) for t in (3, 9, 15)]
    once = selectors.sample_keys(keys, size=10, seed=11)
    assert len(once) == 10 and set(once) <= set(keys)
    assert selectors.sample_keys(list(reversed(keys)), size=10, seed=11) == once  # whatever order they come in
    assert selectors.sample_keys(keys, size=10, seed=12) != once
    assert selectors.sample_keys(keys, size=500, seed=11) == sorted(keys)

    first = _task(ada, raters, dialogues, seed=3)
    again = _task(ada, raters, dialogues, seed=3)
    assert len(_keys(first)) == 4 and _keys(first) == _keys(again)
    # Every source is rated on the same turns: one item per turn and source.
    assert sorted(first.items.values_list("source", flat=True)) == ["draft"] * 4 + ["expert"] * 4
    assert first.turns_eligible == 6


def test_a_campaign_or_databases_filter_the_turns_drawn(ada, raters, dialogues, demo_databases, alice, erin):
    from dialogs.models import Campaign

    campaign = Campaign.objects.create(name="Spring")
    inside = rated_dialogue(worker=alice, expert=erin, database=demo_databases["dorm_demo"], campaign=campaign)
    task = _task(ada, raters, dialogues, size=50, campaign=campaign)
    assert {dialogue for dialogue, _ in _keys(task)} == {inside}
    with pytest.raises(services.RatingError, match="No turn"):
        _task(ada, raters, dialogues, db_ids=["no_such_db"])


# --- Blind ----------------------------------------------------------------------------------------------------------


def test_raters_never_see_which_source_wrote_a_response(client, ada, raters, dialogues):
    task = _task(ada, raters, dialogues, sources=("expert", "draft", "model"), size=3)
    assert task.items.count() == 9
    secrets = [MODEL_NAME, "model.jsonl", *ResponseSource.labels, "source"]
    orders = []
    for person in raters:
        client.force_login(person)
        pages = [client.get(reverse("review:rating_tasks")).content.decode()]
        for position in range(1, 10):
            response = client.get(reverse("review:rating_rate", args=[task.pk, position]))
            assert response.status_code == 200
            pages.append(response.content.decode())
        mine = client.get(reverse("review:rating_mine", args=[task.pk]))
        pages.append(mine.content.decode())
        for page in pages:
            for secret in secrets:
                assert secret.lower() not in page.lower(), (person.username, secret)
            for value in ResponseSource.values:  # no value of the source field, as a word or a JSON string
                assert f'"{value}"' not in page and f"data-{value}" not in page
        data = mine.json()
        assert set(data) == {"task", "name", "total", "rated", "items"}
        assert {key for item in data["items"] for key in item} == {
            "position", "question", "sql", "result", "response", "rated", "logic_correct", "grammar"
        }  # fmt: skip
        orders.append([item["response"] for item in data["items"]])
        # Items are addressed by position only: no item id in the page's links.
        ids = set(task.items.values_list("id", flat=True))
        linked = {int(n) for n in re.findall(r"/rate/(\d+)/", "".join(pages))}
        assert linked <= set(range(1, 10)) and not (linked & ids - set(range(1, 10)))
    # Each rater meets the same responses, shuffled in an order of their own.
    assert sorted(orders[0]) == sorted(orders[1]) == sorted(orders[2])
    assert len({tuple(order) for order in orders}) == 3
    # And the sources are mixed, not in blocks (items were created shuffled too).
    sources = list(task.items.order_by("id").values_list("source", flat=True))
    assert sources != sorted(sources)


# --- The model's file ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, data, message",
    [
        ("m.jsonl", b"", "the file is empty"),
        ("m.jsonl", b"\xff\xfe{", "not UTF-8"),
        ("m.csv", b"a,b\x00", "NUL"),
        ("m.jsonl", b'{"dialogue": 1, "turn": 2, "response": "ok"\n', "line 1 is not valid JSON"),
        ("m.jsonl", b"[1, 2, 3]\n", "line 1: a JSON object is expected, not list"),
        ("m.jsonl", b'{"dialogue": 1, "turn": 2}\n', "line 1: missing response"),
        ("m.jsonl", b'{"dialogue": 1, "turn": 2, "response": "x", "source": "gpt"}\n', "unknown source"),
        ("m.jsonl", b'{"dialogue": "one", "turn": 2, "response": "x"}\n', "line 1: 'dialogue' must be a whole number"),
        ("m.jsonl", b'{"dialogue": 1, "turn": true, "response": "x"}\n', "line 1: 'turn' must be a whole number"),
        ("m.jsonl", b'{"dialogue": 1, "turn": 2, "response": "  "}\n', "line 1: 'response' must be non-empty text"),
        ("m.jsonl", b'{"dialogue": 1, "turn": 2, "response": "' + b"a" * 2001 + b'"}\n', "2001 characters"),
        (
            "m.jsonl",
            b'{"dialogue": 1, "turn": 2, "response": "a"}\n\n{"dialogue": 1, "turn": 2, "response": "b"}\n',
            "line 3: dialogue 1, turn 2 again (first on line 1)",
        ),
        ("m.jsonl", b"[" * 5000 + b"\n", "line 1 is JSON nested deeper"),
        ("m.csv", b"dialogue,turn,text\n1,2,x\n", "the header must be dialogue,turn,response"),
        ("m.csv", b"dialogue,turn,response\n1,2\n", "line 2: 2 cells, 3 expected"),
        ("m.csv", b"dialogue,turn,response\n1,-2,x\n", "line 2: 'turn' must be a whole number"),
        ("m.csv", b"x" * (5 * 1024 * 1024 + 1), "at most 5,242,880"),
    ],
)
def test_a_bad_model_file_is_refused_with_its_line(name, data, message):
    with pytest.raises(ModelFileError) as refused:
        model_responses_read(data, name)
    assert any(message in error for error in refused.value.errors), refused.value.errors


def test_a_model_file_reads_as_json_lines_or_csv():
    lines = model_responses_read(b'{"dialogue": 4, "turn": 9, "response": " Four rows. "}\n', "m.jsonl")
    table = model_responses_read(b'dialogue,turn,response\n4,9,"Four rows, all shown."\n', "m.csv")
    assert lines.texts == {(4, 9): "Four rows."}
    assert table.texts == {(4, 9): "Four rows, all shown."}


def test_a_model_file_naming_no_sql_turn_is_refused(ada, raters, dialogues):
    good = model_lines(dialogues)
    not_a_question = good[0]["turn"] + 1  # the expert's acts on the first question: an event, not a user turn
    bad = [
        *good,
        {"dialogue": dialogues[0], "turn": not_a_question, "response": "x"},
        {"dialogue": 999999, "turn": 5, "response": "y"},
    ]
    data = "".join(json.dumps(line) + "\n" for line in bad).encode()
    with pytest.raises(ModelFileError) as refused:
        _task(ada, raters, dialogues, sources=("expert", "model"), model_file=("m.jsonl", data))
    assert refused.value.errors == [
        f"line {len(good) + 1}: dialogue {dialogues[0]} has no SQL turn {not_a_question}",
        f"line {len(good) + 2}: dialogue 999999 has no SQL turn 5",
    ]


def test_the_page_lists_the_files_faults(client, ada, raters, dialogues):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(ada)
    response = client.post(
        reverse("review:rating_tasks"),
        {
            "name": "With a model",
            "size": 3,
            "seed": 1,
            "sources": ["expert", "model"],
            "model_name": "m",
            "model_file": SimpleUploadedFile("m.jsonl", b'{"dialogue": 1}\n{"turn": 2}\n'),
            "raters": [person.pk for person in raters],
        },
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "line 1: missing turn, response" in page and "line 2: missing dialogue, response" in page


# --- Agreement --------------------------------------------------------------------------------------------------------

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", the example with missing values: four observers,
# twelve units (None: no value). The paper gives alpha 0.743 (nominal) and 0.849 (interval).
TEXTBOOK = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]


def _units(observers):
    return [[value for value in unit if value is not None] for unit in zip(*observers, strict=True)]


def _alpha_by_pairs(units, distance):
    """Alpha straight from its definition by pairs (not the coincidence matrix the platform uses): 1 - D_o / D_e,
    D_o the mean distance of values paired within a unit (each unit's pairs weighted 1 / (m_u - 1)), D_e the mean
    distance of all pairs of pairable values."""
    pairable = [unit for unit in units if len(unit) > 1]
    values = [value for unit in pairable for value in unit]
    n = len(values)
    observed = (
        sum(
            sum(distance(a, b) for i, a in enumerate(unit) for j, b in enumerate(unit) if i != j) / (len(unit) - 1)
            for unit in pairable
        )
        / n
    )
    expected = sum(distance(a, b) for i, a in enumerate(values) for j, b in enumerate(values) if i != j) / (n * (n - 1))
    return 1 - observed / expected


def test_alpha_of_the_textbook_example():
    units = _units(TEXTBOOK)
    assert round(krippendorff_alpha(units, "nominal"), 3) == 0.743
    assert round(krippendorff_alpha(units, "interval"), 3) == 0.849
    assert krippendorff_alpha(units, "nominal") == pytest.approx(_alpha_by_pairs(units, lambda a, b: float(a != b)))
    assert krippendorff_alpha(units, "interval") == pytest.approx(_alpha_by_pairs(units, lambda a, b: (a - b) ** 2))


def test_alpha_is_one_for_full_agreement_and_undefined_without_variation():
    assert krippendorff_alpha([[1, 1], [0, 0], [1, 1, 1]], "nominal") == 1.0
    assert krippendorff_alpha([[1, 1], [1, 1]], "nominal") is None  # nothing could disagree
    assert krippendorff_alpha([[1], [0]], "nominal") is None  # nothing pairs
    assert krippendorff_alpha([[1, 0], [0, 1]], "nominal") < 0  # systematic disagreement


# --- Table 6 ----------------------------------------------------------------------------------------------------------

# Crafted ratings: for each source, turn (in (dialogue, turn) order) and rater (rosa, rufus, ruth): (logic, grammar).
CRAFTED = {
    "expert": [
        [(1, 5), (1, 5), (1, 4)],
        [(1, 4), (1, 5), (0, 4)],
        [(1, 5), (1, 5), (1, 5)],
    ],
    "draft": [
        [(1, 3), (0, 3), (0, 2)],
        [(1, 4), (1, 4), (1, 4)],
        [(0, 2), (0, 3), (0, 2)],
    ],
}


def _rate_crafted(task, raters):
    turns = sorted(_keys(task))
    for index, person in enumerate(raters):
        assignment = RatingAssignment.objects.get(task=task, rater=person)
        items = RatingItem.objects.in_bulk()
        for position, item_id in enumerate(selectors.rater_order(assignment), start=1):
            item = items[item_id]
            logic, grammar = CRAFTED[item.source][turns.index((item.dialogue_id, item.turn))][index]
            services.rating_record(
                rater=person, task_id=task.pk, position=position, logic_correct=logic, grammar=grammar
            )


def test_table6_on_crafted_ratings(ada, raters, dialogues):
    task = _task(ada, raters, dialogues, size=3)
    _rate_crafted(task, raters)
    rows = {row["source"]: row for row in selectors.table6(task)}
    assert [row["label"] for row in selectors.table6(task)] == [
        "The expert's response", "The platform's draft", "All sources"
    ]  # fmt: skip
    expert, draft, both = rows["expert"], rows["draft"], rows[""]
    # Counted by hand from CRAFTED: the expert's logic 8 of 9 ratings, every turn correct by majority; grammar 42 / 9.
    assert (expert["items"], expert["ratings"]) == (3, 9)
    assert expert["logic_mean"] == pytest.approx(8 / 9)
    assert expert["lcr_percent"] == pytest.approx(100.0)
    assert expert["grammar_mean"] == pytest.approx(42 / 9)
    # The draft: logic 4 of 9, correct by majority on the middle turn only (1 of 3); grammar 27 / 9.
    assert draft["logic_mean"] == pytest.approx(4 / 9)
    assert draft["lcr_percent"] == pytest.approx(100 / 3)
    assert draft["grammar_mean"] == pytest.approx(3.0)
    # Together: 12 of 18, 4 of 6 turns, 69 / 18.
    assert (both["items"], both["ratings"]) == (6, 18)
    assert both["logic_mean"] == pytest.approx(12 / 18)
    assert both["lcr_percent"] == pytest.approx(400 / 6)
    assert both["grammar_mean"] == pytest.approx(69 / 18)
    # Agreement, against the definition by pairs on the same units.
    for source, row in rows.items():
        chosen = [CRAFTED[source]] if source else list(CRAFTED.values())
        logic = [[r[0] for r in turn] for table in chosen for turn in table]
        grammar = [[r[1] for r in turn] for table in chosen for turn in table]
        assert row["alpha_logic"] == pytest.approx(_alpha_by_pairs(logic, lambda a, b: float(a != b)))
        assert row["alpha_grammar"] == pytest.approx(_alpha_by_pairs(grammar, lambda a, b: (a - b) ** 2))
    assert mean(r[1] for t in CRAFTED["draft"] for r in t) == 3.0


def test_the_admins_page_shows_table6_progress_and_the_csv(client, ada, raters, dialogues):
    task = _task(ada, raters, dialogues, size=3)
    services.rating_record(rater=raters[0], task_id=task.pk, position=1, logic_correct=1, grammar=4)
    client.force_login(ada)
    page = client.get(reverse("review:rating_task", args=[task.pk])).content.decode()
    assert "1 of 6" in page and "0 of 6" in page
    assert 'data-testid="table6-expert"' in page and 'data-testid="table6-draft"' in page
    csv_text = client.get(reverse("review:rating_csv", args=[task.pk])).content.decode()
    header, row = csv_text.splitlines()
    assert header == ",".join(selectors.RATINGS_CSV_HEADER)
    assert row.split(",")[6:9] == ["rosa", "1", "4"]


def test_the_csv_keeps_a_model_name_from_running_as_a_formula(ada, raters, dialogues):
    task = _task(ada, raters, dialogues, sources=("expert", "model"), size=1, model_name="=HYPERLINK(1)")
    for position in (1, 2):
        services.rating_record(rater=raters[0], task_id=task.pk, position=position, logic_correct=1, grammar=5)
    text = selectors.ratings_csv(task)
    assert ",model,'=HYPERLINK(1),rosa," in text and ",=HYPERLINK" not in text


# --- Who may open what ---------------------------------------------------------------------------------------------


def test_every_url_refuses_a_worker_and_the_admins_pages_refuse_a_rater(client, alice, ada, raters, dialogues, erin):
    task = _task(ada, raters, dialogues, size=1)
    rater_urls = [
        reverse("review:rating_tasks"),
        reverse("review:rating_next", args=[task.pk]),
        reverse("review:rating_rate", args=[task.pk, 1]),
        reverse("review:rating_mine", args=[task.pk]),
    ]
    admin_urls = [
        reverse("review:rating_task", args=[task.pk]),
        reverse("review:rating_csv", args=[task.pk]),
        reverse("review:rating_turns"),
    ]
    for url in rater_urls + admin_urls:
        assert client.get(url).status_code == 302  # anonymous: to the sign-in page
    client.force_login(alice)
    for url in rater_urls + admin_urls:
        assert client.get(url).status_code == 403, url
    assert client.post(rater_urls[0], {"name": "x"}).status_code == 403
    assert client.post(rater_urls[2], {"logic_correct": "1", "grammar": "5"}).status_code == 403
    client.force_login(raters[1])
    for url in admin_urls:
        assert client.get(url).status_code == 403, url
    assert client.get(rater_urls[2]).status_code == 200
    assert client.post(rater_urls[0], {"name": "x"}).status_code == 200  # a rater's POST makes nothing
    # Erin is an expert, but not this task's rater: it does not exist for her.
    client.force_login(erin)
    for url in rater_urls[1:]:
        assert client.get(url).status_code == 404, url
    assert client.post(rater_urls[2], {"logic_correct": "1", "grammar": "5"}).status_code == 404
    assert not Rating.objects.exists()


def test_only_experts_and_reviewers_rate_and_only_admins_make_tasks(ada, alice, raters, dialogues):
    with pytest.raises(services.RatingError, match="alice cannot rate"):
        _task(ada, [*raters[:2], alice], dialogues)
    with pytest.raises(services.RatingError, match="at least 2"):
        _task(ada, raters[:1], dialogues)
    with pytest.raises(services.RatingError, match="Only an admin"):
        _task(raters[1], raters, dialogues)


# --- Once per rater and response ------------------------------------------------------------------------------------


def test_a_second_rating_of_the_same_response_is_refused(client, ada, raters, dialogues):
    task = _task(ada, raters, dialogues, size=1)
    url = reverse("review:rating_rate", args=[task.pk, 2])
    client.force_login(raters[2])
    first = client.post(url, {"logic_correct": "0", "grammar": "3"})
    assert first.status_code == 302 and first.url == reverse("review:rating_next", args=[task.pk])
    again = client.post(url, {"logic_correct": "1", "grammar": "5"})
    assert again.status_code == 409
    assert "You rated response 2 already" in again.content.decode()
    with pytest.raises(services.RatingError, match="already"):
        services.rating_record(rater=raters[2], task_id=task.pk, position=2, logic_correct=1, grammar=5)
    (kept,) = Rating.objects.filter(rater=raters[2])
    assert (kept.logic_correct, kept.grammar) == (False, 3)
    # Another rater rates the same response freely; out-of-range values are refused.
    services.rating_record(rater=raters[0], task_id=task.pk, position=2, logic_correct=1, grammar=5)
    with pytest.raises(services.RatingError, match="from 1 to 5"):
        services.rating_record(rater=raters[0], task_id=task.pk, position=1, logic_correct=1, grammar=6)
    assert client.post(url.replace("/2/", "/9/"), {"logic_correct": "1", "grammar": "5"}).status_code == 404


def test_next_goes_through_the_raters_order_then_back_to_the_list(client, ada, raters, dialogues):
    task = _task(ada, raters, dialogues, size=1)
    client.force_login(raters[0])
    for position in (1, 2):
        response = client.get(reverse("review:rating_next", args=[task.pk]))
        assert response.url == reverse("review:rating_rate", args=[task.pk, position])
        client.post(response.url, {"logic_correct": "1", "grammar": "4"})
    assert client.get(reverse("review:rating_next", args=[task.pk])).url == reverse("review:rating_tasks")
    assert client.get(reverse("review:rating_mine", args=[task.pk])).json()["rated"] == 2


def test_the_turns_a_model_answers_come_back_as_its_file(client, ada, raters, dialogues, demo_databases, alice, erin):
    from dialogs.models import Campaign

    campaign = Campaign.objects.create(name="Autumn")
    inside = rated_dialogue(worker=alice, expert=erin, database=demo_databases["dorm_demo"], campaign=campaign)
    client.force_login(ada)
    every = client.get(reverse("review:rating_turns"))
    assert every.status_code == 200 and every["Content-Type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in every.content.decode().splitlines()]
    assert len(lines) == 9  # three dialogues, three answered turns each
    assert set(lines[0]) == {"dialogue", "turn", "db_id", "question", "sql", "result"}
    assert lines[0]["question"] == "How many students are there?" and lines[0]["db_id"] == "dorm_demo"
    autumn = client.get(reverse("review:rating_turns"), {"campaign": campaign.pk}).content.decode().splitlines()
    assert {json.loads(line)["dialogue"] for line in autumn} == {inside}
    assert client.get(reverse("review:rating_turns"), {"db": "no_such_db"}).content == b""
    assert client.get(reverse("review:rating_turns"), {"campaign": "x"}).status_code == 404
    # A model answers them: its file, keyed as the lines were, makes a task.
    answers = "".join(
        json.dumps({"dialogue": line["dialogue"], "turn": line["turn"], "response": f"Answer {n}."}) + "\n"
        for n, line in enumerate(lines)
    )
    task = _task(ada, raters, dialogues, sources=("model",), size=9, model_file=("a.jsonl", answers.encode()))
    assert sorted(task.items.values_list("response", flat=True)) == sorted(f"Answer {n}." for n in range(9))


def test_a_raters_page_reads_the_same_number_of_queries_whatever_the_task_size(client, ada, raters, dialogues):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    small, large = _task(ada, raters, dialogues, size=1), _task(ada, raters, dialogues, size=6)
    client.force_login(raters[0])
    counts = []
    for task in (small, large):
        services.rating_record(rater=raters[0], task_id=task.pk, position=1, logic_correct=1, grammar=4)
        for url in (reverse("review:rating_rate", args=[task.pk, 2]), reverse("review:rating_mine", args=[task.pk])):
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200
            counts.append(len(queries))
    assert counts[:2] == counts[2:], counts
