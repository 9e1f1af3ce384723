"""The review passes as stories: queues, claims, who may review, corrections that never overwrite, decisions, final
validation, the export of the corrected release, scripted corrections and the agreement figures."""

import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from dialogs.models import DialogueStatus, Event
from review.dataset.services import dataset_build, export_options_clean
from review.models import DialogueReview, ReviewStage
from review.passes import queues
from review.passes import services as passes
from review.passes.agreement import cohen_kappa, review_agreement
from review.passes.screen import review_screen
from review.passes.services import ReviewError
from review.quality.selectors import expert_quality_row, send_back_figures
from review.quality.services import worker_quality_refresh
from review.records import dialogue_record_of
from review.signals import review_decided
from review.tests.conftest import reviewer

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(open_room):
    """A completed, scored dialogue that has not been reviewed: two SQL questions and a thank-you."""
    room = open_room("dorm_demo")
    first = room.ask("How many students are there?")
    room.answer(first, "SELECT count(*) FROM student")
    second = room.ask("And their last names?")
    room.answer(second, "SELECT last_name FROM student", response="Here are the last names.")
    thanks = room.ask("Thanks!")
    room.reply(thanks, "You are welcome.")
    return room.end(approve=False)


def queue_of(dialogue):
    queue = queues.dialogue_queue(dialogue)
    listed = {item.pk: item.queue for item in queues.dashboard_list(per_page=500)}
    assert listed[dialogue.pk] == queue  # the list and the one-dialogue read agree
    return queue


def test_a_finished_dialogue_waits_for_pass_one_and_every_dialogue_is_in_exactly_one_queue(finished, open_room):
    passes.review_sync()
    running = open_room("dorm_demo").dialogue
    assert queue_of(finished) == "pass1"
    assert queue_of(running) == "in_progress"
    counts = queues.queue_counts()
    assert sum(counts.values()) == 2
    assert counts["pass1"] == counts["in_progress"] == 1


def test_a_low_score_puts_the_dialogue_in_unsatisfactory_even_after_it_entered_review(open_room):
    room = open_room("dorm_demo")
    turn = room.ask("How many students?")
    room.answer(turn, "SELECT count(*) FROM student")
    dialogue = room.end(score=2, approve=False)
    passes.review_sync()
    assert dialogue.status == DialogueStatus.DROPPED and queue_of(dialogue) == "unsatisfactory"


def test_two_passes_by_two_reviewers_then_approved(finished, rita):
    passes.review_sync()
    rob = reviewer("rob")
    passes.review_claim(reviewer=rita, dialogue=finished)
    assert queue_of(finished) == "in_pass1"
    review = passes.review_decide(reviewer=rita, dialogue=finished, approve=True)
    assert (review.stage, review.pass_number) == (ReviewStage.PENDING, 2)
    assert queue_of(finished) == "pass2"
    # Rita did pass 1: pass 2 needs someone else.
    with pytest.raises(ReviewError) as refused:
        passes.review_claim(reviewer=rita, dialogue=finished)
    assert refused.value.code == "not_allowed"
    assert passes.review_claim_next(reviewer=rita) is None
    assert passes.review_claim_next(reviewer=rob).dialogue_id == finished.pk
    review = passes.review_decide(reviewer=rob, dialogue=finished, approve=True)
    finished.refresh_from_db()
    assert review.stage == ReviewStage.APPROVED and review.revision == finished.last_seq
    assert queue_of(finished) == "approved"


def test_pass_two_is_taken_only_by_its_pool_and_an_empty_pool_opens_it_with_a_warning(finished, rita, ada, client):
    passes.review_sync()
    rob, senior = reviewer("rob"), reviewer("senior")
    with pytest.raises(ReviewError) as refused:  # only admins keep the pools
        passes.pass_pool_set(number=2, members=[senior], by=rob)
    assert refused.value.code == "not_allowed"
    passes.pass_pool_set(number=2, members=[senior], by=ada)
    passes.review_claim(reviewer=rita, dialogue=finished)  # pass 1 has no pool: anyone
    passes.review_decide(reviewer=rita, dialogue=finished, approve=True)
    # Rob is not in pass 2's pool: neither a chosen claim nor "take the next" gives it to him.
    with pytest.raises(ReviewError, match="pool"):
        passes.review_claim(reviewer=rob, dialogue=finished)
    assert passes.review_claim_next(reviewer=rob) is None
    client.force_login(rob)
    home = client.get(reverse("review:home")).content.decode()
    assert 'data-testid="claim-next-2" disabled' in home and 'data-testid="pool-note-2"' in home
    refused_page = client.post(reverse("review:claim_next"), {"pass": "2"}, follow=True).content.decode()
    assert "you are not in it" in refused_page
    # The pool's member takes it, with the existing rules (never the pass-1 reviewer, never the expert) kept.
    assert passes.review_claim_next(reviewer=senior).dialogue_id == finished.pk
    passes.review_release(person=senior, dialogue=finished)
    # A pool with nobody in it is no stuck queue: the pass opens to everyone, and the dashboard says so.
    passes.pass_pool_set(number=2, members=[], by=ada)
    home = client.get(reverse("review:home")).content.decode()
    assert 'data-testid="pool-warning-2"' in home and "nobody in it" in home
    assert passes.review_claim_next(reviewer=rob).dialogue_id == finished.pk
    # Reviewers may not open the pools page; an admin keeps them there.
    assert client.get(reverse("review:pools")).status_code == 403
    client.force_login(ada)
    page = client.post(reverse("review:pools"), {"number": "2", "pooled": "1", "members": [senior.pk]}, follow=True)
    assert "Pass 2 is taken by its pool: senior." in page.content.decode()
    client.post(reverse("review:pools"), {"number": "2"})  # not pooled: any reviewer again
    assert passes.pass_pools()[1] == {"number": 2, "pooled": False, "members": [], "open": True, "warning": ""}


