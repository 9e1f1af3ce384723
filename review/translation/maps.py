"""A project database's name map and value map, read from its units (annotation.sql.translate says how they are
used). A unit without a translation keeps its original text."""

from __future__ import annotations

from dataclasses import dataclass

from annotation.sql.translate import NameMap, ValueMap
from review.translation.models import ProjectDatabase, TranslationUnit


@dataclass(frozen=True)
class Maps:
    names: NameMap
    values: ValueMap
    schema: dict  # the file's own tables.json entry (every table the file holds, before curation)


def file_schema(project_database: ProjectDatabase) -> dict:
    """The schema of the file the project translates: its current version's own entry (curation hides nothing from
    the copy: every table of the file is renamed), or the registered entry where no version is kept."""
    version = project_database.database.current_version
    return version.schema if version is not None else project_database.database.schema


def maps_of(project_database: ProjectDatabase, *, units: list[TranslationUnit] | None = None) -> Maps:
    units = list(project_database.units.all()) if units is None else units
    tables, columns, values = {}, {}, {}
    for unit in units:
        if not unit.translation:
            continue
        if unit.kind == TranslationUnit.Kind.TABLE:
            tables[unit.table] = unit.translation
        elif unit.kind == TranslationUnit.Kind.COLUMN:
            columns[(unit.table, unit.column)] = unit.translation
        else:
            values[unit.source] = unit.translation
    schema = file_schema(project_database)
    return Maps(NameMap.of(schema, tables, columns), ValueMap.of(values), schema)
