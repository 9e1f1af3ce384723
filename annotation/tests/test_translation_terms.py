"""The Chinese catalogue says each database and annotation term one way (docs/i18n.md, "Terms"): a text that names a
table says 表, a column 列, a query 查询, a review 审核, a worker 标注员 … wherever it names one, so a person meets
one word for one thing on every screen. Reads the committed catalogues only (a fraction of a second)."""

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings

LOCALE = Path(settings.BASE_DIR) / "locale" / "zh_Hans" / "LC_MESSAGES"
# English word (a regular expression, whole words) -> the Chinese word its translation must contain.
TERMS = {
    r"tables?": "表",
    r"columns?": "列",
    r"primary keys?": "主键",
    r"foreign keys?": "外键",
    r"quer(?:y|ies)": "查询",
    r"databases?": "数据库",
    r"dialogues?": "对话",
    r"reviews?|reviewing|reviewed|reviewers?": "审核",
    r"experts?": "专家",
    r"workers?": "标注员",
    r"goals?": "目标",
    r"turns?": "轮",
}
# What is not a term when it is written: placeholders, {fields}, `code`, 'quoted names', tags and dotted names.
NOT_WORDS = re.compile(r"%\(\w+\)[sdifr]|\{[^}]*\}|`[^`]*`|'\w+'|<[^>]*>|\b\w+\.\w[\w.]*\b")
# Texts that name a file's fields (the English names stay, as the file must spell them).
FIELD_NAMES = {"JSON lines or CSV of dialogue, turn, response"}


def _translation(entry) -> str:
    return entry.msgstr or " ".join(entry.msgstr_plural.values())


def term_misses(entries) -> list[str]:
    """Each entry whose translation does not use a term its English text names, as `term | msgid => msgstr`."""
    found = []
    for entry in entries:
        translated = _translation(entry)
        if not translated or any(entry.msgid.startswith(prefix) for prefix in FIELD_NAMES):
            continue
        words = NOT_WORDS.sub(" ", entry.msgid)
        for english, chinese in TERMS.items():
            if re.search(rf"\b(?:{english})\b", words, re.IGNORECASE) and chinese not in translated:
                found.append(f"{english} | {entry.msgid[:80]} => {translated[:60]}")
    return found


def test_the_check_finds_a_term_said_another_way():
    entries = [
        polib.POEntry(msgid="No such column.", msgstr="没有这个字段。"),
        polib.POEntry(msgid="The %(table)s is empty.", msgstr="%(table)s 是空的。"),
        polib.POEntry(msgid="Send it to review.", msgstr="提交审核。"),
        polib.POEntry(msgid="'turn' is a number.", msgstr="'turn' 是数字。"),
    ]
    assert [miss.split(" | ")[0] for miss in term_misses(entries)] == ["columns?"]


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_every_translation_says_a_term_the_one_way(domain):
    misses = term_misses(polib.pofile(str(LOCALE / f"{domain}.po")))
    assert misses == [], "say these terms as the glossary does (docs/i18n.md):\n" + "\n".join(misses)