def test_a_dialogue_sent_back_is_fixed_by_its_author_into_the_same_pass(finished, rita, client):
    passes.review_sync()
    author, other = finished.expert, reviewer("rob")
    turns = [turn.seq for turn in dialogue_record_of(finished).user_turns]
    with pytest.raises(ReviewError, match="Claim this dialogue first"):
        passes.review_send_back(reviewer=rita, dialogue=finished, note="Fix it.")
    passes.review_claim(reviewer=rita, dialogue=finished)
    with pytest.raises(ReviewError, match="what the author should fix"):
        passes.review_send_back(reviewer=rita, dialogue=finished)
    sent = passes.review_send_back(
        reviewer=rita, dialogue=finished, note="Two things.", turn_notes={str(turns[1]): "The names, not the ids."}
    )
    assert queue_of(finished) == "with_author" and sent.author == author and sent.pass_number == 1
    # Nobody reviews it meanwhile; nobody but its author fixes it.
    with pytest.raises(ReviewError) as refused:
        passes.review_claim(reviewer=other, dialogue=finished)
    assert refused.value.code == "with_author"
    assert passes.review_claim_next(reviewer=other) is None
    with pytest.raises(ReviewError, match="not waiting for your fixes"):
        passes.author_correct(author=other, dialogue=finished, turn=turns[1], field="response", value="x")
    client.force_login(author)
    desk = client.get(reverse("dialogs:expert_home")).content.decode()
    assert f'data-testid="fix-{finished.pk}"' in desk and "1 turn to look at" in desk
    page = client.get(reverse("review:fix", args=[finished.pk])).content.decode()
    assert "The names, not the ids." in page and 'data-testid="return-to-review"' in page
    fixed = client.post(
        reverse("review:fix_correct", args=[finished.pk]),
        {"turn": turns[1], "field": "response", "value": "Here are their last names.", "reason": "as asked"},
        content_type="application/json",
    )
    assert fixed.status_code == 200, fixed.content
    correction = Event.objects.get(dialogue=finished, kind="correction")
    assert correction.author == author and correction.author_role == "expert"
    assert correction.payload["by_author"] is True
    assert correction.payload["pass"] == 1  # into the same pass
    client.post(reverse("review:fix_return", args=[finished.pk]), {"note": "Done."})
    sent.refresh_from_db()
    assert sent.returned_at is not None and sent.fixes == 1 and "Done." in sent.note
    assert queue_of(finished) == "pass1"
    client.force_login(other)  # the page was the author's only, and only while it was theirs to fix
    assert client.get(reverse("review:fix", args=[finished.pk])).status_code in (403, 404)
    assert passes.review_claim_next(reviewer=rita).dialogue_id == finished.pk  # back in its pass's queue
    # Counted for both: the author's figures (sent back, fixes) and the reviewer's.
    assert expert_quality_row(author)["sent_back"] == {"dialogues": 1, "fixes": 1, "open": 0}
    assert send_back_figures()["reviewers"] == [{"reviewer": "rita", "dialogues": 1}]


def test_the_dialogues_own_expert_never_reviews_it(finished, ada):
    passes.review_sync()
    # Admins may review; an admin who was the expert of this dialogue may not.
    finished.expert = ada
    finished.save(update_fields=["expert"])
    with pytest.raises(ReviewError) as refused:
        passes.review_claim(reviewer=ada, dialogue=finished)
    assert refused.value.code == "not_allowed"
    assert passes.review_claim_next(reviewer=ada) is None


def test_a_claim_is_a_lock_that_expires_and_an_admin_can_release(finished, rita, ada):
    passes.review_sync()
    rob = reviewer("rob")
    passes.review_claim(reviewer=rita, dialogue=finished)
    with pytest.raises(ReviewError) as locked:
        passes.review_claim(reviewer=rob, dialogue=finished)
    assert locked.value.code == "locked" and "rita" in locked.value.message
    # Rob cannot release Rita's claim; an admin can.
    with pytest.raises(ReviewError):
        passes.review_release(person=rob, dialogue=finished)
    passes.review_release(person=ada, dialogue=finished)
    assert queue_of(finished) == "pass1"
    passes.review_claim(reviewer=rita, dialogue=finished)
    DialogueReview.objects.filter(dialogue=finished).update(claim_expires_at=timezone.now() - timedelta(seconds=1))
    assert queue_of(finished) == "pass1"  # expired: back in the queue without anybody releasing it
    with pytest.raises(ReviewError) as lost:
        passes.review_correct(reviewer=rita, dialogue=finished, turn=1, field="utterance", value="How many?")
    assert lost.value.code == "not_claimed"
    assert passes.review_claim(reviewer=rob, dialogue=finished).claimed_by == rob


