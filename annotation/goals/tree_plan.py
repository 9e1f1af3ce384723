"""An operation tree (docs/goals.md) as a readable plan, a question drafted from it, and the checks of query-first
annotation (docs/goals.md, "Query-first annotation").

OTTA (Deriu et al., 2020, section 4 and appendix D) shows an annotator the tree's operations one by one, each with
its intermediate result, and later has another person assign the question's tokens to those operations. `plan`
lists the operations in that order (the tables, the joins, the filters, grouping, the projection, the order, the
set operation, and last the query type), each with a stable id, a short English label and the SQL whose result is
the intermediate result at that step (the last step's SQL is the goal's). `draft_question` writes one plain
question from the tree, a starting point a person may take. `adapt_filter` changes one filter's operator or value
(OTTA's "adapt a nonsensical constraint"), and `check_alignment` validates a token-to-operation alignment.

Pure: no database and no model. Running the steps is the caller's (through the sandbox). Names read through
`annotation.wording.english`, as drafts and suggestions read them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import asdict, dataclass

from django.utils.translation import gettext

from annotation.goals.operation_tree import (
    counted_table,
    join_directions,
    literal,
    lowest_table,
    tree_sql,
    unread_tables,
)
from annotation.goals.rules import is_person_name_part
from annotation.wording.english import (
    COMPARISON_PHRASES,
    column_phrase,
    flag_kept,
    flag_state,
    identifier_like,
    noun,
    schema_vocabulary,
    table_noun,
    words_of,
)

__all__ = [
    "FILTER_OPS",
    "PlanStep",
    "TreeError",
    "adapt_filter",
    "check_alignment",
    "condition_phrase",
    "draft_question",
    "filters_of",
    "plan",
    "required_steps",
    "schema_names",
]

# The operators an annotator may give a filter when adapting it (the sampler draws =, <, > and LIKE).
FILTER_OPS = ("=", "!=", "<", ">", "<=", ">=", "like")
_TYPE_WORDS = {"sum": "total", "avg": "average", "min": "smallest", "max": "largest"}
_SET_WORDS = {
    "intersect": "Keep only what both parts give",
    "union": "Keep what either part gives",
    "except": "Keep what the first part gives and the second does not",
}


class TreeError(ValueError):
    """A tree, an adaptation or an alignment that cannot be used; the message says why, for the person."""


@dataclass(frozen=True)
class PlanStep:
    id: str  # stable within one tree: "table-1", "join-1", "filter-1", "set-filter-1", "nested", "group", ...
    kind: str  # table, join, filter, nested, group, having, project, order, set, type
    label: str
    sql: str

    def as_dict(self) -> dict:
        return asdict(self)


# The last word of a table named by a verb and its preposition ("works on", "trained in", "member of").
_PREPOSITIONS = frozenset({"on", "in", "of", "at", "by", "to", "for", "with", "from", "into", "under"})
# A bare verb and one of these adverbs is a noun English writes with a hyphen: a bolt-on, a top-up, a sign-up, a
# drop-off, a check-out. "In" is left out: "minor in" (a student's minor in a department) is a verb's.
_NOUN_PARTICLES = frozenset({"on", "up", "off", "out"})


def _particle_noun(name: str) -> str:
    """A table's name ending in a bare verb and an adverb that together are a noun ("bolt on", "contract bolt on")
    with the two hyphenated ("bolt-on", "contract bolt-on"), so the rows have a noun; the name as it is otherwise,
    and when the verb is inflected ("works on": a verb's, whose rows have no noun)."""
    words = name.split()
    if len(words) < 2 or words[-1] not in _NOUN_PARTICLES or words[-2].endswith(("s", "ed", "ing")):
        return name
    return " ".join([*words[:-2], f"{words[-2]}-{words[-1]}"])


def owned(phrase: str, owner: str) -> str:
    """A column's phrase said with its table's name ("employee salary"), unless it begins with that name or with one
    of its words already: a code table's "problem status description" is not "problem status code problem status
    description", a budget code's "budget type description" not "budget code budget type description"."""
    stems = {word.rstrip("s") for word in owner.split()}
    if phrase.startswith(owner) or phrase.split()[:1] and phrase.split()[0].rstrip("s") in stems:
        return phrase
    return f"{owner} {phrase}"


class _Names:
    """Readable names of one tables.json entry, by the rules of `annotation.wording.english`."""

    def __init__(self, schema: dict | None) -> None:
        schema = schema or {}
        originals = schema.get("table_names_original") or []
        readable = schema.get("table_names") or []
        column_originals = schema.get("column_names_original") or []
        column_readable = schema.get("column_names") or []
        tables = [
            words_of(str(readable[i] if i < len(readable) and readable[i] else name))
            for i, name in enumerate(originals)
        ]
        vocabulary = schema_vocabulary(tables, column_readable, column_originals)
        self.tables = {str(name).lower(): table_noun(tables[i], vocabulary) for i, name in enumerate(originals)}
        # The table each foreign-key column names a row of: grouping by it groups by that table's things.
        self.names_row_of: dict[str, str] = {}
        for child, parent in schema.get("foreign_keys") or []:
            if max(child, parent) >= len(column_originals):
                continue
            (child_table, child_column), parent_table = column_originals[child], column_originals[parent][0]
            if min(child_table, parent_table) >= 0:
                self.names_row_of[f"{originals[child_table]}.{child_column}".lower()] = originals[parent_table]
        # The tables each table's foreign keys name, and its columns that are no foreign key: a table that links
        # two others holds little besides (a quantity, a grade).
        self.linked: dict[str, list[str]] = {}  # in the order of the table's columns
        self.own_columns: dict[str, int] = {}
        for table, original in column_originals:
            if not 0 <= table < len(originals):
                continue
            key = str(originals[table]).lower()
            parent = self.names_row_of.get(f"{originals[table]}.{original}".lower())
            if parent is None:
                self.own_columns[key] = self.own_columns.get(key, 0) + 1
            elif parent not in self.linked.setdefault(key, []):
                self.linked[key].append(parent)
        # Tables keyed by a column of their own (no foreign key): their rows are things (events), never pairs.
        self.own_key = {
            str(originals[column_originals[index][0]]).lower()
            for index in schema.get("primary_keys") or []
            if index < len(column_originals)
            and 0 <= column_originals[index][0] < len(originals)
            and f"{originals[column_originals[index][0]]}.{column_originals[index][1]}".lower() not in self.names_row_of
        }
        column_types = schema.get("column_types") or []
        self.types = {
            f"{originals[table]}.{original}".lower(): column_types[index]
            for index, (table, original) in enumerate(column_originals)
            if 0 <= table < len(originals) and index < len(column_types)
        }
        self.columns: dict[str, str] = {}
        for index, (table, original) in enumerate(column_originals):
            if table < 0 or table >= len(originals):
                continue
            name = column_readable[index][1] if index < len(column_readable) else original
            self.columns[f"{originals[table]}.{original}".lower()] = column_phrase(words_of(str(name or original)))

    def table(self, original: str, many: bool = True) -> str:
        named = self.tables.get(original.lower(), words_of(original))
        compound = _particle_noun(named)
        if compound != named:
            return compound + ("s" if many else "")  # "bolt-ons", "contract bolt-ons"
        name = noun(named, many)
        # A table is named by a noun: "booking" is a thing here, whose plural the word list leaves as it is.
        if many and name.endswith("ing") and name == noun(name, False):
            name += "s"
        return name

    def rows_of(self, original: str) -> str:
        """What a table's rows are, in the plural, for a question about them: its name, but for a table that links two
        others (it holds little but their keys) and is not named for both ("teaches", "takes classes", "has pets",
        whose rows are not teaches): "instructor and section pairs". "Booking services" stay as they are."""
        pairs = self._pairs(original)
        return f"{pairs} pairs" if pairs else self.table(original)

    def one_of(self, original: str) -> str:
        """One row of a table, for "the ... with the highest ...": "the student and course pair", not "the enrolled
        in"."""
        pairs = self._pairs(original)
        return f"{pairs} pair" if pairs else self.table(original, many=False)

    def _pairs(self, original: str) -> str | None:
        """ "instructor and section" for a table that links two others and is named for neither; None otherwise."""
        key = original.lower()
        linked = self.linked.get(key) or []
        if len(linked) >= 2 and self.own_columns.get(key, 0) <= 1 and key not in self.own_key:
            own = {word.rstrip("s") for word in words_of(original).split()}
            parents = [self.table(parent, many=False) for parent in linked[:2]]
            if not all(own & {word.rstrip("s") for word in words_of(parent).split()} for parent in linked[:2]):
                return f"{parents[0]} and {parents[1]}"
        return None

    def column(self, qualified: str, anchor: str | None = None) -> str:
        """A column's phrase; one of a joined table is named with its table ("stadium name")."""
        table, column = qualified.split(".", 1)
        phrase = self.columns.get(qualified.lower(), words_of(column))
        if anchor is not None and table.lower() != anchor.lower() and not self.is_pairs(table):
            # A link named for neither side ("member of") names no owner: "whose appt type is", not "whose member of
            # appt type is"; nor does a table named by a verb ("works on": "whose hours", not "whose works on hours").
            owner = self.table(table, many=False)
            if not self.verb_named(table):
                phrase = owned(phrase, owner)
        return phrase

    def verb_named(self, original: str) -> bool:
        """Whether a table is named by a verb and its preposition ("works on", "trained in") and its rows are not
        said as pairs: its name is no noun for its rows ("How many works on are there?")."""
        return self.table(original, many=False).split()[-1] in _PREPOSITIONS and not self.is_pairs(original)

    def is_pairs(self, original: str) -> bool:
        """Whether `rows_of` says a table's rows as pairs of the two it links."""
        return self.rows_of(original) != self.table(original)

    def counts(self, qualified: str) -> bool:
        """Whether the schema types a column as a number (a plural name of a text column, "days" holding MTW, is no
        count)."""
        return self.types.get(qualified.lower(), "number") == "number"


def schema_names(schema: dict | None) -> _Names:
    """The readable names of a tables.json entry: `.table(original, many)` and `.column("table.column", anchor)`."""
    return _Names(schema)


def condition_phrase(schema: dict | None, item: dict, anchor: str) -> str:
    """A filter (`{"column": "table.column", "op", "value"}`) in words, as a plan step says it: "city is Chicago"."""
    return _condition(_Names(schema), item, anchor)


def filters_of(tree: dict) -> list[tuple[str, dict]]:
    """The tree's filters with their step ids: the main ones, then those of a set operation's second part."""
    found = [(f"filter-{i + 1}", item) for i, item in enumerate(tree.get("filters") or [])]
    found += [(f"set-filter-{i + 1}", item) for i, item in enumerate((tree.get("set") or {}).get("filters") or [])]
    return found


def _value_words(value) -> str:
    return str(value)


def _condition(names: _Names, item: dict, anchor: str) -> str:
    column = names.column(item["column"], anchor)
    if item["op"] == "like":
        return f"{column} contains “{str(item['value']).strip('%')}”"
    return f"{column} " + COMPARISON_PHRASES[item["op"]].format(_value_words(item["value"]))


def _nested_words(names: _Names, nested: dict, anchor: str) -> str:
    column = names.column(nested["column"], anchor)
    side = "above" if nested["op"] == ">" else "below"
    return f"{column} is {side} the average {names.column(nested['column'])}"


def plan(tree: dict, schema: dict | None) -> list[PlanStep]:
    """The tree's operations in OTTA's order, each with its label and the SQL of its intermediate result."""
    names = _Names(schema)
    tables, joins = tree["tables"], [tuple(step) for step in tree.get("joins") or []]
    main = list(tree.get("filters") or [])
    nested = tree.get("nested")
    base = {"tables": tables, "joins": joins, "filters": main, **({"nested": nested} if nested else {})}

    def rows(**part) -> str:
        return tree_sql({"type": "rows", "tables": tables, "joins": joins, "filters": [], **part})

    return [
        *_source_steps(names, tree, joins, rows),
        *_result_steps(names, tree, base),
        *_order_steps(names, tree, base),
        *_set_steps(names, tree, rows),
        PlanStep("type", "type", _type_label(names, tree, tables[0]), tree_sql(tree)),
    ]


def _source_steps(names: _Names, tree: dict, joins: list[tuple], rows: Callable[..., str]) -> list[PlanStep]:
    """Taking each table, joining them, and keeping the rows of each filter and of the nested condition."""
    tables = tree["tables"]
    anchor = tables[0]
    steps = [
        PlanStep(
            f"table-{position + 1}",
            "table",
            f"Take the {names.table(table)}",
            tree_sql({"type": "rows", "tables": [table], "joins": [], "filters": []}),
        )
        for position, table in enumerate(tables)
    ]
    for position, (child, child_column, parent, parent_column) in enumerate(joins):
        label = (
            f"Join each {names.table(child, many=False)} to its {names.table(parent, many=False)}"
            f" ({child}.{child_column} = {parent}.{parent_column})"
        )
        steps.append(
            PlanStep(
                f"join-{position + 1}",
                "join",
                label,
                rows(tables=tables[: position + 2], joins=joins[: position + 1]),
            )
        )
    main = list(tree.get("filters") or [])
    for position, item in enumerate(main):
        label = f"Keep those whose {_condition(names, item, anchor)}"
        steps.append(PlanStep(f"filter-{position + 1}", "filter", label, rows(filters=main[: position + 1])))
    nested = tree.get("nested")
    if nested:
        label = f"Keep those whose {_nested_words(names, nested, anchor)}"
        steps.append(PlanStep("nested", "nested", label, rows(filters=main, nested=nested)))
    return steps


def _result_steps(names: _Names, tree: dict, base: dict) -> list[PlanStep]:
    """Grouping and counting (and keeping some groups), or showing the columns; nothing for a plain count."""
    anchor = tree["tables"][0]
    kind = tree["type"]
    if kind == "group_count":
        group = {**base, "type": "group_count", "group": tree["group"]}
        label = f"Group them by {names.column(tree['group'], anchor)} and count each group"
        steps = [PlanStep("group", "group", label, tree_sql(group))]
        if "having" in tree:
            having = tree["having"]
            more = {">": "more than", ">=": "at least"}.get(having["op"], having["op"])
            label = f"Keep the groups of {more} {having['value']} {names.table(anchor)}"
            steps.append(PlanStep("having", "having", label, tree_sql({**group, "having": having})))
        return steps
    if kind != "count":
        shown = " and ".join(names.column(column, anchor) for column in tree["project"])
        return [PlanStep("project", "project", f"Show the {shown}", tree_sql({**base, "type": "list", **_p(tree)}))]
    return []


def _order_steps(names: _Names, tree: dict, base: dict) -> list[PlanStep]:
    order = tree.get("order")
    if not order:
        return []
    kind = tree["type"]
    by = "the count" if order["by"] == "count" else f"the {names.column(order['by'], tree['tables'][0])}"
    direction = "highest" if order["desc"] else "lowest"
    limit = order["limit"]
    label = f"Sort by {by}, {direction} first, and keep the first {limit if limit != 1 else 'one'}"
    ordered = {**base, "type": kind if kind == "group_count" else "list", **_p(tree), "order": order}
    if kind == "group_count":
        ordered["group"] = tree["group"]
        if "having" in tree:
            ordered["having"] = tree["having"]
    return [PlanStep("order", "order", label, tree_sql(ordered))]


def _set_steps(names: _Names, tree: dict, rows: Callable[..., str]) -> list[PlanStep]:
    """The second part's filters and the set operation that joins the two parts."""
    if "set" not in tree:
        return []
    other = tree["set"]["filters"]
    steps = [
        PlanStep(
            f"set-filter-{position + 1}",
            "filter",
            f"Second part: those whose {_condition(names, item, tree['tables'][0])}",
            rows(filters=other[: position + 1]),
        )
        for position, item in enumerate(other)
    ]
    steps.append(PlanStep("set", "set", _SET_WORDS[tree["set"]["op"]], tree_sql({**tree, "type": "list"})))
    return steps


def _p(tree: dict) -> dict:
    return {"project": tree.get("project") or []}


def _type_label(names: _Names, tree: dict, anchor: str) -> str:
    kind = tree["type"]
    if kind == "count":
        return "The answer: how many there are"
    if kind == "group_count":
        return "The answer: how many in each group"
    if kind in _TYPE_WORDS:
        return f"The answer: the {_TYPE_WORDS[kind]} {names.column(tree['project'][0], anchor)}"
    return "The answer: the list itself"


def required_steps(steps: list[PlanStep]) -> list[PlanStep]:
    """The steps a phase-2 alignment must give words to: the query type and every filter (OTTA's guideline)."""
    return [step for step in steps if step.kind in ("type", "filter")]


# Words of a column's phrase that make it the name of its row's thing: grouping by it groups by that thing.
_NAME_WORDS = frozenset({"name", "title"})


def draft_question(tree: dict, schema: dict | None) -> str:
    """One plain question a database user could ask for the tree: a starting point, shown and stored as drafted. The
    question is about the rows the answer describes: those a count counts (the anchor), those a count per group
    counts (the far end of its path: "which hotel has the most bookings"), or those whose column is shown; its
    conditions are said of them. "" when the tree makes no plain question (a join nothing reads, a count per group
    of pairs of unrelated rows): no draft rather than a bad one."""
    names = _Names(schema)
    kind = tree["type"]
    if unread_tables(tree) or (kind == "group_count" and not _group_counts_down(tree, schema or {})):
        return ""
    if kind in ("count", "group_count"):
        subject = counted_table(tree)
    else:
        subject = tree["project"][0].split(".", 1)[0]
    if names.verb_named(subject):
        return ""  # its rows have no noun: "How many works on are there?" is no question
    many = names.rows_of(subject)
    order = tree.get("order")
    # Said of one row ("the vehicle with the highest mileage that is leased") when the question asks for the first.
    one = bool(order) and kind not in ("count", "group_count", *_TYPE_WORDS)
    where = _where(names, tree.get("filters") or [], tree.get("nested"), subject, many=not one)
    if kind == "count":
        question = f"How many {many} are there{where}?"
    elif kind in _TYPE_WORDS:
        question = f"What is the {_TYPE_WORDS[kind]} {names.column(tree['project'][0], subject)} of the {many}{where}?"
    elif kind == "group_count":
        question = _group_question(names, tree, many, where)
    else:
        shown = " and ".join(names.column(column, subject) for column in tree["project"])
        if _plural(shown) == many:
            # The column is what its table's rows are called ("department location" of the department locations):
            # ask for the rows, not "the department locations of the department locations".
            question = _rows_question(names, tree, subject, where)
        elif order:
            extreme = "highest" if order["desc"] else "lowest"
            by = names.column(order["by"], subject)
            verb = "are" if noun(shown, False) != shown else "is"  # "What are the other details of ..."
            question = f"What {verb} the {shown} of the {names.one_of(subject)} with the {extreme} {by}{where}?"
        else:
            question = f"What are the {_plural(shown)} of the {many}{where}?"
    if "set" in tree:
        other = _where(names, tree["set"]["filters"], None, subject, many=True).strip()
        joint = {"intersect": "and also", "union": "or", "except": "but not those"}[tree["set"]["op"]]
        if not other.startswith("whose") and not joint.endswith("those"):
            joint += " those"  # "and also those that are leased"
        question = question[:-1] + f", {joint} {other}?"
    return question[0].upper() + question[1:]


def _where(names: _Names, filters: list, nested: dict | None, subject: str, *, many: bool) -> str:
    """The conditions said of the subject's rows: yes/no columns as what the rows are ("that are not hybrid", by the
    drafts' one reading of flags, `annotation.wording.english.flag_state`), the others after "whose"; "" for none."""
    states, conditions = [], []
    for item in filters:
        state = _flag_words(names, item, subject, many)
        if state:
            states.append(state)
        else:
            conditions.append(_condition(names, item, subject))
    if nested:
        conditions.append(_nested_words(names, nested, subject))
    parts = [f"that {'are' if many else 'is'} {' and '.join(states)}"] if states else []
    if conditions:
        parts.append(f"whose {' and '.join(conditions)}")
    return " " + " and ".join(parts) if parts else ""


def _flag_words(names: _Names, item: dict, subject: str, many: bool) -> str:
    """A filter of a yes/no column of the subject's own table compared with 0 or 1, as what the rows are ("not
    hybrid", "marked as hub"); "" for any other filter."""
    table = item["column"].split(".", 1)[0]
    kept = flag_kept(item["op"], item["value"]) if item["op"] in ("=", "!=", "<", ">", "<=", ">=") else None
    if kept is None or table.lower() != subject.lower():
        return ""
    qualified = item["column"].lower()
    state = flag_state(names.columns.get(qualified, ""), names.types.get(qualified, "text"), many)
    return ("" if kept else "not ") + state if state else ""


# Words in -ing that name no thing one counts: left in the singular.
_MASS_ING = frozenset({"clothing", "housing", "funding", "seating", "parking", "shipping", "training", "spending"})


def _rows_question(names: _Names, tree: dict, subject: str, where: str) -> str:
    """A list whose one column says what its table's rows are: "Which department location has the highest ...?",
    "What are the department locations whose ...?"."""
    order = tree.get("order")
    if order:
        extreme = "highest" if order["desc"] else "lowest"
        return f"Which {names.one_of(subject)} has the {extreme} {names.column(order['by'], subject)}{where}?"
    return f"What are the {names.rows_of(subject)}{where}?"


def _plural(phrase: str) -> str:
    """A column's phrase in the plural, but for a shortened last word ("room no", "since yr"), left as it is."""
    last = phrase.split()[-1]
    if last in ("no", "nr", "yr") or (last != "id" and identifier_like(last)):
        return phrase
    plural = noun(phrase, True)
    # A thing named by a word in -ing is counted ("buildings"), as `_Names.table` counts "bookings".
    return plural + "s" if plural == phrase and last.endswith("ing") and last not in _MASS_ING else plural


def _group_counts_down(tree: dict, schema: dict) -> bool:
    """Whether a count per group counts things its groups have (down the path from the anchor, or along it to the
    far side of a link table), not pairs of unrelated rows nor the rows its rows point to ("which quantity has the
    most guests"): the rules refuse those (annotation.goals.rules)."""
    if not tree.get("joins"):
        return True
    return lowest_table(tree, schema) is not None and join_directions(tree, schema)[0] == "down"


def _group_question(names: _Names, tree: dict, counted: str, where: str) -> str:
    """A count per group in words: grouped by a name, per thing ("Which hotel has the most bookings?"); by another
    column, per value of it, said of its table when the things counted are others ("Which guest country code...")."""
    anchor = tree["tables"][0]
    phrase = names.column(tree["group"], anchor)
    own = names.table(anchor, many=False)
    named = names.names_row_of.get(tree["group"].lower())
    if named is not None:  # a foreign key: per row of the table it names ("which room has the fewest amenities")
        group = names.table(named, many=False)
    elif (
        phrase in _NAME_WORDS
        or phrase == "full name"
        or phrase in {f"{own} {word}" for word in _NAME_WORDS}
        or is_person_name_part(tree["group"].split(".", 1)[1])  # unique, a last name names its person (the rules)
    ):
        # Per name its things; the rows themselves counted per their name are said per name ("for each guardian name
        # with at least 3 guardians", never "for each guardian with at least 3 guardians").
        group = phrase if names.rows_of(anchor) == counted else own
    else:
        if names.rows_of(anchor) != counted and not names.verb_named(anchor):
            # Said of its table when the things counted are others; a table named by a verb ("member of") or whose
            # rows are the pairs counted names no owner: "for each appt type", not "for each member of appt type".
            phrase = owned(phrase, own)
        if noun(phrase, False) != phrase and names.counts(tree["group"]):  # "nights": grouped by how many
            phrase = f"number of {phrase}"
        group = phrase
    order = tree.get("order")
    if order:
        return f"Which {group} has the {'most' if order['desc'] else 'fewest'} {counted}{where}?"
    if "having" in tree:
        more = {">": "more than", ">=": "at least"}.get(tree["having"]["op"], tree["having"]["op"])
        value = tree["having"]["value"]
        return f"For each {group} with {more} {value} {counted}{where}, how many {counted} are there?"
    return f"How many {counted}{where} are there for each {group}?"


def adapt_filter(tree: dict, *, step_id: str, op: str, value) -> tuple[dict, dict]:
    """A copy of `tree` whose filter `step_id` has operator `op` and value `value` (a number stays a number), and
    the change as `{"step", "column", "before": {op, value}, "after": {op, value}}`. Raises TreeError for an unknown
    filter, an operator outside FILTER_OPS or a value no goal may hold; whether the new SQL returns rows is the
    caller's to check (it needs the database)."""
    if op not in FILTER_OPS:
        raise TreeError(gettext("The operator must be one of %(operators)s.") % {"operators": ", ".join(FILTER_OPS)})
    adapted = copy.deepcopy(tree)
    found = dict(filters_of(adapted)).get(step_id)
    if found is None:
        raise TreeError(gettext("This tree has no filter %(step)s.") % {"step": repr(step_id)})
    if isinstance(value, str):
        value = value.strip()
        if isinstance(found["value"], int | float) and not isinstance(found["value"], bool) and op != "like":
            try:
                value = float(value) if "." in value else int(value)
            except ValueError:
                raise TreeError(
                    gettext("%(value)s is not a number, and this column holds numbers.") % {"value": repr(value)}
                ) from None
    if op == "like" and isinstance(value, str) and "%" not in value:
        value = f"%{value}%"
    if literal(value) is None:
        raise TreeError(gettext("The value must be a short text or a number, on one line and without double quotes."))
    before = {"op": found["op"], "value": found["value"]}
    found["op"], found["value"] = op, value
    change = {"step": step_id, "column": found["column"], "before": before, "after": {"op": op, "value": value}}
    return adapted, change


def check_alignment(alignment, tokens: list[str], steps: list[PlanStep]) -> list[dict]:
    """Validate a phase-2 alignment: a list of `{"step", "beg", "end"}` (token indexes over `tokens`, both included)
    naming steps of `steps`, with the query type and every filter given at least one span. Returns it normalised
    (sorted, each span once); raises TreeError saying what is wrong, and which steps still need words."""
    if not isinstance(alignment, list):
        raise TreeError(gettext("The alignment must be a list of spans."))
    known = {step.id: step for step in steps}
    spans = set()
    for item in alignment:
        if not isinstance(item, dict) or set(item) != {"step", "beg", "end"}:
            raise TreeError(gettext("Each span needs exactly a step, a first token (beg) and a last token (end)."))
        beg, end, step = item["beg"], item["end"], item["step"]
        if step not in known:
            raise TreeError(gettext("There is no operation %(step)s in this tree.") % {"step": repr(step)})
        if any(not isinstance(n, int) or isinstance(n, bool) for n in (beg, end)) or not 0 <= beg <= end < len(tokens):
            raise TreeError(
                gettext("A span must run from one token to a later one among the %(count)s tokens.")
                % {"count": len(tokens)}
            )
        spans.add((step, beg, end))
    missing = [step.label for step in required_steps(steps) if not any(span[0] == step.id for span in spans)]
    if missing:
        raise TreeError(gettext("Give words to: %(steps)s.") % {"steps": "; ".join(missing)})
    order = {step.id: position for position, step in enumerate(steps)}
    return [
        {"step": step, "beg": beg, "end": end}
        for step, beg, end in sorted(spans, key=lambda span: (order[span[0]], span[1], span[2]))
    ]
