"""A room drafts the expert's response in the dialogue's language (dialogs.assist.draft_language, docs/i18n.md): a
question asked in Chinese on a database with Chinese names gets a Chinese draft, whatever the expert's screens say."""

import itertools
import re
import sqlite3

import pytest
from django.utils import timezone

from annotation.databases.services import database_register
from annotation.people.services import person_create
from annotation.wording.chinese_drafts import draft_response as chinese_draft
from dialogs import assist
from dialogs.models import Dialogue, Event, EventKind
from dialogs.room import dialogue_post
from tests.builders import CITIES_ZH

pytestmark = pytest.mark.django_db
_ids = itertools.count(1)


@pytest.fixture
def chinese_room(tmp_path):
    path = tmp_path / "cities_zh.sqlite"
    with sqlite3.connect(path) as connection:
        for statement in CITIES_ZH:
            connection.execute(statement)
    connection.close()
    database = database_register(db_id="cities_zh_draft", source_path=path)
    worker, _ = person_create(username="zh_draft_worker", role="worker", password="correct-horse-battery")
    worker.tutorial_passed_at = timezone.now()
    worker.language = "zh-hans"
    worker.save(update_fields=["tutorial_passed_at", "language"])
    expert, _ = person_create(username="zh_draft_expert", role="expert", password="correct-horse-battery")
    expert.language = "en"  # the expert's screens are English: the draft follows the dialogue, not them
    expert.save(update_fields=["language"])
    dialogue = Dialogue.objects.create(database=database, worker=worker, expert=expert, status="active")

    def send(person, **message):
        return dialogue_post(dialogue=dialogue, person=person, message={"id": f"zd{next(_ids)}", **message})

    def answered(question: str, sql: str) -> dict:
        turn = send(worker, type="utterance", text=question)[0][0].seq
        send(expert, type="user_acts", turn=turn, acts=["INFORM_SQL"])
        run = send(expert, type="sql_run", turn=turn, sql=sql)[0][0]
        send(expert, type="share_result", turn=turn, run=run.seq)
        labels = Event.objects.filter(dialogue=dialogue, kind=EventKind.TURN_LABELS).order_by("-seq").first()
        return labels.payload

    answered.worker = worker
    return answered


def test_a_room_on_a_chinese_database_offers_a_chinese_draft(chinese_room):
    labels = chinese_room("广东有几个城市？", "SELECT count(*) FROM 城市 WHERE 省份 = '广东'")
    assert labels["draft"] == "省份为广东的城市共有 2 座。"
    labels = chinese_room("人口最多的是哪个城市？", "SELECT 名称 FROM 城市 ORDER BY 人口 DESC LIMIT 1")
    assert labels["draft"] == "人口最多的城市是成都。"


def test_a_question_without_words_is_drafted_in_the_workers_language(chinese_room):
    labels = chinese_room("？？", "SELECT avg(人口) FROM 城市")
    assert labels["draft"] == chinese_draft("SELECT avg(人口) FROM 城市", {"rows": [[1601.6]]}, None)
    assert labels["draft"] == "城市的平均人口是 1601.6。"
    chinese_room.worker.language = "en"  # the account says English (as the room's dialogue row reads it)
    chinese_room.worker.save(update_fields=["language"])
    labels = chinese_room("？？", "SELECT avg(人口) FROM 城市")
    assert labels["draft"].isascii() is False and "平均" not in labels["draft"]  # the English rules (a Chinese name)


@pytest.mark.parametrize(
    ("utterance", "worker_language", "names", "language"),
    [
        ("广东有几个城市？", "en", [], "zh-hans"),  # the question decides
        ("How many cities?", "zh-hans", ["城市"], "en"),
        ("2019?", "zh-hans", [], "zh-hans"),  # no words: the worker's account
        ("2019?", "", ["城市"], "zh-hans"),  # nor an account's language: the database's names
        ("2019?", "", ["city"], "en"),
    ],
)
def test_the_drafts_language_is_the_dialogues(utterance, worker_language, names, language):
    schema = {"table_names": names, "column_names": [[-1, "*"]]}
    assert assist.draft_language(utterance=utterance, worker_language=worker_language, schema=schema) == language


def test_draft_for_chooses_the_rules_by_language():
    sql, result = "SELECT 名称 FROM 城市", {"rows": [["广州"]]}
    assert assist.draft_for(schema=None, sql=sql, result=result, language="zh-hans") == "城市是广州。"
    assert assist.draft_for(schema=None, sql=sql, result=result).isascii() is False  # English rules, Chinese value
    assert "是" not in assist.draft_for(schema=None, sql=sql, result=result)


def test_a_chinese_speaking_worker_is_suggested_the_next_question_in_chinese(chinese_room, settings):
    """The suggestion after an answer is worded in the dialogue's language by the Chinese rules (docs/i18n.md)."""
    settings.INTENT_RECOMMENDATIONS = True
    settings.CHASE_PHENOMENA_REQUIRED = False
    chinese_room("广东有哪些城市？", "SELECT 名称, 人口 FROM 城市 WHERE 省份 = '广东'")
    dialogue = Dialogue.objects.get(worker=chinese_room.worker)
    turn = Event.objects.filter(dialogue=dialogue, kind=EventKind.RESULT_SHARED).latest("seq").payload["turn"]
    dialogue_post(
        dialogue=dialogue,
        person=dialogue.expert,
        message={"id": "zd-confirm", "type": "response", "turn": turn, "text": "广州和深圳。", "acts": ["CONFIRM_SQL"]},
    )
    offered = Event.objects.filter(dialogue=dialogue, kind=EventKind.RECOMMENDATION).latest("seq").payload
    assert assist._HAN.search(offered["text"]) and not re.search(r"\b(?:Ask|their|these|the)\b", offered["text"])