def test_early_review_takes_each_new_experts_first_dialogues_first(open_room, rita, settings, erin):
    settings.REVIEW_EARLY_DIALOGUES = 1
    dialogues = []
    for _ in range(3):
        room = open_room("dorm_demo")
        turn = room.ask("How many students?")
        room.answer(turn, "SELECT count(*) FROM student")
        dialogues.append(room.end(approve=False))
    passes.review_sync()
    early = set(DialogueReview.objects.filter(early=True).values_list("dialogue_id", flat=True))
    assert early == {dialogues[0].pk}
    # The oldest dialogue is also the early one here; make a later one early to see it jump the queue.
    DialogueReview.objects.update(early=False)
    DialogueReview.objects.filter(dialogue=dialogues[2]).update(early=True)
    assert passes.review_claim_next(reviewer=rita).dialogue_id == dialogues[2].pk


def test_corrections_never_overwrite_and_the_export_holds_the_corrected_values(finished, rita, tmp_path):
    passes.review_sync()
    before = list(Event.objects.filter(dialogue=finished).values_list("seq", "payload"))
    passes.review_claim(reviewer=rita, dialogue=finished)
    record = dialogue_record_of(finished)
    first, second, thanks = record.user_turns
    passes.review_correct(reviewer=rita, dialogue=finished, turn=first.seq, field="user_acts", value=["INFER_SQL"])
    passes.review_correct(
        reviewer=rita,
        dialogue=finished,
        turn=second.seq,
        field="query",
        value="SELECT last_name, first_name FROM student",
        reason="the names, not only the last names",
    )
    passes.review_correct(
        reviewer=rita, dialogue=finished, turn=second.seq, field="response", value="Here are their full names."
    )
    passes.review_correct(
        reviewer=rita, dialogue=finished, turn=first.seq, field="utterance", value="How many students are enrolled?"
    )
    passes.review_correct(reviewer=rita, dialogue=finished, turn=thanks.seq, field="drop", value=True)
    # The original events are untouched: corrections are appended.
    assert list(Event.objects.filter(dialogue=finished, seq__lte=before[-1][0]).values_list("seq", "payload")) == before
    corrected = dialogue_record_of(finished)
    one, two, three = corrected.user_turns
    assert one.text == "How many students are enrolled?" and one.original_value("utterance") == first.text
    assert one.acts == ["INFER_SQL"] and one.original["user_acts"] == ["INFORM_SQL"]
    assert (
        two.sql == "SELECT last_name, first_name FROM student"
        and two.original["query"] == "SELECT last_name FROM student"
    )
    assert two.shown["columns"] == ["last_name", "first_name"]
    assert two.response.text == "Here are their full names."
    assert three.dropped
    assert [c.review_pass for c in corrected.corrections] == [1] * 5
    approve_rest(finished, rita)
    out = tmp_path / "out"
    report = dataset_build(options=export_options_clean(formats=["cosql", "sparc"]), out_dir=out)
    assert report["revisions"] == {str(finished.pk): finished.last_seq}
    sparc = [item for split in ("train", "dev", "test") for item in _load(out / "sparc" / f"{split}.json")]
    turns = sparc[0]["interaction"]
    assert [turn["utterance"] for turn in turns] == ["How many students are enrolled?", "And their last names?"]
    assert turns[1]["query"] == "SELECT last_name, first_name FROM student"
    responses = [json.loads(line) for path in out.rglob("system_response_generation/*.json") for line in _lines(path)]
    assert any(item["response"] == "Here are their full names." for item in responses)


def _load(path):
    return json.loads(path.read_text()) if path.exists() else []


def _lines(path):
    if not path.exists():
        return []
    text = path.read_text()
    data = json.loads(text) if text.strip().startswith("[") else None
    return [json.dumps(item) for item in data] if data is not None else text.splitlines()


