"""The JavaScript's words in the person's language (docs/i18n.md): the committed djangojs catalogue is complete and
current, and /jsi18n/ (config/urls.py "javascript-catalog", loaded by templates/base.html before any module) serves it
in the request's language. test_translations.py holds the same checks for the templates' and Python's catalogue."""

import json
import re
import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from annotation.people.services import person_create
from annotation.tests.test_translations import entry_key, extracted_keys, written_and_compiled
from config.javascript_catalogue import catalogue_url

REPO = Path(settings.BASE_DIR)
CATALOGUE = REPO / "locale" / "zh_Hans" / "LC_MESSAGES" / "djangojs.po"
NAMED = re.compile(r"%\((\w+)\)s")


def test_the_js_catalogue_has_no_untranslated_fuzzy_or_obsolete_entry():
    catalogue = polib.pofile(str(CATALOGUE))
    assert len(catalogue) > 100
    assert [e.msgid for e in catalogue.untranslated_entries()] == []
    assert [e.msgid for e in catalogue.fuzzy_entries()] == []
    assert [e.msgid for e in catalogue.obsolete_entries()] == []
    for entry in catalogue:
        translations = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        assert translations and all(text.strip() for text in translations), entry.msgid
        # interpolate() fills named placeholders only: each translation keeps every one, and adds none.
        wanted = set(NAMED.findall(entry.msgid + (entry.msgid_plural or "")))
        for text in translations:
            assert set(NAMED.findall(text)) == wanted, (entry.msgid, text)


def test_the_committed_compiled_js_catalogue_is_the_catalogue():
    written, compiled = written_and_compiled(CATALOGUE)
    assert compiled == written, "run `make messages` and commit locale/"


@pytest.mark.skipif(not shutil.which("xgettext"), reason="GNU gettext is not installed (`make test` installs it)")
def test_every_string_marked_in_the_javascript_is_in_the_catalogue(tmp_path):
    """Extract the strings marked in a copy of static/js (its vendored bundle left out, as `make messages` does) and
    compare with the committed catalogue, both ways. The copy has its own settings, so nothing is written to locale/."""
    # The packages are what the settings import; their .py is not read for this domain.
    packages = {
        package: ("tests", "__pycache__", "*.json") for package in ("annotation", "dialogs", "review", "config")
    }
    extracted = extracted_keys(tmp_path, {"static/js": ("vendor",), **packages}, "djangojs")
    committed = {entry_key(e) for e in polib.pofile(str(CATALOGUE))}
    assert sorted(extracted - committed) == [], "marked but not in the catalogue: run `make messages`, translate"
    assert sorted(committed - extracted) == [], "in the catalogue but marked nowhere: run `make messages`"


def _catalogue(client: Client, **headers) -> str:
    response = client.get(reverse("javascript-catalog"), **headers)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    return response.content.decode()


def test_the_js_catalogue_speaks_the_requests_language(db):
    chinese = _catalogue(Client(), HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9")
    # A string of the rooms, its plural, and the plural rule of Chinese (one form).
    assert json.dumps({"Send this result to the user": "把此结果发送给用户"})[1:-1] in chinese
    assert '"%(count)s row": [' in chinese and json.dumps("%(count)s 行") in chinese
    english = _catalogue(Client(), HTTP_ACCEPT_LANGUAGE="en")
    assert "Send this result to the user" not in english  # no catalogue: gettext answers the English itself
    assert json.dumps("结果")[1:-1] not in english


def test_pages_load_the_catalogue_before_their_modules(db):
    person = person_create(username="jsi18n_reviewer", role="reviewer", password="pw-jsi18n-reviewer-1")[0]
    client = Client()
    client.force_login(person)
    page = client.get(reverse("review:home"), {"lang": "zh-hans"}).content.decode()
    catalogue = page.index(f'<script src="{catalogue_url("zh-hans")}"></script>')
    module = page.index('<script type="module"')
    assert catalogue < module
    assert 'lang="zh-hans"' in page  # static/js/i18n.js formats numbers and dates by <html lang>


def test_the_catalogue_is_cached_by_a_versioned_address(db):
    """config/javascript_catalogue.py: the address names the language and the catalogue's hash; it is cached for a year,
    answers 304 to its ETag, and is the same bytes /jsi18n/ answers in that language."""
    address = catalogue_url("zh-hans")
    assert address.startswith("/jsi18n/zh-hans/") and address != catalogue_url("en")
    # Asked with an English browser: the address's language wins, and nothing varies with the request.
    response = Client().get(address, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert "max-age=31536000" in response["Cache-Control"] and "immutable" in response["Cache-Control"]
    assert "Cookie" not in response.get("Vary", "") and response["Content-Language"] == "zh-hans"
    assert response.content.decode() == _catalogue(Client(), HTTP_ACCEPT_LANGUAGE="zh-CN")
    again = Client().get(address, HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304 and again.content == b""
    # An old version's address answers the current words, to be revalidated, never kept.
    stale = Client().get(address.rsplit("/", 1)[0] + "/0000000000000000.js")
    assert stale.status_code == 200 and stale.content == response.content
    assert "no-cache" in stale["Cache-Control"] and "immutable" not in stale["Cache-Control"]
    assert Client().get("/jsi18n/xx/0000000000000000.js").status_code == 404
