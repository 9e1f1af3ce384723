"""Builders of the translation story (docs/translation.md): its people, with names of their own."""

from tests.builders import _person_named


def translation_people(translator: str, reviewer: str) -> list[str]:
    """An expert who translates and a reviewer who reviews (made if missing; refused if the name has another role)."""
    return [_person_named(translator, "expert").username, _person_named(reviewer, "reviewer").username]


def translation_names(project_id: int, username: str) -> int:
    """Every table and column name of the project's databases translated by `username` (a name of its own each, as a
    translator would give them on the database page): the story types one name itself and needs the rest done."""
    from annotation.models import User
    from review.translation.models import TranslationUnit
    from review.translation.services import translation_unit_save

    person = User.objects.get(username=username)
    units = TranslationUnit.objects.filter(project_database__project_id=project_id, translation="").exclude(
        kind="value"
    )
    done = 0
    for unit in units.order_by("id"):
        prefix = "表" if unit.kind == "table" else "列"
        translation_unit_save(person=person, unit=unit, text=f"{prefix}{unit.pk}")
        done += 1
    return done


def translation_build_queued(name: str, release_key: str, db_id: str) -> int:
    """A project asked for and waiting for a worker (none takes it: it is not queued on Celery), so the story sees the
    screen of a project being made; its id."""
    from annotation.models import User
    from review.translation.models import TranslationProjectBuild

    admin = User.objects.filter(role="admin").order_by("pk").first()
    build = TranslationProjectBuild.objects.create(
        requested_by=admin, name=name, release_key=release_key, db_ids=[db_id], split="dev", language="zh-hans"
    )
    return build.pk