def approve_rest(dialogue, first_reviewer):
    """Approve pass 1 as `first_reviewer`, then pass 2 as someone else."""
    passes.review_decide(reviewer=first_reviewer, dialogue=dialogue, approve=True)
    other = reviewer("second")
    passes.review_claim(reviewer=other, dialogue=dialogue)
    review = passes.review_decide(reviewer=other, dialogue=dialogue, approve=True)
    dialogue.refresh_from_db()
    assert review.stage == ReviewStage.APPROVED, review.problems
    return review


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("user_acts", ["NOT_AN_ACT"], "labels"),
        ("system_acts", ["INFORM_SQL"], "labels"),
        ("query", "SELECT nothing FROM nowhere", "sql"),
        ("query", "DELETE FROM student", "sql"),
        ("utterance", "", "invalid"),
        ("utterance", "bad\x00text", "invalid"),
        ("drop", "yes", "invalid"),
        ("colour", "blue", "invalid"),
        ("utterance", "How many students are there?", "unchanged"),
    ],
)
def test_bad_corrections_are_refused_and_change_nothing(finished, rita, field, value, code):
    passes.review_sync()
    passes.review_claim(reviewer=rita, dialogue=finished)
    first = dialogue_record_of(finished).user_turns[0]
    finished.refresh_from_db()
    seq = finished.last_seq
    with pytest.raises(ReviewError) as refused:
        passes.review_correct(reviewer=rita, dialogue=finished, turn=first.seq, field=field, value=value)
    assert refused.value.code == code
    finished.refresh_from_db()
    assert finished.last_seq == seq


def _claimed_in_the_last_pass(open_room, reviewer, settings, question: str, sql: str):
    """A one-question dialogue in a one-pass review, claimed by `reviewer`: (dialogue, the question's seq)."""
    settings.REVIEW_PASSES = 1
    room = open_room("dorm_demo")
    turn = room.ask(question)
    room.answer(turn, sql)
    dialogue = room.end(approve=False)
    passes.review_sync()
    passes.review_claim(reviewer=reviewer, dialogue=dialogue)
    return dialogue, turn


def test_final_validation_sends_an_unencodable_query_to_failed_validation_until_fixed(open_room, rita, settings):
    dialogue, turn = _claimed_in_the_last_pass(
        open_room, rita, settings, "Ages plus one?", "SELECT age + 1 FROM student"
    )
    review = passes.review_decide(reviewer=rita, dialogue=dialogue, approve=True)
    assert review.stage == ReviewStage.FAILED_VALIDATION
    assert review.problems[0]["turn"] == turn and "Spider" in review.problems[0]["reason"]
    assert queue_of(dialogue) == "failed_validation"
    passes.review_claim(reviewer=rita, dialogue=dialogue)
    passes.review_correct(reviewer=rita, dialogue=dialogue, turn=turn, field="query", value="SELECT age FROM student")
    review = passes.review_decide(reviewer=rita, dialogue=dialogue, approve=True)
    assert review.stage == ReviewStage.APPROVED and review.problems == []


def test_a_rejection_needs_a_reason_and_a_party_and_an_admin_can_reopen(finished, rita, ada, settings):
    settings.REVIEW_PASSES = 1  # one pass: its rejection is final
    passes.review_sync()
    passes.review_claim(reviewer=rita, dialogue=finished)
    with pytest.raises(ReviewError):
        passes.review_decide(reviewer=rita, dialogue=finished, approve=False, reason="other", fault="worker")
    with pytest.raises(ReviewError) as refused:
        passes.review_decide(reviewer=rita, dialogue=finished, approve=False, reason="repetitive")
    assert "whose work failed" in refused.value.message.lower()
    review = passes.review_decide(reviewer=rita, dialogue=finished, approve=False, reason="repetitive", fault="worker")
    assert review.stage == ReviewStage.REJECTED and queue_of(finished) == "rejected"
    assert review.fault == "worker" and review.passes.get().fault == "worker"
    with pytest.raises(ReviewError):
        passes.review_reopen(admin=rita, dialogue=finished)
    passes.review_reopen(admin=ada, dialogue=finished)
    assert queue_of(finished) == "pass1"
    finished.review.refresh_from_db()
    assert finished.review.fault == ""  # reopened: nobody's failure any more
    figures = review_agreement()
    assert figures["rejections"]["rejected"] == 0  # no longer rejected


def test_a_pass_one_rejection_goes_to_a_second_reviewer_before_it_counts(finished, rita, settings):
    """With two passes, Rita's rejection in pass 1 is not the last word: the dialogue waits for pass 2, where Sid
    sees her rejection and decides. His rejection makes it final; nothing counts against anyone before."""
    settings.QUALITY_RULE_MIN_DIALOGUES = 1
    assert settings.REVIEW_PASSES == 2
    sid = reviewer("sid")
    passes.review_sync()
    passes.review_claim(reviewer=rita, dialogue=finished)
    review = passes.review_decide(reviewer=rita, dialogue=finished, approve=False, reason="repetitive", fault="both")
    assert (review.stage, review.pass_number, review.fault) == (ReviewStage.PENDING, 2, "")
    assert queue_of(finished) == "pass2"
    assert review_agreement()["rejections"]["rejected"] == 0  # proposed, not decided
    screen = review_screen(finished)
    assert screen["proposed_rejection"].reviewer == rita and screen["proposed_rejection"].fault == "both"
    # Rita may not confirm her own rejection: pass 2 needs another reviewer.
    with pytest.raises(ReviewError):
        passes.review_claim(reviewer=rita, dialogue=finished)
    passes.review_claim(reviewer=sid, dialogue=finished)
    review = passes.review_decide(reviewer=sid, dialogue=finished, approve=False, reason="repetitive", fault="worker")
    assert (review.stage, review.fault) == (ReviewStage.REJECTED, "worker")
    assert queue_of(finished) == "rejected" and review_agreement()["rejections"]["rejected"] == 1


