"""The worker tutorial's quiz (CoSQL: how to ask interrelated questions; how to read tables joined by keys).

The questions live in a bank, a JSON file an admin can extend (`QUIZ_FILE`, by default dialogs/quiz.json). Each
worker answers `QUIZ_QUESTIONS` questions drawn from it, their choices shuffled; the draw is kept in the worker's
session until they pass or cool down, so a reload shows the same quiz. Wrong tries and the cool-down after
`QUIZ_TRIES` of them are kept per worker in the database (`dialogs.models.QuizState`, written by
`dialogs.lobby.worker_quiz_answer`).

A bank per language (docs/i18n.md): beside the file QUIZ_FILE names, `<name>.<language>.json`
(dialogs/quiz.zh-hans.json) holds the same questions written in that language, with the same ids and the same number
of choices, the right one first. A draw is made of ids and positions, so it reads the same in every language; a page
in a language with no bank of its own shows the QUIZ_FILE bank.
"""

import random
import re
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import translation

from annotation.plumbing.jsonfile import decoded_text, parse_json

LETTERS = "abcdefgh"
QUESTION_ID = re.compile(r"[A-Za-z0-9_-]{1,60}")
MAX_TEXT = 300


class QuizBankError(ValueError):
    """The quiz file cannot be used; the message names the file, the question and what is wrong."""


@dataclass(frozen=True)
class QuizQuestion:
    id: str
    question: str
    right: str
    wrong: tuple[str, ...]

    @property
    def choices(self) -> tuple[str, ...]:
        """The right choice first, then the wrong ones: a draw's order is a permutation of these positions."""
        return (self.right, *self.wrong)


_cache: dict[tuple[str, int, int], tuple[QuizQuestion, ...]] = {}


def bank_path(language: str | None = None) -> Path:
    """The bank of `language` (the active language by default): its own file beside QUIZ_FILE when there is one,
    else the QUIZ_FILE bank."""
    path = Path(settings.QUIZ_FILE)
    language = language if language is not None else translation.get_language()
    if language and language != settings.LANGUAGE_CODE:
        own = path.with_name(f"{path.stem}.{language.lower()}{path.suffix}")
        if own.exists():
            return own
    return path


def quiz_bank(language: str | None = None) -> tuple[QuizQuestion, ...]:
    """The questions of the quiz file in `language` (the active language by default), validated; QuizBankError when
    the file is missing, not JSON, or a question is malformed. Read again whenever the file changes (an admin's edit
    needs no restart)."""
    path = bank_path(language)
    try:
        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size)
        if key not in _cache:
            for old in [old for old in _cache if old[0] == key[0]]:
                del _cache[old]  # an earlier version of this file
            _cache[key] = _parse(path.read_bytes(), source=str(path))
    except OSError as exc:
        raise QuizBankError(
            f"The quiz file {path} cannot be read: {exc.strerror or exc}."
        ) from None  # i18n-exempt: log, check
    return _cache[key]


def quiz_banks_agree() -> None:
    """Every language's bank holds the QUIZ_FILE bank's questions (same ids, same number of choices); QuizBankError
    names the first that does not (the start-up check runs this)."""
    main = {question.id: len(question.choices) for question in quiz_bank(settings.LANGUAGE_CODE)}
    for language, _name in settings.LANGUAGES:
        path = bank_path(language)
        if path == Path(settings.QUIZ_FILE):
            continue
        other = {question.id: len(question.choices) for question in quiz_bank(language)}
        differing = sorted({qid for qid in main.keys() | other.keys() if main.get(qid) != other.get(qid)})
        if differing:
            raise QuizBankError(  # i18n-exempt: log, check
                f"{path}: its questions must be those of {settings.QUIZ_FILE} (the same ids, each with as many "
                f"choices); these differ: {', '.join(differing)}."
            )


# The bank's errors name the file and the field; they go to the server's log and to `manage.py check`, never to a
# page (the tutorial shows the worker its own message): docs/i18n.md keeps such texts in English.


