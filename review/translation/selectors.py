"""Reads of translation projects: which projects a person sees, and progress per database and per person."""

from __future__ import annotations

from django.db.models import Count, Q

from annotation.models import User
from annotation.people.roles import can
from review.translation.models import ProjectDatabase, TranslationInteraction, TranslationProject, TranslationUnit

State = TranslationInteraction.State


def projects_for(person: User):
    """Every project for admins and reviewers; for a translator, those with a database assigned to them."""
    projects = TranslationProject.objects.order_by("-created_at", "-id")
    if can(person, "translation.manage") or can(person, "translation.review"):
        return projects
    return projects.filter(databases__translators=person).distinct()


def may_see_project(person: User, project: TranslationProject) -> bool:
    return projects_for(person).filter(pk=project.pk).exists()


def database_progress(project: TranslationProject) -> list[dict]:
    """Per database: names and values translated of all, interactions per state, and who is assigned."""
    rows = []
    databases = project.databases.select_related("database").prefetch_related("translators")
    for project_database in databases:
        units = project_database.units.aggregate(
            names=Count("id", filter=~Q(kind=TranslationUnit.Kind.VALUE)),
            names_done=Count("id", filter=~Q(kind=TranslationUnit.Kind.VALUE) & ~Q(translation="")),
            values=Count("id", filter=Q(kind=TranslationUnit.Kind.VALUE)),
            values_done=Count("id", filter=Q(kind=TranslationUnit.Kind.VALUE) & ~Q(translation="")),
            proposals=Count("id", filter=~Q(proposal="") & Q(translation="")),
        )
        states = dict(
            project_database.interactions.values("state").annotate(count=Count("id")).values_list("state", "count")
        )
        rows.append(
            {
                "project_database": project_database,
                **units,
                "interactions": sum(states.values()),
                "states": {state: states.get(state, 0) for state in State.values},
            }
        )
    return rows


def person_progress(project: TranslationProject) -> list[dict]:
    """Per person who did anything on the project: names and values translated, interactions translated (and of
    those approved), interactions reviewed."""
    people: dict[int, dict] = {}

    def row(person_id: int) -> dict:
        return people.setdefault(
            person_id, {"units": 0, "interactions": 0, "approved": 0, "reviewed": 0, "person_id": person_id}
        )

    units = TranslationUnit.objects.filter(project_database__project=project, translated_by__isnull=False)
    for person_id, count in (
        units.values("translated_by").annotate(count=Count("id")).values_list("translated_by", "count")
    ):
        row(person_id)["units"] = count
    interactions = project.interactions.filter(translated_by__isnull=False)
    for item in interactions.values("translated_by").annotate(
        count=Count("id"), approved=Count("id", filter=Q(state=State.APPROVED))
    ):
        row(item["translated_by"]).update(interactions=item["count"], approved=item["approved"])
    reviewed = project.interactions.filter(reviewed_by__isnull=False).values("reviewed_by").annotate(count=Count("id"))
    for item in reviewed:
        row(item["reviewed_by"])["reviewed"] = item["count"]
    names = dict(User.objects.filter(pk__in=list(people)).values_list("pk", "username"))
    return sorted(
        ({**value, "username": names.get(key, "?")} for key, value in people.items()), key=lambda r: r["username"]
    )


def assigned_databases(person: User, project: TranslationProject):
    if can(person, "translation.manage"):
        return project.databases.select_related("database")
    return project.databases.filter(translators=person).select_related("database")


def waiting_for_review(project: TranslationProject):
    return project.interactions.filter(state=State.SUBMITTED).select_related("project_database__database")


def units_page(project_database: ProjectDatabase, *, kind: str, pending: bool):
    units = project_database.units.filter(kind=kind).select_related("translated_by")
    if pending:
        units = units.filter(translation="")
    return units.order_by("table", "column", "source", "id")


def columns_with_values(project_database: ProjectDatabase) -> list[dict]:
    """The columns whose values are listed, each with how many are still untranslated (the values page's "keep")."""
    rows = (
        project_database.units.filter(kind=TranslationUnit.Kind.VALUE)
        .values("table", "column")
        .annotate(waiting=Count("id", filter=Q(translation="")), values=Count("id"))
        .order_by("table", "column")
    )
    return list(rows)