def test_the_review_screen_shows_what_the_expert_knew_and_the_workers_record(client, finished, rita):
    """The expert's score and comment, how the dialogue ended and in what time, and Alice's quality summary."""
    passes.review_sync()
    client.force_login(rita)
    page = client.get(reverse("review:dialogue", args=[finished.pk]))
    assert "No quality record yet" in page.content.decode()  # before the end's refresh has run
    worker_quality_refresh(worker_id=finished.worker_id)
    page = client.get(reverse("review:dialogue", args=[finished.pk]))
    outcome = page.context["outcome"]
    assert (outcome["status"], outcome["ended_by"], outcome["score"], outcome["comment"]) == (
        "Completed",
        "the worker",
        5,
        "fine",
    )
    assert outcome["took"].endswith(" s, from pairing to the end")
    html = page.content.decode()
    assert 'data-testid="outcome"' in html and "5 of 5" in html and "fine" in html
    assert page.context["worker_quality"].dialogues == 1 and "Rejected for their questions" in html


def test_a_second_reviewer_overrules_a_pass_one_rejection_by_approving(finished, rita):
    sid = reviewer("sid")
    passes.review_sync()
    passes.review_claim(reviewer=rita, dialogue=finished)
    passes.review_decide(reviewer=rita, dialogue=finished, approve=False, reason="goal_ignored", fault="expert")
    passes.review_claim(reviewer=sid, dialogue=finished)
    review = passes.review_decide(reviewer=sid, dialogue=finished, approve=True)
    assert review.stage == ReviewStage.APPROVED and queue_of(finished) == "approved"
    assert review_screen(finished)["proposed_rejection"] is None
    assert review_agreement()["rejections"]["rejected"] == 0


def test_review_decided_is_told_once_a_decision_commits_never_before(
    finished, rita, ada, settings, django_capture_on_commit_callbacks
):
    settings.REVIEW_PASSES = 1  # the rejection is final at once
    told = []

    def listener(sender, *, dialogue_id, stage, **kwargs):
        told.append((dialogue_id, stage, DialogueReview.objects.get(dialogue_id=dialogue_id).stage))

    review_decided.connect(listener, dispatch_uid="test.review_decided")
    try:
        passes.review_sync()
        passes.review_claim(reviewer=rita, dialogue=finished)
        with django_capture_on_commit_callbacks(execute=True):
            passes.review_decide(reviewer=rita, dialogue=finished, approve=False, reason="repetitive", fault="worker")
            assert told == []  # still inside the decision's transaction
        with django_capture_on_commit_callbacks(execute=True):
            passes.review_reopen(admin=ada, dialogue=finished)
    finally:
        review_decided.disconnect(dispatch_uid="test.review_decided")
    # Each receiver reads the decision it is told of from the database.
    assert told == [
        (finished.pk, ReviewStage.REJECTED, ReviewStage.REJECTED),
        (finished.pk, ReviewStage.PENDING, ReviewStage.PENDING),
    ]


def test_abandoned_after_the_minimum_goes_to_review_marked_partial(open_room):
    room = open_room("dorm_demo")
    turn = room.ask("How many students?")
    room.answer(turn, "SELECT count(*) FROM student")
    dialogue = room.dialogue
    from dialogs.room import _end

    _end(dialogue, None, "", DialogueStatus.ABANDONED, None, "The worker left.")
    passes.review_sync()
    review = DialogueReview.objects.get(dialogue=dialogue)
    assert review.partial and queue_of(dialogue) == "pass1"


def test_apply_corrections_applies_good_lines_and_refuses_bad_ones(finished, rita, tmp_path, capsys):
    passes.review_sync()
    lines = [
        {
            "dialogue": finished.pk,
            "turn": 1,
            "field": "query",
            "value": "SELECT first_name FROM student",
            "reason": "x",
        },
        {"dialogue": 999999, "turn": 0, "field": "utterance", "value": "Hi"},
        {"dialogue": finished.pk, "turn": 7, "field": "utterance", "value": "Hi"},
        {"dialogue": finished.pk, "turn": 0, "field": "user_acts", "value": ["MADE_UP"]},
        {"dialogue": finished.pk, "turn": 0, "field": "query", "value": "SELECT * FROM nowhere"},
    ]
    path = tmp_path / "fixes.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\nnot json\n")
    call_command("apply_corrections", str(path), "--reviewer", "rita")
    outcomes = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [outcome["ok"] for outcome in outcomes] == [True, False, False, False, False, False]
    assert "no dialogue 999999" in outcomes[1]["error"] and "turn must be" in outcomes[2]["error"]
    assert "does not run" in outcomes[4]["error"]
    record = dialogue_record_of(finished)
    assert record.user_turns[1].sql == "SELECT first_name FROM student"
    assert [c.field for c in record.corrections] == ["query"]


