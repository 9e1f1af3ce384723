"""The experts' guidelines (docs/experts.md): the act guide, the response guide and the SQL conventions, saved by an
admin as versions (who, when), and each expert's confirmation that they read the current one. The desk shows the
current version until the expert confirms it; a new version asks again, and "ready" waits for it
(`dialogs.onboarding.qualification.expert_ready_refusal`)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils.formats import number_format
from django.utils.translation import gettext, gettext_lazy

from annotation.labels.acts import RESPONSE_GUIDE, SYSTEM_ACTS, USER_ACTS
from annotation.models import User
from dialogs.onboarding.markdown import guidelines_html
from dialogs.onboarding.models import GuidelinesRead, GuidelinesVersion

# The three texts of a version, in the order the pages show them, with their titles.
SECTIONS = [
    ("act_guide", gettext_lazy("The dialogue acts")),
    ("response_guide", gettext_lazy("Writing responses")),
    ("sql_conventions", gettext_lazy("SQL conventions")),
]
# A guideline longer than this is no page anyone reads before a room.
MAX_CHARS = 20_000


class GuidelinesRefused(ValueError):
    """A save or a confirmation that cannot be made; the message says why."""


def guidelines_current() -> GuidelinesVersion | None:
    """The newest version, or None while an admin has saved none."""
    return GuidelinesVersion.objects.order_by("-id").select_related("edited_by").first()


def guidelines_draft() -> dict[str, str]:
    """The texts an admin starts from: the current version's, or, before any, the platform's own act definitions and
    response guide (annotation.labels.acts, after the CoSQL paper's appendix) and a few conventions to edit."""
    current = guidelines_current()
    if current is not None:
        return {name: getattr(current, name) for name, _ in SECTIONS}
    users = "\n".join(f"- **{name}**: {text}" for name, text in USER_ACTS.items())
    systems = "\n".join(f"- **{name}**: {text}" for name, text in SYSTEM_ACTS.items())
    responses = "\n".join(f"- **{name}**: {text}" for name, text in RESPONSE_GUIDE.items())
    return {
        "act_guide": f"## The worker's acts\n\nLabel every user turn with all that apply.\n\n{users}\n\n"
        f"## Your acts\n\n{systems}",
        "response_guide": f"Every response answers the user's acts.\n\n{responses}",
        "sql_conventions": (
            "- Select only what the question asks for, in the order it asks.\n"
            "- Join tables on their keys and name them `T1`, `T2`, … as Spider does.\n"
            "- Use `ORDER BY … LIMIT 1` for “the most” or “the least”, and say so in the response.\n"
            "- Run the query, look at the result, and share it before you respond."
        ),
    }


def guidelines_save(*, editor: User, act_guide: str, response_guide: str, sql_conventions: str) -> GuidelinesVersion:
    """Save the guidelines as a new version by `editor`; the current version when nothing changed (nobody is asked to
    read the same text again). GuidelinesRefused for an empty or oversized text."""
    texts = {"act_guide": act_guide, "response_guide": response_guide, "sql_conventions": sql_conventions}
    texts = {name: (value or "").replace("\r\n", "\n").strip() for name, value in texts.items()}
    if not any(texts.values()):
        raise GuidelinesRefused(gettext("Write at least one of the three guides."))
    for name, title in SECTIONS:
        if len(texts[name]) > MAX_CHARS:
            raise GuidelinesRefused(
                gettext("%(title)s is longer than %(limit)s characters.")
                % {"title": title, "limit": number_format(MAX_CHARS, force_grouping=True)}
            )
    with transaction.atomic():
        current = GuidelinesVersion.objects.select_for_update().order_by("-id").first()
        if current is not None and all(getattr(current, name) == value for name, value in texts.items()):
            return current
        return GuidelinesVersion.objects.create(edited_by=editor, **texts)


def guidelines_confirm(*, person: User, version_id: int) -> GuidelinesRead:
    """Record that `person` read version `version_id`, which must be the current one (a page left open while an admin
    saved a newer version confirms nothing: the newer one is shown instead). Confirming twice keeps the first."""
    current = guidelines_current()
    if current is None or current.pk != version_id:
        raise GuidelinesRefused(
            gettext("The guidelines changed while you were reading them: please read the new version.")
        )
    try:
        with transaction.atomic():
            read, _ = GuidelinesRead.objects.get_or_create(person=person, version=current)
    except IntegrityError:  # two tabs confirmed at the same instant
        read = GuidelinesRead.objects.get(person=person, version=current)
    return read


@dataclass(frozen=True)
class GuidelinesToRead:
    """The current version `person` has not confirmed, the version they read last (None: never any), and the titles of
    the sections that changed since (all of them when they never read any)."""

    version: GuidelinesVersion
    read_before: GuidelinesVersion | None
    changed: list[str]


def guidelines_unread(person: User) -> GuidelinesToRead | None:
    """What `person` must read before their next room: None when there are no guidelines or they confirmed the
    current version."""
    # The newest version's number first (every expert's join asks): its texts and editor only when they are unread.
    newest = GuidelinesVersion.objects.order_by("-id").values_list("id", flat=True).first()
    if newest is None or GuidelinesRead.objects.filter(person=person, version_id=newest).exists():
        return None
    current = GuidelinesVersion.objects.select_related("edited_by").filter(pk=newest).first()
    if current is None:  # deleted meanwhile (a test's flush): nothing to read
        return None
    last = (
        GuidelinesVersion.objects.filter(reads__person=person).order_by("-id").first()
        if person.pk is not None
        else None
    )
    changed = [str(title) for name, title in SECTIONS if last is None or getattr(last, name) != getattr(current, name)]
    return GuidelinesToRead(version=current, read_before=last, changed=changed)


def guidelines_sections(version: GuidelinesVersion) -> list[dict]:
    """The sections of a version that hold text, for a page: name, title and the escaped HTML of the safe subset."""
    return [
        {"name": name, "title": str(title), "html": guidelines_html(getattr(version, name))}
        for name, title in SECTIONS
        if getattr(version, name)
    ]
