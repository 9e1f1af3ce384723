"""The screens in the person's language (docs/i18n.md): the committed catalogue is complete and current, and the
language is chosen as config/language.py says (?lang= > account > session > browser)."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from annotation.people.services import person_create

REPO = Path(settings.BASE_DIR)
CATALOGUE = REPO / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdifr]|%[sdif]")
# The folders `make messages` reads (its MESSAGE_IGNORES leave out tests, tools and the rest).
SOURCES = ("annotation", "dialogs", "review", "config", "templates")
# A few Chinese words the pages below must show when they are in Chinese.
CHINESE = "退出登录"


def entry_key(entry) -> tuple:
    return (entry.msgctxt or "", entry.msgid, entry.msgid_plural or "")


def written_and_compiled(catalogue: Path) -> tuple[dict, dict]:
    """The translations of a committed catalogue (.po) and of its compiled .mo, by entry; equal when it is current."""
    written = {entry_key(e): (e.msgstr, dict(e.msgstr_plural)) for e in polib.pofile(str(catalogue)) if not e.obsolete}
    compiled = {
        entry_key(e): (e.msgstr, dict(e.msgstr_plural))
        for e in polib.mofile(str(catalogue.with_suffix(".mo")))
        if e.msgid
    }
    return written, compiled


def extracted_keys(tmp_path: Path, copies: dict[str, tuple[str, ...]], domain: str) -> set:
    """The entries `make messages` extracts for `domain` from a copy of the folders in `copies` (each with the names
    its copy leaves out), made in `tmp_path` with its own settings, so nothing is written to locale/."""
    for folder, left_out in copies.items():
        shutil.copytree(REPO / folder, tmp_path / folder, ignore=shutil.ignore_patterns(*left_out))
    shutil.copy(REPO / "manage.py", tmp_path)
    (tmp_path / "locale").mkdir()
    done = subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-d", domain, "-l", "zh_Hans", "--no-obsolete", "--no-wrap"],
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "DEBUG": "1", "WOZSQL_DATA_DIR": str(tmp_path / "var")},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return {entry_key(e) for e in polib.pofile(str(tmp_path / f"locale/zh_Hans/LC_MESSAGES/{domain}.po"))}


def test_the_catalogue_has_no_untranslated_fuzzy_or_obsolete_entry():
    catalogue = polib.pofile(str(CATALOGUE))
    assert len(catalogue) > 0
    assert [e.msgid for e in catalogue.untranslated_entries()] == []
    assert [e.msgid for e in catalogue.fuzzy_entries()] == []
    assert [e.msgid for e in catalogue.obsolete_entries()] == []
    for entry in catalogue:
        if entry.msgid_plural:
            assert all(text.strip() for text in entry.msgstr_plural.values()), entry.msgid
        translations = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        wanted = sorted(PLACEHOLDER.findall(entry.msgid + (entry.msgid_plural or "")))
        for text in translations:
            # Every named placeholder of the English text is used (a plural form may leave out the bare count).
            assert set(PLACEHOLDER.findall(text)) <= set(wanted), (entry.msgid, text)
            named = {name for name in wanted if name}
            assert named - {"count"} <= set(PLACEHOLDER.findall(text)), (entry.msgid, text)


def test_the_committed_compiled_catalogue_is_the_catalogue():
    written, compiled = written_and_compiled(CATALOGUE)
    assert compiled == written, "run `make messages` and commit locale/"


@pytest.mark.skipif(not shutil.which("xgettext"), reason="GNU gettext is not installed (`make test` installs it)")
def test_every_marked_string_is_in_the_catalogue(tmp_path):
    """Extract the marked strings of a copy of the sources, as `make messages` does, and compare with the committed
    catalogue: a string marked since the last `make messages` is missing from it, one unmarked is left over."""
    left_out = ("tests", "__pycache__", "*.json")
    extracted = extracted_keys(tmp_path, {folder: left_out for folder in SOURCES}, "django")
    committed = {entry_key(e) for e in polib.pofile(str(CATALOGUE))}
    assert sorted(extracted - committed) == [], "marked but not in the catalogue: run `make messages`, translate"
    assert sorted(committed - extracted) == [], "in the catalogue but marked nowhere: run `make messages`"


@pytest.fixture
def person(db):
    return person_create(username="lang_reviewer", role="reviewer", password="pw-lang-reviewer-1")[0]


def _signed_in(person) -> Client:
    client = Client()
    client.force_login(person)
    return client


def _in_chinese(response) -> bool:
    text = response.content.decode()
    return CHINESE in text and 'lang="zh-hans"' in text


def test_a_page_is_in_chinese_for_an_account_that_says_so(person):
    person.language = "zh-hans"
    person.save(update_fields=["language"])
    response = _signed_in(person).get(reverse("review:home"), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200 and _in_chinese(response)
    assert response["Content-Language"] == "zh-hans"


def test_an_account_in_english_sees_english_whatever_the_browser_says(person):
    person.language = "en"
    person.save(update_fields=["language"])
    response = _signed_in(person).get(reverse("review:home"), HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9")
    assert "Sign out" in response.content.decode() and not _in_chinese(response)


def test_lang_in_the_address_wins_and_is_kept_for_the_session(person):
    client = _signed_in(person)
    assert _in_chinese(client.get(reverse("review:home"), {"lang": "zh-hans"}))
    assert _in_chinese(client.get(reverse("review:home")))  # the session keeps it; the account says nothing
    assert not _in_chinese(client.get(reverse("review:home"), {"lang": "en"}))
    assert not _in_chinese(client.get(reverse("review:home"), {"lang": "klingon"}))  # unknown: the session's, English


def test_the_browser_preference_is_the_default(db):
    assert 'lang="zh-hans"' in Client().get(reverse("login"), HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9").content.decode()
    assert 'lang="en"' in Client().get(reverse("login"), HTTP_ACCEPT_LANGUAGE="de,en;q=0.5").content.decode()


def test_the_switcher_keeps_the_choice_on_the_account(person):
    client = _signed_in(person)
    back = reverse("review:home")
    response = client.post(reverse("language"), {"language": "zh-hans", "next": back})
    assert response.status_code == 302 and response.url == back
    person.refresh_from_db()
    assert person.language == "zh-hans"
    assert _in_chinese(_signed_in(person).get(back))
    assert client.post(reverse("language"), {"language": "xx"}).status_code == 400
    assert client.post(reverse("language"), {"language": "en", "next": "https://elsewhere.example/"}).url == "/"


def test_the_switcher_works_before_sign_in(db):
    client = Client()
    client.post(reverse("language"), {"language": "zh-hans", "next": reverse("login")})
    assert 'lang="zh-hans"' in client.get(reverse("login")).content.decode()


def test_a_request_in_chinese_leaves_the_thread_in_its_language_before(person):
    from django.utils import translation

    before = translation.get_language()
    _signed_in(person).get(reverse("review:home"), {"lang": "zh-hans"})
    assert translation.get_language() == before