def test_a_line_nested_too_deep_is_refused_with_its_place_and_the_lines_after_it_still_apply(
    finished, rita, tmp_path, capsys
):
    passes.review_sync()
    first, second, _ = dialogue_record_of(finished).user_turns
    fixes = tmp_path / "fixes.jsonl"
    fixes.write_text(
        json.dumps({"dialogue": finished.pk, "turn": 0, "field": "utterance", "value": "How many students live here?"})
        + "\n"
        + "[" * 30_000
        + "]" * 30_000
        + "\n"
        + json.dumps({"dialogue": finished.pk, "turn": 1, "field": "utterance", "value": "And their surnames?"})
        + "\n"
    )
    call_command("apply_corrections", str(fixes), "--reviewer", "rita")
    outcomes = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [outcome["ok"] for outcome in outcomes] == [True, False, True]
    refusal = outcomes[1]["error"]
    assert f"{fixes}, line 2" in refusal and "nested deeper than" in refusal and "\n" not in refusal, refusal
    record = dialogue_record_of(finished)
    assert [turn.text for turn in record.user_turns[:2]] == ["How many students live here?", "And their surnames?"]


def test_the_pass_one_reviewer_may_not_correct_pass_two_from_the_command_line(finished, rita, tmp_path, capsys):
    passes.review_sync()
    passes.review_claim(reviewer=rita, dialogue=finished)
    passes.review_decide(reviewer=rita, dialogue=finished, approve=True)
    fix = {"dialogue": finished.pk, "turn": 0, "field": "utterance", "value": "How many students live here?"}
    fixes = tmp_path / "fixes.jsonl"
    fixes.write_text(json.dumps(fix) + "\n")
    # The screen refuses Rita pass 2; the command says the same, in the same words.
    with pytest.raises(ReviewError) as screen:
        passes.review_claim(reviewer=rita, dialogue=finished)
    call_command("apply_corrections", str(fixes), "--reviewer", "rita")
    [outcome] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert not outcome["ok"] and outcome["error"] == screen.value.message
    assert dialogue_record_of(finished).corrections == []
    # Rob, who had no part in pass 1, may.
    reviewer("rob")
    call_command("apply_corrections", str(fixes), "--reviewer", "rob")
    [outcome] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert outcome["ok"] and dialogue_record_of(finished).user_turns[0].text == fix["value"]


def test_agreement_figures_count_changes_execution_match_and_kappa(finished, rita):
    passes.review_sync()
    passes.review_claim(reviewer=rita, dialogue=finished)
    record = dialogue_record_of(finished)
    first, second, _ = record.user_turns
    passes.review_correct(reviewer=rita, dialogue=finished, turn=first.seq, field="user_acts", value=["INFER_SQL"])
    # Same rows, another query: an execution match.
    passes.review_correct(
        reviewer=rita, dialogue=finished, turn=first.seq, field="query", value="SELECT count(student_id) FROM student"
    )
    approve_rest(finished, rita)
    figures = review_agreement()
    pass_one = figures["passes"]["1"]
    assert pass_one["turns"] == 3
    assert pass_one["changed_share"]["acts"] == round(1 / 3, 4) and pass_one["changed_share"]["sql"] == round(1 / 3, 4)
    assert pass_one["queries_corrected"] == 1 and pass_one["execution_match_share"] == 1.0
    assert figures["user_acts_kappa"]["expert_vs_pass1"] < 1
    assert figures["user_acts_kappa"]["pass1_vs_pass2"] == 1.0
    assert figures["reviewers"][0]["reviewer"] == "rita"


def test_agreement_figures_stay_cached_while_rooms_chat_and_change_with_a_correction(finished, rita, open_room):
    from unittest import mock

    from review.passes import agreement

    passes.review_sync()
    passes.review_claim(reviewer=rita, dialogue=finished)
    first = dialogue_record_of(finished).user_turns[0]
    approve_rest(finished, rita)
    before = review_agreement()
    with mock.patch.object(agreement, "_compute", wraps=agreement._compute) as computed:
        room = open_room("dorm_demo")  # a live room elsewhere: events, but nothing review has decided
        room.ask("How many students are there?")
        assert review_agreement() == before
        assert computed.call_count == 0
        # A scripted audit by Rob, who reviewed no pass of it, corrects the approved dialogue: the figures must show it.
        passes.review_correct(
            reviewer=reviewer("rob"),
            dialogue=finished,
            turn=first.seq,
            field="utterance",
            value="How many students?",
            require_claim=False,
        )
        after = review_agreement()
        assert computed.call_count == 1
    assert after["passes"] != before["passes"] or after["experts"] != before["experts"]


def test_cohen_kappa_matches_a_worked_example():
    # 50 items: both say yes 20, both no 15, a-yes/b-no 5, a-no/b-yes 10 → po 0.7, pe 0.5 → kappa 0.4.
    pairs = [("y", "y")] * 20 + [("n", "n")] * 15 + [("y", "n")] * 5 + [("n", "y")] * 10
    assert cohen_kappa(pairs) == 0.4
    assert cohen_kappa([]) is None