def _parse(raw: bytes, *, source: str) -> tuple[QuizQuestion, ...]:
    try:
        data = parse_json(decoded_text(raw, source=source), source=source)
    except ValidationError as exc:
        raise QuizBankError(exc.messages[0]) from None
    if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
        raise QuizBankError(f'{source}: expected an object with a "questions" list.')  # i18n-exempt: log, check
    questions, seen = [], set()
    for number, item in enumerate(data["questions"], start=1):
        question = _question(item, f"{source}, question {number}", seen)
        seen.add(question.id)
        questions.append(question)
    if len(questions) < settings.QUIZ_QUESTIONS:
        raise QuizBankError(  # i18n-exempt: log, check
            f"{source} has {len(questions)} question(s); the quiz asks QUIZ_QUESTIONS={settings.QUIZ_QUESTIONS}."
        )
    return tuple(questions)


def _question(item, where: str, seen: set[str]) -> QuizQuestion:
    """One question of the bank (`where` names it in errors); its id must not be one of `seen`."""
    if not isinstance(item, dict):
        raise QuizBankError(
            f"{where}: expected an object with id, question, right and wrong."
        )  # i18n-exempt: log, check
    unknown = set(item) - {"id", "question", "right", "wrong"}
    if unknown:
        raise QuizBankError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}.")  # i18n-exempt: log, check
    qid = item.get("id")
    if not isinstance(qid, str) or not QUESTION_ID.fullmatch(qid):
        raise QuizBankError(
            f"{where}: id must be 1-60 letters, digits, - or _ (got {qid!r})."
        )  # i18n-exempt: log, check
    if qid in seen:
        raise QuizBankError(f"{where}: the id {qid!r} is used twice.")  # i18n-exempt: log, check
    wrong = item.get("wrong")
    texts = {"question": item.get("question"), "right": item.get("right")}
    if not isinstance(wrong, list) or not 1 <= len(wrong) <= len(LETTERS) - 1:
        raise QuizBankError(
            f"{where} ({qid}): wrong must be a list of 1 to {len(LETTERS) - 1} choices."
        )  # i18n-exempt: log, check
    texts.update({f"wrong choice {n}": text for n, text in enumerate(wrong, start=1)})
    for name, text in texts.items():
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT:
            raise QuizBankError(
                f"{where} ({qid}): {name} must be a text of 1 to {MAX_TEXT} characters."
            )  # i18n-exempt: log, check
    choices = [item["right"].strip(), *(text.strip() for text in wrong)]
    if len(set(choices)) != len(choices):
        raise QuizBankError(f"{where} ({qid}): two choices are the same text.")  # i18n-exempt: log, check
    return QuizQuestion(qid, item["question"].strip(), choices[0], tuple(choices[1:]))


def quiz_draw(rng: random.Random | None = None) -> list[dict]:
    """A new quiz for one worker: `QUIZ_QUESTIONS` questions of the bank, each with its choices in a shuffled order
    (positions into `QuizQuestion.choices`). JSON-ready, for the session."""
    rng = rng or random.SystemRandom()
    draw = []
    for question in rng.sample(quiz_bank(), settings.QUIZ_QUESTIONS):
        order = list(range(len(question.choices)))
        rng.shuffle(order)
        draw.append({"id": question.id, "order": order})
    return draw


def quiz_items(draw: list[dict]) -> list[dict] | None:
    """What the page shows of a draw: per question its form name, text and lettered choices. None when the draw no
    longer fits the bank (its file changed since): the caller draws again."""
    by_id = {question.id: question for question in quiz_bank()}
    items = []
    for entry in draw:
        question = by_id.get(entry.get("id"))
        order = entry.get("order")
        if question is None or sorted(order or []) != list(range(len(question.choices))):
            return None
        choices = [(LETTERS[position], question.choices[index]) for position, index in enumerate(order)]
        items.append({"name": question.id, "question": question.question, "choices": choices})
    return items


def quiz_wrong(draw: list[dict], answers: dict) -> int:
    """How many questions of the draw `answers` (form name → letter) got wrong; an unanswered one is wrong."""
    wrong = 0
    for entry in draw:
        letter = answers.get(entry["id"]) or ""
        position = LETTERS.find(letter) if len(letter) == 1 else -1
        if position < 0 or position >= len(entry["order"]) or entry["order"][position] != 0:
            wrong += 1
    return wrong