def test_the_dashboard_and_the_screen_need_a_fixed_number_of_queries(client, finished, open_room, rita):
    client.force_login(rita)
    # The rows the ends' commits make (a test's transaction never commits): the dashboard reads them, never makes them.
    passes.review_sync()
    client.get(reverse("review:home"))
    with CaptureQueriesContext(connection) as few:
        assert client.get(reverse("review:home")).status_code == 200
    for _ in range(3):
        room = open_room("dorm_demo")
        turn = room.ask("How many?")
        room.answer(turn, "SELECT count(*) FROM student")
        room.end(approve=False)
    passes.review_sync()
    client.get(reverse("review:home"))
    with CaptureQueriesContext(connection) as many:
        assert client.get(reverse("review:home")).status_code == 200
    assert len(many) == len(few), [q["sql"][:150] for q in many.captured_queries][len(few) - 3 :]
    screen = reverse("review:dialogue", args=[finished.pk])
    passes.review_claim(reviewer=rita, dialogue=finished)
    turn = dialogue_record_of(finished).user_turns[0]
    passes.review_correct(reviewer=rita, dialogue=finished, turn=turn.seq, field="utterance", value="How many?")
    with CaptureQueriesContext(connection) as one:
        assert client.get(screen).status_code == 200
    for text in ("How many students are enrolled?", "How many students study here?"):
        passes.review_correct(reviewer=rita, dialogue=finished, turn=turn.seq, field="utterance", value=text)
    passes.review_correct(reviewer=rita, dialogue=finished, turn=turn.seq, field="user_acts", value=["INFER_SQL"])
    with CaptureQueriesContext(connection) as more:
        assert client.get(screen).status_code == 200
    assert len(more) == len(one)


def test_the_screen_json_endpoints_refuse_bad_input(client, finished, rita):
    passes.review_sync()
    client.force_login(rita)
    url = reverse("review:correct", args=[finished.pk])
    assert client.post(url, b"{not json", content_type="application/json").status_code == 400
    nested = client.post(url, b"[" * 30_000 + b"]" * 30_000, content_type="application/json")
    assert nested.status_code == 400 and nested.json()["error"] == "invalid"
    answer = client.post(url, {"turn": 1, "field": "utterance", "value": "x"}, content_type="application/json")
    assert answer.status_code == 409 and answer.json()["error"] == "not_claimed"
    client.post(reverse("review:claim", args=[finished.pk]))
    answer = client.post(url, {"turn": 1, "field": "user_acts", "value": ["NOPE"]}, content_type="application/json")
    assert answer.status_code == 400 and answer.json()["error"] == "labels"


REVIEW_ACTIONS = [
    ("get", "review:home", False, {"rita", "ada"}),
    ("get", "review:agreement", False, {"rita", "ada"}),
    ("get", "review:dialogue", True, {"rita", "ada"}),
    ("post", "review:claim_next", False, {"rita", "ada"}),
    ("post", "review:claim", True, {"rita", "ada"}),
    ("post", "review:renew", True, {"rita", "ada"}),
    ("post", "review:release", True, {"rita", "ada"}),
    ("post", "review:correct", True, {"rita", "ada"}),
    ("post", "review:decide", True, {"rita", "ada"}),
    ("post", "review:reopen", True, {"ada"}),
    ("get", "review:datasets", False, {"ada"}),
    ("get", "review:statistics", False, {"ada"}),
]


@pytest.mark.parametrize(
    ("method", "name", "per_dialogue", "allowed"), REVIEW_ACTIONS, ids=[a[1] for a in REVIEW_ACTIONS]
)
def test_the_review_permission_matrix(client, request, finished, method, name, per_dialogue, allowed, mallory):
    """Workers, experts and blocked people reach no review page or action; reopening is for admins; reviewers do not
    export. A refused request changes nothing."""
    passes.review_sync()
    url = reverse(name, args=[finished.pk] if per_dialogue else [])
    assert getattr(client, method)(url).url.startswith(reverse("login"))  # anonymous: sign in
    for persona in ("alice", "erin", "rita", "ada", "mallory"):
        client.force_login(request.getfixturevalue(persona))
        response = getattr(client, method)(url, content_type="application/json")
        status = response.status_code
        if persona in allowed:
            assert status != 403 and not (status == 302 and response.url.startswith(reverse("login"))), persona
        else:
            assert status == 403, f"{persona} on {name}: {status}"
        client.logout()
    review = DialogueReview.objects.get(dialogue=finished)
    assert review.stage in (ReviewStage.PENDING, ReviewStage.CLAIMED)


def test_an_imported_release_is_audited_corrected_by_script_and_exported_corrected(
    tmp_path, demo_databases, rita, capsys
):
    """As CHASE-T audited SParC: import with --review, correct one query by script (addressed by the position in the
    imported file), take both passes, and the exported release holds the fix; an unaudited import is approved."""
    from annotation.labels.tokens import utterance_toks
    from annotation.sql.spider import encode_sql

    database = demo_databases["dorm_demo"]

    def turn(question, sql):
        return {
            "utterance": question,
            "utterance_toks": utterance_toks(question),
            "query": sql,
            "sql": encode_sql(sql, database.schema),
        }

    interactions = [
        {
            "database_id": "dorm_demo",
            "interaction": [
                turn("How many students are there?", "SELECT count(*) FROM student"),
                turn("Which of them are older than 20?", "SELECT last_name FROM student WHERE age > 30"),
            ],
            "final": {"utterance": "Which students are older than 20?", "query": "SELECT last_name FROM student"},
        },
        {
            "database_id": "dorm_demo",
            "interaction": [turn("How many dorms are there?", "SELECT count(*) FROM dorm")],
            "final": {"utterance": "How many dorms are there?", "query": "SELECT count(*) FROM dorm"},
        },
    ]
    data, tables = tmp_path / "sparc_dev.json", tmp_path / "tables.json"
    data.write_text(json.dumps(interactions))
    tables.write_text(json.dumps([database.schema]))
    call_command("import_dataset", "--format", "sparc", "--data", str(data), "--tables", str(tables), "--review")
    assert queues.queue_counts()["pass1"] == 2
    fixes = tmp_path / "fixes.jsonl"
    fix = {"file": "sparc_dev.json", "position": 0}
    fixes.write_text(
        json.dumps(
            {"dialogue": fix, "turn": 1, "field": "query", "value": "SELECT last_name FROM student WHERE age > 20"}
        )
        + "\n"
        + json.dumps({"dialogue": {"file": "sparc_dev.json", "position": 9}, "turn": 0, "field": "query", "value": "x"})
    )
    capsys.readouterr()
    call_command("apply_corrections", str(fixes), "--reviewer", "rita")
    first, second = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert first["ok"] and not second["ok"] and "position 9" in second["error"]
    audited = DialogueReview.objects.get(dialogue__dataset_import__position=0).dialogue
    passes.review_claim(reviewer=rita, dialogue=audited)
    approve_rest(audited, rita)
    out = tmp_path / "out"
    dataset_build(options=export_options_clean(formats=["sparc"]), out_dir=out)
    exported = [item for split in ("train", "dev", "test") for item in _load(out / "sparc" / f"{split}.json")]
    assert [item["interaction"][-1]["query"] for item in exported] == ["SELECT last_name FROM student WHERE age > 20"]


def test_a_corrected_query_and_final_validation_run_outside_any_transaction(open_room, rita, settings):
    # The sandbox refuses to run inside a transaction (annotation.sql.sandbox.refuse_inside_transaction): on SQLite
    # one that has written holds the whole file's write lock while the query and the suite run. Both steps run the
    # sandbox; before they were split in two, each raised InsideTransaction here.
    from django.db import transaction

    from annotation.sql import sandbox
    from dialogs.models import EventKind

    dialogue, turn = _claimed_in_the_last_pass(
        open_room, rita, settings, "How old are they?", "SELECT age FROM student"
    )
    passes.review_correct(
        reviewer=rita, dialogue=dialogue, turn=turn, field="query", value="SELECT age FROM student LIMIT 5"
    )
    run = Event.objects.filter(dialogue=dialogue, kind=EventKind.SQL_RUN, author=rita).get()
    assert run.payload["result"]["ok"] and run.payload["result"]["row_count"] == 5
    review = passes.review_decide(reviewer=rita, dialogue=dialogue, approve=True)
    assert review.stage == ReviewStage.APPROVED and review.problems == []
    with transaction.atomic(), pytest.raises(sandbox.InsideTransaction, match="inside a transaction"):
        sandbox.execute(dialogue.database_path, "SELECT 1")
    assert sandbox.execute(dialogue.database_path, "SELECT 1").rows == [[1]]  # outside one, it runs


def test_a_query_corrected_by_someone_else_while_ones_own_ran_is_not_overwritten(finished, rita, monkeypatch):
    from annotation.models import Role
    from dialogs.log import correction_payload
    from dialogs.models import EventKind
    from dialogs.room import dialogue_record

    passes.review_sync()
    passes.review_claim(reviewer=rita, dialogue=finished)
    first = dialogue_record_of(finished).user_turns[0]
    real_run = passes.sql_run_result
    OTHERS = "SELECT count(*) FROM student WHERE age > 18"

    def run_while_another_correction_lands(dialogue, sql):
        result = real_run(dialogue, sql)
        payload = correction_payload(turn=first.seq, field="query", old=first.sql, new=OTHERS, review_pass=1)
        dialogue_record(dialogue=dialogue, author=rita, kind=EventKind.CORRECTION, payload=payload, role=Role.REVIEWER)
        return result

    monkeypatch.setattr(passes, "sql_run_result", run_while_another_correction_lands)
    with pytest.raises(ReviewError) as refused:
        passes.review_correct(
            reviewer=rita,
            dialogue=finished,
            turn=first.seq,
            field="query",
            value="SELECT count(student_id) FROM student",
        )
    assert refused.value.code == "changed"
    assert dialogue_record_of(finished).user_turns[0].sql == OTHERS  # the other correction stands, not overwritten
