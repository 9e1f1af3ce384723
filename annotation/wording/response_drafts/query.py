"""The described query: one SELECT (`_Select`) and a set operation of two (`_SetQuery`), said as noun phrases,
with their conditions as relative clauses (`_clauses`). The clauses describe subqueries (IN, EXISTS, a comparison with
one), and the queries say their conditions as clauses: one module, so that imports run one way."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from annotation.wording.english import COMPARISON_PHRASES as _IS_PHRASES
from annotation.wording.english import UNITS as _UNITS
from annotation.wording.english import is_plural as _is_plural
from annotation.wording.english import noun as _noun
from annotation.wording.english import with_article as _with_article
from annotation.wording.english import word_set as _word_set
from annotation.wording.response_drafts.conditions import (
    _AVERAGE_PHRASES,
    _CATEGORY_WORDS,
    _COUNT_PHRASES,
    _NEGATED_OPS,
    _TIME_PHRASES,
    _equal_clause,
    _flag_clause,
    _having,
    _head_word,
    _like_predicate,
    _plays_role,
    _subject,
)
from annotation.wording.response_drafts.items import (
    _AMOUNT_WORDS,
    _Cond,
    _counts_keys,
    _different_things,
    _extreme_word,
    _Item,
    _item_words,
    _measured,
    _names_row,
)
from annotation.wording.response_drafts.names import (
    _KEY_WORDS,
    _NAME_KINDS,
    _NAMING_WORDS,
    _Col,
    _column_words,
    _is_identifier,
    _is_time,
    _Names,
    _one_of_two_roles,
    _owner_noun,
    _role,
    _Table,
    _undeclared_key_of,
)
from annotation.wording.response_drafts.result import _and, _join, _sentence, _value

# ---------------------------------------------------------------------------------------------------------------
# Describing one SELECT
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class _Select:
    tables: list[_Table]
    items: list[_Item] = field(default_factory=list)
    distinct: bool = False
    where: list = field(default_factory=list)
    group: list[_Col] = field(default_factory=list)
    having: list = field(default_factory=list)
    order: list = field(default_factory=list)
    limit: int | None = None
    main: _Table | None = None  # the entity the rows are about
    subject: _Table | _Col | None = None  # what a GROUP BY makes one row of: a table (grouped by its key) or a column
    counted: _Table | None = None  # what count(*) counts
    names: _Names = field(default_factory=lambda: _Names(None))
    on_refs: set = field(default_factory=set)  # (referring table key, referred table key) read off the joins' ON
    in_set: bool = False  # a side of UNION, INTERSECT or EXCEPT, whose rows come out once each

    def refers(self, table: _Table, other: _Table) -> bool:
        """Whether `table`'s rows point to `other`'s: a declared foreign key, or a join on `other`'s own key."""
        return self.names.references(table, other) or (
            other.sub is None and table.key != other.key and (table.key, other.key) in self.on_refs
        )

    def settle(self) -> None:
        """Decide the entity, the group subject and the counted table once every clause is read."""
        first_column = next((item.column for item in self.items if item.column is not None), None)
        self.main = first_column.table if first_column is not None else None
        if self.main is not None and first_column.identifies is not None and self.names.is_link(self.main):
            # has_pet's pet id is about pets; prereq's prerequisite id about prerequisites, not courses that have one
            self.main = self.names.second_side(self.main, first_column) or first_column.identifies
        if self.main is not None and not self.group and not self.distinct and not self.in_set:
            # A parent's column read through its child rows: people joined with poker_player has one row per poker
            # player, so the conditions and the count are about poker players. DISTINCT folds the child rows back
            # into the parent's: the different life expectancies of countries that speak Dutch. So does a set
            # operation: the battles of INTERSECT are battles, however many of their ships the join repeats them for.
            children = [
                table
                for table in self.tables
                if table != self.main
                and table.sub is None
                and not self.names.is_link(table)
                and self._child_of_main(table)
                and not (self._relates_main(table) and self._all_of_main())
            ]
            if len(children) == 1 and not self._filters_main(children[0]):
                self.main = children[0]
        if self.main is None and self.tables:
            counts = bool(self.items) and all(item.is_count for item in self.items)
            self.main = self._counted_rows() if counts else self._joined_rows()
        self.counted = self.main
        if not self.group:
            return
        key = self.group[0]
        if len(self.group) == 1 and key.identifies is not None:
            role = _role(key.name, key.identifies) if key.table is not key.identifies else ""
            role = role or _one_of_two_roles(key)
            # Flights grouped by their destination airport are counted per destination airport.
            self.subject = self.main = replace(key.identifies, role=role) if role else key.identifies
        else:
            self.subject = key
        subject_table = self.subject if isinstance(self.subject, _Table) else key.table
        # Joined rows are counted per group: the counted thing is the far end of the join, not the group itself.
        others = [table for table in self.tables if table != subject_table]
        counted = self._far_end(others) if others else (self.tables[0] if self.tables else self.main)
        self.counted = self.names.as_rows_of(counted, subject_table)

    def _filters_main(self, child: _Table) -> bool:
        """Whether a child joined to the entity only picks the entity's rows: every column said is the entity's and
        the child's rows are records about it (ratings, pilot records), not a role the entity's rows play (a poker
        player is a person). Then the rows are the entity's ("the names of reviewers with a rating whose stars are
        less than 5"), never the child's said through another table ("the reviewer names of the ratings", "the
        pilot of the pilot record ... and with a pilot whose age ...")."""
        if _plays_role(child, self.main) or child.role or child.via:
            return False
        if not self._all_of_main():
            return self._ordered_by(child)
        if any(item.kind == "star" for item in self.items):
            return False
        conditions = [cond for cond in self.where if isinstance(cond, _Cond)]
        on_child = [cond for cond in conditions if cond.table == child]
        if "or" in self.where and len(on_child) != len(conditions):
            return False  # the entity's own conditions come first: an "or" across the two would change sides
        if self.where and not on_child:
            return False  # "the owner whose state is Virginia" would drop "that has a dog"
        # A child picked by its name is what the sentence is about: "the color description of the product named
        # catnip", "the region of the city named Kabul".
        return not any(
            cond.op == "=" and cond.item is not None and cond.item.column is not None and _names_row(cond.item.column)
            for cond in on_child
        )

    def _ordered_by(self, child: _Table) -> bool:
        """Whether the entity's one row is picked by its child's order alone: every column shown is the entity's, the
        order is on the child's column, nothing else is said of the child ("the name of the hotel whose room has the
        highest floor", never "the hotel name of the room with the highest floor")."""
        shown = all(
            item.kind == "column" and item.column is not None and item.column.table == self.main for item in self.items
        )
        ordered = [item for item, _ in self.order]
        on_child = any(isinstance(cond, _Cond) and cond.table == child for cond in self.where)
        return (
            shown
            and self.limit == 1
            and len(ordered) == 1
            and ordered[0].kind == "column"
            and ordered[0].column is not None
            and ordered[0].column.table == child
            and not on_child
            and self._picked_by_other(child)
        )

    def _relates_main(self, table: _Table) -> bool:
        """Whether `table` relates the entity to another joined table (film_actor between films and actors)."""
        return len(self._referred(table)) >= 2

    def _all_of_main(self) -> bool:
        """Whether every selected and ordering column is the entity's own: then a relation joined to it only
        filters the entity's rows ("the titles of films with an actor whose first name is ..."), it is no child
        whose rows the result is about."""
        items = [*self.items, *(item for item, _ in self.order)]
        return all(
            item.kind == "column" and item.column is not None and item.column.table == self.main for item in items
        )

    def _referred(self, table: _Table) -> list[_Table]:
        return [other for other in self.tables if other != table and self.refers(table, other)]

    def _far_end(self, tables: list[_Table]) -> _Table:
        """The last of `tables` that is a thing of its own rather than a relationship between two others (lives_in
        joins a student to a dorm: counting its rows counts students). A table naming two that are themselves joined
        by a key (a consultation naming its vet and the vet's site) is no relationship: its rows are things."""
        entities = [table for table in tables if not self._pairs_two(table)]
        return (entities or tables)[-1]

    def _pairs_two(self, table: _Table) -> bool:
        referred = self._referred(table)
        if len(referred) < 2:
            return False
        return not any(self.refers(one, other) for one in referred for other in referred if one != other)

    def _counted_rows(self) -> _Table:
        """What count(*) over the FROM tables counts. Over a relation (lives_in) the rows are pairs: with one side
        fixed by an equality (a dorm named Granite Court) they are the other side's rows (its students); otherwise
        they are the relation's records, and are said so."""
        links = [table for table in self.tables if self.names.is_link(table)]
        if len(links) != 1:
            return self._joined_rows()
        link = links[0]
        fixed = [
            cond.table
            for cond in self.where
            if isinstance(cond, _Cond)
            and cond.op == "="
            and not cond.negated
            and cond.subquery is None
            and cond.table is not None
            and cond.table != link
            and self.refers(link, cond.table)
        ]
        return self.names.as_rows_of(link, fixed[0]) if fixed and "or" not in self.where else link

    def repeats_main(self) -> bool:
        """Whether a row of the main entity can come back more than once (students joined with lives_in): then the
        number of result rows is no number of entities."""
        if self.distinct or self.group or self.main is None:
            return False
        return any(table != self.main and table.sub is None and self._child_of_main(table) for table in self.tables)

    def _child_of_main(self, table: _Table) -> bool:
        """Whether `table`'s rows point to the entity's through the join: a table the entity is joined to on that
        table's own key is its parent, whatever other key it holds (a department's head teacher)."""
        return self.refers(table, self.main) and (self.main.key, table.key) not in self.on_refs

    def repeated_by(self) -> _Table | None:
        """The one other table whose rows the entity's rows come back once for (a reviewer once per rating), when the
        join is of those two alone and the other is a thing of its own, not a link (film_actor's rows are no things
        to count); None otherwise."""
        others = [table for table in self.tables if table != self.main]
        if len(self.tables) != 2 or len(others) != 1 or self.main is None or self.main.sub is not None:
            return None
        other = others[0]
        if other.sub is not None or self.names.is_link(other) or other.record or not self._child_of_main(other):
            return None
        return other

    def _joined_rows(self) -> _Table:
        """What one row of the FROM tables stands for, when nothing selected says: a table that refers to one other
        (a join of breeds and dogs has a row per dog), else the first one."""
        children = [table for table in self.tables if len(self._referred(table)) == 1 and not self.names.is_link(table)]
        if len(children) == 1:
            return children[0]
        # A table that refers to the others and that none of them refers to: each joined row is one of its rows
        # (students, their enrolments and the enrolments' programs: one row per enrolment).
        bottoms = [
            table
            for table in self.tables
            if self._referred(table)
            and not self.names.is_link(table)
            and not any(self.refers(other, table) for other in self.tables if other != table)
        ]
        if len(bottoms) == 1:
            return bottoms[0]
        return next((table for table in self.tables if not self.names.is_link(table)), self.tables[0])

    # -- pieces ---------------------------------------------------------------------------------------------------

    @property
    def aggregates(self) -> list[_Item]:
        return [item for item in self.items if item.kind == "aggregate"]

    @property
    def is_count_only(self) -> bool:
        return len(self.items) == 1 and self.items[0].is_count and not self.group

    @property
    def subject_table(self) -> _Table | None:
        return self.subject if isinstance(self.subject, _Table) else None

    def _subject_noun(self, many: bool) -> str:
        if isinstance(self.subject, _Table):
            return self.subject.noun(many)
        if self.subject is None:
            return "rows" if many else "row"
        table, name = self.subject.table, self.subject.name
        if _undeclared_key_of(self.subject):
            return _noun(_undeclared_key_of(self.subject), many, rows=True)  # "each of the 69 start stations"
        if name.split()[-1] in _NAMING_WORDS and table is not None and table.sub is None:
            # Whose name it is, when the rows counted are another table's: "the airport name with the most routes",
            # "the lessons of each of the 4 staff first names"; never "the number of employees for each of the 14
            # employee last names" (the employees' own), though a bare "name" always says whose.
            if not _word_set(name) & _word_set(table.name) and (name in _NAMING_WORDS or self.counted != table):
                return _noun(f"{table.called(False)} {name}", many)
        return _noun(name, many)

    def _where_split(self) -> tuple[list, list]:
        """WHERE conditions on the group subject's table, and the rest (about the rows that are counted)."""
        if not isinstance(self.subject, _Table) or "or" in self.where:
            return [], self.where
        on_subject = [cond for cond in self.where if cond != "and" and cond.table == self.subject]
        rest = [cond for cond in self.where if cond != "and" and cond.table != self.subject]
        return _and(on_subject), _and(rest)

    def _pairs_noun(self, table: _Table | None, many: bool) -> str:
        """A table pairing two others counted on its own (no join) counts pairs: "32 pairs of a book and an author",
        "18 pairs of a vessel and an owner whose share percent is 33", "the number of pairs ... for each ...", never
        "32 book authors" (which reads as 32 authors, and there are fewer); "" for any other table or count."""
        pair = self.names.pair_of(table) if table is not None and len(self.tables) == 1 else None
        if pair is None:
            return ""
        keys = [side.key for side in pair]
        if self.group and self.subject_table is not None and self.subject_table.key in keys:
            # Per one side, the pairs are the other side's rows: "the number of menu items for each allergen".
            return pair[1 - keys.index(self.subject_table.key)].noun(many)
        one, two = (_with_article(side.noun(False)) for side in pair)
        return f"{'pairs' if many else 'pair'} of {one} and {two}"

    def _counted_noun(self, many: bool, with_conditions: bool) -> str:
        table = self.counted
        noun = self._pairs_noun(table, many) or (table.noun(many) if table is not None else ("rows" if many else "row"))
        if with_conditions:
            noun += _clauses(self._where_split()[1] if self.group else self.where, table, many)
        return noun

    def _measured_table(self) -> _Table | None:
        """What a group's aggregates are computed over: the counted rows, or the table of an averaged column."""
        if any(item.is_count for item in self.aggregates):
            return self.counted
        measured = next((item.column.table for item in self.aggregates if item.column is not None), None)
        return measured or self.counted

    def _measured_noun(self) -> str:
        table = self._measured_table()
        if any(item.is_count for item in self.aggregates) and self._pairs_noun(table, True):
            return self._pairs_noun(table, True)
        return table.noun(True) if table is not None else "rows"

    def _count_phrase(self, cond: _Cond) -> str | None:
        """A HAVING on count(*) as "with more than 3 students"."""
        if cond.item is None or not cond.item.is_count or cond.subquery is not None or not cond.values:
            return None
        if cond.negated and cond.op not in _NEGATED_OPS:
            return None
        op = _NEGATED_OPS[cond.op] if cond.negated else cond.op
        if op not in _COUNT_PHRASES:
            return None
        number = cond.values[0]
        return f"with {_COUNT_PHRASES[op].format(number)} {self._counted_noun(number != '1', with_conditions=True)}"

    def _having(self, many: bool) -> str:
        parts = []
        for cond in self.having:
            if cond in ("and", "or"):
                parts.append(cond)
                continue
            counted = self._count_phrase(cond)
            parts.append(counted if counted is not None else _clause(cond, self.subject_table, many))
        return (" " + " ".join(parts)) if parts else ""

    def _superlative(self) -> tuple[str, str] | None:
        """ORDER BY ... LIMIT n as (adjective before the noun, phrase after it): ("oldest", "") or
        ("", "with the most records")."""
        if self.limit is None or not self.order:
            return None
        item, descending = self.order[0]
        if item.kind == "column" and item.column is not None and item.column.name == "age":
            oldest = "oldest" if descending else "youngest"
            table = item.column.table
            if table is None or table == self.main or (self.main is not None and _plays_role(self.main, table)):
                return oldest, ""  # "the oldest gymnast" when a gymnast's age is its person's
            # Another table's age orders the rows: "the hiring with the oldest employee", never "the oldest hiring".
            return "", f"with the {oldest} {table.noun(self.limit != 1)}"
        if item.is_count:
            return "", f"with the {'most' if descending else 'fewest'} {self._counted_noun(True, False)}"
        if _counts_keys(item):
            return "", f"with the {'most' if descending else 'fewest'} {_different_things(item.column)}"
        own = item.kind == "column" and item.column is not None and item.column.table == self.main
        if not own and self._picked_by_other(self._order_table()):
            # Another table's column picks the row: "the outgoing loan whose object has the highest width".
            other = item.column.table
            words = _column_words(item.column, other, False)
            return "", f"whose {other.noun(False)} has the {_extreme_word(item, descending)} {words}"
        words = _column_words(item.column, self.main, False) if own else _item_words(item)
        return "", f"with the {_extreme_word(item, descending)} {words}"

    def _order_table(self) -> _Table | None:
        """The table of the one column the rows are ordered by, None for an order of anything else."""
        if len(self.order) != 1 or self.order[0][0].kind != "column" or self.order[0][0].column is None:
            return None
        return self.order[0][0].column.table

    def _picked_by_other(self, other: _Table | None) -> bool:
        """Whether one row is picked by another table's column, said "whose <other> has the highest ...": not when
        the two tables' names share a word ("the car name whose car has" reads as one thing twice)."""
        main = self.main
        if other is None or other.sub is not None or self.limit != 1 or main is None or main.sub is not None:
            return False
        if not (self.refers(main, other) or self.refers(other, main)) or _plays_role(main, other):
            return False  # a sibling through a third table, or the person a body builder is
        return not _word_set(other.noun(False)) & _word_set(main.noun(False))

    def _extreme(self) -> str | None:
        """A column ordered by itself and cut to one row: "the highest weight", "the latest transcript date"."""
        if self.limit != 1 or self.distinct or len(self.items) != 1 or not self.order:
            return None
        item, descending = self.order[0]
        selected = self.items[0]
        if item.kind != "column" or selected.kind != "column" or item.column != selected.column:
            return None
        return f"the {_extreme_word(item, descending)} {_column_words(item.column, self.main, False)}"

    def _sorted(self) -> str:
        if not self.order or self.limit is not None:
            return ""
        keys = []
        for item, descending in self.order:
            if item.is_count:
                words = f"the number of {self._counted_noun(True, False)}"
            else:
                words = _item_words(item) if item.kind == "column" else f"the {_item_words(item)}"
            keys.append(words + (" in descending order" if descending else ""))
        return ", sorted by " + _join(keys, "and then by")

    # -- noun phrases ---------------------------------------------------------------------------------------------

    def _entity(self, table: _Table | None, many: bool, count: int | None, conditions: str) -> str:
        """The rows as a noun phrase with their determiner: "the 3 oldest students", "all dogs", "the student whose
        id is 3"."""
        superlative = self._superlative()
        if superlative is not None:
            many = self.limit != 1
        noun = table.noun(many) if table is not None else ("rows" if many else "row")
        if superlative is not None:
            adjective, after = superlative
            amount = f"{self.limit} " if self.limit != 1 else ""
            phrase = f"the {amount}{adjective + ' ' if adjective else ''}{noun}{' ' + after if after else ''}"
            return phrase + (f" among those{conditions}" if conditions else "")
        if self.limit is not None:
            return f"the first {self.limit} {table.noun(self.limit != 1) if table else 'rows'}{conditions}"
        if count is not None:
            return f"the {count} {noun}{conditions}"
        if not many:
            return f"the {noun}{conditions}"
        return f"{noun}{conditions}" if conditions else f"all {noun}"

    def _head(self, items: list[_Item], many: bool, entity: _Table | None, count: int | None = None) -> str:
        words = []
        owner = None  # the other table whose name the previous column was said with
        for item in items:
            if item.kind == "column" and item.column is not None:
                said = _column_words(item.column, entity, many)
                plain = _column_words(item.column, item.column.table, many)
                if said != plain and self._said_as_own(item.column, entity):
                    said = plain  # "the names of the poker players", not "the person names of"
                if owner is not None and item.column.table == owner and said != plain:
                    said = plain  # "student first names, middle names and last names": the owner said once
                owner = item.column.table if said != plain else None
                words.append(said)
            elif item.is_count:
                words.append("number")
            else:
                words.append(_item_words(item, many))
        if self.distinct and many:
            return (f"the {count} different " if count is not None else "the different ") + _join(words)
        other = self._other_owner(items, entity) if words and "'s " in words[0] else None
        if other is not None:
            # Only another table's columns: "the first name of the employee of the customer ...", never "the
            # employee's first name of the customer ...".
            plain = [_column_words(item.column, other, many) for item in items]
            return f"the {_join(plain)} of the {_owner_noun(other, entity, many)}"
        return "the " + _join(words)

    def _other_owner(self, items: list[_Item], entity: _Table | None) -> _Table | None:
        """The one other table all `items` are columns of, when they are not said as the entity's own; else None.
        Asked only when each item would be said with a possessive ("the employee's first name")."""
        tables = {item.column.table for item in items if item.kind == "column" and item.column is not None}
        if len(tables) != 1 or any(item.kind != "column" or item.column is None for item in items):
            return None
        table = tables.pop()
        if entity is None or table is None or table == entity or entity.sub is not None or table.sub is not None:
            return None
        if any(_is_identifier(item.column) or self._said_as_own(item.column, entity) for item in items):
            return None
        if any(_column_words(item.column, entity, False) == _column_words(item.column, table, False) for item in items):
            return None
        return table

    def _said_as_own(self, column: _Col, entity: _Table | None) -> bool:
        """Whether a column of a table the entity's rows point to reads as the entity's own: a poker player's name is
        the name of the person it points to. Not when the entity has a column of that name itself (a city's name is
        not its country's), nor when the joined rows play a part of their own (a flight's destination airport)."""
        table = column.table
        if entity is None or table is None or entity.sub is not None or table.sub is not None or table == entity:
            return False
        if table.role or table.via or not self.refers(entity, table) or _is_identifier(column):
            return False
        if self.names.parents_of(entity) != {table.key}:
            return False  # a treatment points to a dog and a professional: whose first name would "its" be?
        own = _column_words(column, table, False)
        entity_words = self.names.own_column_words(entity)
        if "name" in own.split() and any("name" in words.split() for words in entity_words):
            return False  # a car maker's country name is no name of the car maker's
        if own.split()[-1] in _NAMING_WORDS and not _plays_role(entity, table):
            return False  # a representative's name is no name of an election's; a person's is a poker player's
        return own not in entity_words

    def phrase(self, many: bool, count: int | None = None, conditions: str | None = None) -> str:
        """The whole result as a noun phrase: "the names and ages of the 250 students whose country is France"."""
        if self.group:
            return self._grouped_phrase(many, count) + self._sorted()
        entity = self.main
        only_aggregates = bool(self.items) and all(item.kind == "aggregate" for item in self.items)
        if only_aggregates:
            many, count = True, None  # one value about many rows: "the average age of students ..."
        where = _clauses(self.where, entity, many) if conditions is None else conditions
        if not where and conditions is None:
            where = self._matched(entity, many)
        extreme = self._extreme()
        if extreme is not None:
            rows = entity.noun(True) if entity is not None else "rows"
            return f"{extreme} of {rows}{where}" if where else f"{extreme} of all {rows}"
        if len(self.items) == 1 and self._is_entity_itself(self.items[0]):
            return self._entity_itself(many, count, where) + self._sorted()
        if all(item.kind == "star" for item in self.items):
            return f"all the information about {self._entity(entity, many, count, where)}{self._sorted()}"
        if only_aggregates and all(item.is_count for item in self.items):
            return f"the number of {entity.noun(True) if entity else 'rows'}{where}"
        if len(self.items) == 1 and _counts_keys(self.items[0]):
            # count(DISTINCT a key): the rows it names, "the number of different drivers of results ..."
            things = _different_things(self.items[0].column)
            rows = entity.noun(True) if entity is not None else "rows"
            return f"the number of {things}{'' if things.endswith(' ' + rows) else ' of ' + rows}{where}"
        if self.distinct:
            head, count = self._head(self.items, many, entity, count), None
        else:
            head = self._head(self.items, many, entity)
        keyed = self._keyed(entity) if conditions is None and not many and self.limit is None else None
        if keyed is not None:
            return f"{head} of {keyed}{self._sorted()}"
        return f"{head} of {self._entity(entity, many, count, where)}{self._sorted()}"

    def _keyed(self, entity: _Table | None) -> str | None:
        """One row picked by its own id, named as a person would: "template 4", not "the template whose template
        id is 4"."""
        if entity is None or entity.sub is not None or entity.record or len(self.where) != 1:
            return None
        cond = self.where[0]
        column = cond.item.column if isinstance(cond, _Cond) and cond.item is not None else None
        if column is None or cond.op != "=" or cond.negated or cond.subquery is not None or not cond.values:
            return None
        if column.table != entity or column.identifies != entity:
            return None
        if _column_words(column, entity, False).split()[-1] != "id":
            return None
        return f"{entity.noun(False)} {cond.values[0]}"

    def _is_entity_itself(self, item: _Item) -> bool:
        """A column that names its own table's rows ("continent" of continents, "model" of model lists)."""
        column = item.column
        return (
            item.kind == "column"
            and column is not None
            and column.table is not None
            and column.table.sub is None
            and _word_set(column.name) <= _word_set(column.table.name)
        )

    def _entity_itself(self, many: bool, count: int | None, where: str) -> str:
        name = self.items[0].column.name
        if self.distinct and many:
            amount = f"{count} " if count is not None else ""
            return f"the {amount}different {_noun(name, True)}{where}"
        return self._entity(_Table("", name), many, count, where)

    def _grouped_phrase(self, many: bool, count: int | None) -> str:
        on_subject, rest = self._where_split()
        subject_table = self.subject_table
        subject_words = _clauses(on_subject, subject_table, many) + self._having(many)
        plain = [item for item in self.items if item.kind != "aggregate"]
        is_subject = [
            (isinstance(self.subject, _Col) and item.column == self.subject)
            or (bool(self.subject_table and self.subject_table.role) and item.column == self.group[0])
            for item in plain
        ]
        if not self.aggregates:
            if len(plain) == 1 and is_subject[0]:  # only the grouped column: "the countries with more than 3 students"
                superlative = self._superlative()
                if superlative is not None and superlative[1]:
                    amount = f"{self.limit} " if self.limit != 1 else ""
                    return f"the {amount}{self._subject_noun(self.limit != 1)} {superlative[1]}{subject_words}"
                amount = f"{count} " if count is not None else ""
                return f"the {amount}{self._subject_noun(many)}{subject_words}"
            entity = subject_table or self.main
            if all(item.kind == "star" for item in plain):
                return f"all the information about {self._entity(entity, many, count, subject_words)}"
            return f"{self._head(plain, many, entity)} of {self._entity(entity, many, count, subject_words)}"
        # One row per group, each measured: "the full name and number of model lists for each car maker".
        measures = ["number" if item.is_count else _item_words(item) for item in self.aggregates]
        of = "" if _counts_keys(self.aggregates[-1]) else f" of {self._measured_noun()}"  # "different host cities"
        measures[-1] += f"{of}{_clauses(rest, self._measured_table(), True)}"
        shown = [item for item, subject in zip(plain, is_subject, strict=True) if not subject]
        # One list: "the id, total lesson time and number of lessons", not "the id and total ... and number ...".
        head = "the " + _join(
            [_column_words(item.column, subject_table, False) if item.column else _item_words(item) for item in shown]
            + measures
        )
        superlative = self._superlative()
        top = f" {superlative[1]}" if superlative is not None and superlative[1] else ""
        if any(is_subject) and ((top and self.limit == 1) or (superlative is None and not many)):
            # One group whose own value is shown: said as listed, "the language with the most songs and its number
            # of songs are bangla and 4", not "the number of songs for the language ... are bangla and 4".
            subject = f"the {self._subject_noun(False)}{top}{subject_words}"
            if self.items[0] is plain[0] and is_subject[0]:
                return f"{subject} and its {head.removeprefix('the ')}"
            return f"{head} and {subject}"
        if superlative is not None and superlative[1]:
            amount = f"{self.limit} " if self.limit != 1 else ""
            return f"{head} for the {amount}{self._subject_noun(self.limit != 1)} {superlative[1]}{subject_words}"
        if not many:
            return f"{head} for the {self._subject_noun(False)}{subject_words}"
        if count is not None:
            return f"{head} for each of the {count} {self._subject_noun(True)}{subject_words}"
        return f"{head} for each {self._subject_noun(False)}{subject_words}"

    def one_group(self, row: list) -> str | None:
        """The one group a count picks, told with its count: "The language with the most songs is Bangla, with 4
        songs.", "The room type with at least 45 rooms is Double, with 77 rooms." (a HAVING on the count that one
        group passes), never "the language with the most songs and its number of songs are Bangla and 4"; None for
        any other shape."""
        if not self.group or len(self.items) != 2 or len(row) != 2:
            return None
        shown, measure = self.items
        if shown.kind != "column" or not (measure.is_count or _counts_keys(measure)) or not self._picks_one(measure):
            return None
        # The grouped column itself, or the key a table is grouped by ("the department with the fewest enrolments is
        # MFL" for a teacher's department code).
        subject = (isinstance(self.subject, _Col) and shown.column == self.subject) or (
            self.subject_table is not None and shown.column == self.group[0]
        )
        on_subject, rest = self._where_split()
        number = row[1]
        if not subject or rest or isinstance(number, bool) or not isinstance(number, int):
            return None
        top = f" {self._superlative()[1]}" if self.limit == 1 else ""
        noun = self._counted_noun(number != 1, False) if measure.is_count else _different_things(measure.column)
        if number == 1 and not measure.is_count:
            noun = self.items[1].column.identifies.called(False)
        where = _clauses(on_subject, self.subject_table, False) + self._having(False)
        return _sentence(f"the {self._group_named()}{top}{where} is {_value(row[0])}, with {number} {noun}")

    def _group_named(self) -> str:
        """The one group, named by what its value names: grouped by a table's own name or title, the group is that
        table's row ("the venue with the most films is Odeon Screen 1", never "the venue name with the most films");
        any other column as `_subject_noun` says it ("the last name with the most employees")."""
        subject = self.subject
        if isinstance(subject, _Col) and subject.table is not None and subject.table.sub is None:
            words = subject.name.split()
            if words[-1] in _NAMING_WORDS and (len(words) == 1 or words[:-1] == subject.table.called(False).split()):
                return subject.table.noun(False)
            if words[-1] in _NAMING_WORDS and len(words) == 2 and words[0] not in _NAME_KINDS:
                return words[0]  # "the town with the most consults is Fareham" for a site's town name
        return self._subject_noun(False)

    def _picks_one(self, measure: _Item) -> bool:
        """Whether one group is picked by its count: ordered by the count shown and cut to one, or kept by a HAVING
        on that count alone (the result then has one row)."""
        if self.limit == 1 and not self.having and self.order:
            order = self.order[0][0]
            return (order.is_count, order.distinct, order.column) == (
                measure.is_count,
                measure.distinct,
                measure.column,
            )
        if self.limit is not None or self.order or len(self.having) != 1 or not isinstance(self.having[0], _Cond):
            return False
        return measure.is_count and self._count_phrase(self.having[0]) is not None

    def population(
        self, many: bool, count: int | None = None, conditions: str | None = None, *, distinct: bool = True
    ) -> str:
        """The rows the query is about, without what it shows of them: "students whose country is France"."""
        if self.group:
            on_subject, rest = self._where_split()
            words = self._subject_noun(many) + _clauses(on_subject, self.subject_table, many) + self._having(many)
            subject_table = self.subject_table or (self.subject.table if self.subject is not None else None)
            if not self.having and (rest or self.counted not in (None, subject_table)):
                words += f" with {self._counted_noun(True, with_conditions=True)}"
            return words
        entity = self.main
        noun = entity.noun(many) if entity is not None else ("rows" if many else "row")
        if self.is_count_only and len(self.tables) == 1:
            noun = self._pairs_noun(entity, many) or noun
        where = _clauses(self.where, entity, many) if conditions is None else conditions
        if not where:
            where = self._matched(entity, many)
        only = self.items[0] if len(self.items) == 1 else None
        if distinct and self.distinct and only is not None and only.kind == "column" and only.column is not None:
            if self._is_entity_itself(only):
                noun = f"different {_noun(only.column.name, True)}"
            else:
                owner = entity.noun(True) if entity else "rows"
                noun = f"different {_column_words(only.column, entity, True)} of {owner}"
        return f"{count} {noun}{where}" if count is not None else f"{noun}{where}"

    def _matched(self, entity: _Table | None, many: bool) -> str:
        """A join with no condition still keeps only the rows that have a match: " that have a pet" for students
        joined with has_pet; "" when nothing joined refers to the rows."""
        others = [table for table in self.tables if table != entity and table.sub is None]
        if entity is None or not any(self.refers(table, entity) for table in others):
            return ""
        if self._picked_by_other(self._order_table()):
            return ""  # "the hotel whose room has the highest floor" says it has one
        if entity.role and len(self.tables) == 1:
            return ""  # prereq's prerequisite ids: being one is what a row of it says
        other = self.names.as_rows_of(self._far_end(others), entity)
        related = self.names.relation_between(entity, other)
        if related is not None and related[2] and related[1].singular != "has":
            verb = related[1].plural if many else related[1].singular  # "students that play a video game"
            return f" that {verb} {_with_article(other.noun(False))}"
        return " " + _having(entity, other, "have" if many else "has", False, "")

    def nothing(self) -> str:
        """The sentence for an empty result."""
        if self.group and self.aggregates and not self.having:
            on_subject, rest = self._where_split()
            counted = self._counted_noun(True, False) + _clauses(rest, self.counted, True)
            subject = self._subject_noun(False) + _clauses(on_subject, self.subject_table, False)
            return f"There are no {counted} for any {subject}."
        return f"There are no {self.population(True).removeprefix('different ')}."  # not "no different pilots"

    def lead(self) -> int:
        """The result column that best names a row (a name rather than an id or a number), for listing rows."""
        named = [index for index, item in enumerate(self.items) if item.kind == "column" and item.column is not None]
        named.sort(key=lambda index: self.items[index].column.identifies is not None)
        return named[0] if named else 0

    def listing(self, rows: list) -> str | None:
        """A few grouped rows with one measure each, told per group: "The number of car makers for each continent
        is 4 for america and 7 for asia."; None for other shapes."""
        if not self.group or len(self.aggregates) != 1 or len(self.items) != 2 or any(len(row) != 2 for row in rows):
            return None
        measure = self.items.index(self.aggregates[0])
        key = 1 - measure
        if self.items[key].kind != "column":
            return None
        told = [f"{_value(row[measure])} for {self._named(row, key)}" for row in rows]
        measured_only = replace(self, items=[self.items[measure]])
        return _sentence(f"{measured_only.phrase(True)} is {_join(told)}")

    def labels(self) -> list[str] | None:
        """A short label per result column, for listing rows ("age", "number of students"); None with a star."""
        if any(item.kind == "star" for item in self.items):
            return None
        return [
            f"number of {self._counted_noun(True, False)}" if item.is_count else self._label(item)
            for item in self.items
        ]

    def _label(self, item: _Item) -> str:
        """A column's label said against the rows ("last name" of employees, "architect's name" of bridges)."""
        column = item.column
        if item.kind != "column" or column is None or column.table is None or self.main is None:
            return _item_words(item)
        return _column_words(column, self.main, False)

    def example(self, row: list) -> str:
        """For a long grouped result, one row in words: "For example, the number of students for France is 3."."""
        if not self.group or len(self.aggregates) != 1 or len(row) != len(self.items):
            return ""
        if not any(item.kind == "column" for item in self.items):
            return ""
        # A name reads better than an id: "for General Motors", not "for 4".
        position = self.items.index(self.aggregates[0])
        label = self.labels()[position]
        return f" For example, the {label} for {self._named(row, self.lead())} is {_value(row[position])}."

    def _named(self, row: list, index: int) -> str:
        """A row's value of column `index` as it names the row: a number that is a key with its table's noun ("for
        architect 1", not "for 1"), any other value as it is."""
        value, item = row[index], self.items[index]
        column = item.column if item.kind == "column" else None
        if column is None or isinstance(value, bool) or not isinstance(value, int | float):
            return _value(value)
        if isinstance(value, float):
            return _measured(column, value)
        keyed = _undeclared_key_of(column)
        if keyed:
            return f"{keyed} {_value(value)}"  # "for start station 2", not "for 2"
        if column.identifies is None:
            # A number that names a group only with its column: "for licence grade 2", "for queue position 1", never
            # "6 for 2"; a year reads as itself.
            if _is_time(column) or column.table is None:
                return _value(value)
            words = _noun(_column_words(column, column.table, False), False)
            measure, unit = words.rsplit(" in ", 1) if " in " in words else (words, "")
            if unit in _UNITS:
                return f"{_with_article(measure)} of {_value(value)} {unit}"  # "for a dose of 1 mg"
            if words.split()[-1] in _AMOUNT_WORDS:
                return f"{_with_article(words)} of {_value(value)}"  # "for a guest count of 0"
            return f"{words} {_value(value)}"
        if _column_words(column, column.identifies, False).split()[-1] not in _KEY_WORDS:
            return _value(value)
        return f"{column.identifies.noun(False)} {_value(value)}"


# ---------------------------------------------------------------------------------------------------------------
# Conditions as relative clauses
# ---------------------------------------------------------------------------------------------------------------


def _clauses(conditions: list, anchor: _Table | None, many: bool) -> str:
    """`[cond, "and", cond]` as " whose country is France and that are older than 20" (leading space), or ""."""
    if "or" not in conditions:
        # The rows' own conditions first: after "with a country whose ...", an "and whose ..." would read as the
        # country's too.
        own = [cond for cond in conditions if cond != "and" and not _clause_parts(cond, anchor, many)[0]]
        joined = [cond for cond in conditions if cond != "and" and _clause_parts(cond, anchor, many)[0]]
        conditions = _and(_extremes_among_them(own + joined, anchor))
    parts: list[str] = []
    previous = ("", "", "")
    theirs = ""  # the prefix of a joined row said as the rows' own ("whose user's email address")
    for cond in conditions:
        if cond in ("and", "or"):
            parts.append(cond)
            continue
        prefix, subject, predicate = _clause_parts(cond, anchor, many)
        repeated = parts and parts[-1] in ("and", "or")
        if repeated:
            prefix, subject, theirs = _said_as_theirs(cond, anchor, (prefix, subject), previous, theirs)
        # Said once is enough: "with a pet whose type is cat and whose age is 3", "whose name is Ann or Bob".
        if repeated and prefix and prefix == previous[0]:
            prefix = ""
            if subject and subject == previous[1]:
                subject = ""
                if predicate.startswith("is ") and previous[2].startswith("is ") and not predicate.startswith("is not"):
                    predicate = predicate[3:]
        elif repeated and not prefix and not previous[0] and subject and subject == previous[1]:
            subject = ""
            if predicate.startswith("is ") and previous[2].startswith("is ") and not predicate.startswith("is not"):
                predicate = predicate[3:]
        parts.append(" ".join(part for part in (prefix, subject, predicate) if part))
        previous = _clause_parts(cond, anchor, many)
    return (" " + " ".join(parts)) if parts else ""


def _said_as_theirs(cond, anchor: _Table | None, said: tuple[str, str], previous: tuple, theirs: str):
    """After the rows' own condition, the one row each points to said as theirs: "comments whose body length is above
    average and whose user's email address is ...", never "... and with a user whose"; a second condition on that
    row follows as "and last name is ...". (prefix, subject, the prefix so said) of a condition after "and"."""
    prefix, subject = said
    if not prefix.startswith("with ") or not subject.startswith("whose "):
        return prefix, subject, ""
    if prefix == theirs:
        return "", subject[len("whose ") :], theirs
    if not previous[0] and _parent_of(cond, anchor):
        return "", f"whose {_owner_noun(cond.item.column.table, anchor, False)}'s {subject[len('whose ') :]}", prefix
    return prefix, subject, ""


def _parent_of(cond, anchor: _Table | None) -> bool:
    """Whether `cond` is on a column of the one row each `anchor` row points to by a foreign key (a comment's user)."""
    column = cond.item.column if isinstance(cond, _Cond) and cond.item is not None else None
    table = column.table if column is not None else None
    if table is None or anchor is None or table.sub is not None or not isinstance(anchor.names, _Names):
        return False
    return anchor.names.references(anchor, table) and not anchor.names.is_link(anchor)


def _clause(cond: _Cond, anchor: _Table | None, many: bool) -> str:
    return " ".join(part for part in _clause_parts(cond, anchor, many) if part)


def _clause_parts(cond: _Cond, anchor: _Table | None, many: bool) -> tuple[str, str, str]:
    """A condition as (prefix, subject, predicate): ("with a concert", "whose year", "is 2014")."""
    be, have = ("are", "have") if many else ("is", "has")
    found = _subquery_clause(cond, anchor, have)
    if found is not None:
        return found
    item = cond.item
    column = item.column if item is not None else None
    op = _NEGATED_OPS[cond.op] if cond.negated and cond.op in _NEGATED_OPS else cond.op
    negated = cond.negated and cond.op not in _NEGATED_OPS
    if item is not None and item.kind == "column" and column is not None and column.name == "age" and op in "<>":
        if not negated and (anchor is None or column.table in (None, anchor)) and cond.values:
            return "", "", f"that {be} {'older' if op == '>' else 'younger'} than {cond.values[0]}"
    flagged = _flag_clause(cond, op, negated, anchor, many)
    if flagged is not None:
        return flagged
    prefix, subject = _subject(item, anchor, many)
    predicate = _predicate(cond, op, negated)
    plain = cond.op == "=" and op == "=" and not negated and cond.subquery is None and bool(cond.values)
    if plain and column is not None:
        found = _equal_clause(cond, column, anchor, be, prefix, subject)
        if found is not None:
            return found
    if subject and predicate.startswith("is ") and _is_plural(_head_word(subject)):
        predicate = "are " + predicate[3:]  # "whose earnings are greater than 300000"
    return prefix, subject, predicate


def _subquery_clause(cond: _Cond, anchor: _Table | None, have: str) -> tuple[str, str, str] | None:
    """An EXISTS condition, or one on what each row has (`cond.have`); None for any other condition."""
    if cond.op == "exists" and isinstance(cond.subquery, _Select):
        # EXISTS (SELECT ... FROM pets WHERE <linked to this row> ...) asks the same as an IN subquery.
        inner = cond.subquery
        had = inner.names.as_rows_of(inner.main, anchor)
        conditions = _clauses(inner.where, had, False)
        return "", "", _having(anchor, had, have, cond.negated, conditions)
    if cond.op == "exists":
        return "", "", f"for which there {'is no' if cond.negated else 'is'} {_with_sub_article(cond.subquery)}"
    if cond.have is not None and cond.side_of is not None and cond.have.role:
        # course_id IN (SELECT prereq_id FROM prereq JOIN course ... WHERE title = 'X'): prerequisites of that course
        inner: _Select = cond.subquery
        parent = cond.side_of
        conditions = _clauses(inner.where, parent, False)
        be = "are" if have == "have" else "is"
        side = _with_article(_noun(cond.have.role, False)) if be == "is" else _noun(cond.have.role, True)
        return (
            "",
            "",
            f"that {be} {'not ' if cond.negated else ''}{side} of {_with_article(parent.noun(False))}{conditions}",
        )
    if cond.have is not None:
        inner: _Select = cond.subquery
        conditions = _clauses(inner.where, cond.have, False)
        return "", "", _having(anchor, cond.have, have, cond.negated, conditions)
    return None


def _with_sub_article(query) -> str:
    population = query.population(False) if isinstance(query, _Select) else query.phrase(False)
    return _with_article(population)


def _predicate(cond: _Cond, op: str, negated: bool) -> str:
    if cond.op == "like":
        return _like_predicate(cond.like or "", negated)
    if cond.op == "between":
        low, high = (cond.values + ["", ""])[:2]
        return f"is {'not ' if negated else ''}between {low} and {high}"
    if cond.op == "is":
        return "is not empty" if negated else "is empty"
    if cond.op == "true":
        return "is false" if negated else "holds"
    if cond.subquery is not None and (extreme := _own_extreme(cond, op, negated)) is not None:
        return extreme
    if cond.op == "in":
        return _in_predicate(cond, negated)
    phrases = _IS_PHRASES
    if cond.item is not None and cond.item.kind == "column" and _is_time(cond.item.column):
        phrases = _IS_PHRASES | _TIME_PHRASES  # "whose date reported is after 1971-06-15", "year founded is after"
    if cond.subquery is not None:
        return _AVERAGE_PHRASES[op] if _with_own_average(cond, op) else phrases[op].format(cond.subquery.phrase(False))
    value = cond.values[0] if cond.values else "a value"
    return phrases[op].format(value)


def _in_predicate(cond: _Cond, negated: bool) -> str:
    """An IN condition: among a subquery's values, or one of a list."""
    query = cond.subquery
    if isinstance(query, _SetQuery) and query.operator == "union":
        # Either side will do: "is neither among the source airports of all flights nor among ...".
        one, two = query.left.phrase(True), query.right.phrase(True)
        return f"is neither among {one} nor among {two}" if negated else f"is among {one} or among {two}"
    if query is not None:
        return f"is {'not ' if negated else ''}among {query.phrase(True)}"
    if not negated:
        return f"is {_join(cond.values, 'or')}"
    if len(cond.values) == 2:
        return f"is neither {cond.values[0]} nor {cond.values[1]}"
    return f"is none of {_join(cond.values)}"


def _extreme_of_own_column(cond: _Cond) -> str | None:
    """The word a subquery picks its one value by, when it picks the largest or smallest of the compared column over
    that column's own table (`max(col)`, or `col` ordered and cut to one row): "highest", "earliest"; else None."""
    query, item = cond.subquery, cond.item
    if not isinstance(query, _Select) or item is None or item.kind != "column" or item.column is None:
        return None
    if query.group or query.having or len(query.tables) != 1 or len(query.items) != 1 or query.distinct:
        return None
    picked = query.items[0]
    if picked.kind == "aggregate" and picked.function in ("maximum", "minimum") and not query.order:
        column, descending = picked.column, picked.function == "maximum"
    elif picked.kind == "column" and query.limit == 1 and len(query.order) == 1:
        column, descending = picked.column, query.order[0][1]
        ordered = query.order[0][0].column
        if column is None or ordered is None or column.name != ordered.name:
            return None
    else:
        return None
    if column is None or column.table is None or item.column.table is None:
        return None
    if (column.name, column.table.key) != (item.column.name, item.column.table.key):
        return None
    return _extreme_word(item, descending)


def _extremes_among_them(conditions: list, anchor: _Table | None) -> list:
    """The conditions, an extreme of the rows' own column taken over the rows the other conditions keep marked so
    ("whose age is the highest among them"): the subquery is of the same table and its conditions read the same."""
    marked = []
    for cond in conditions:
        others = [other for other in conditions if other is not cond]
        query = cond.subquery if isinstance(cond, _Cond) else None
        if (
            others
            and isinstance(query, _Select)
            and query.where
            and "or" not in query.where
            and anchor is not None
            and query.main is not None
            and query.main.key == anchor.key
            and _extreme_of_own_column(cond) is not None
            and _clauses(query.where, query.main, True) == _clauses(_and(others), anchor, True)
        ):
            cond = replace(cond, among_them=True)
        marked.append(cond)
    return marked


def _own_extreme(cond: _Cond, op: str, negated: bool) -> str | None:
    """A column equal to (or among) its own largest or smallest value, said the short way as a person says it:
    "whose age is the highest among people whose job is student", "whose year built is the latest", never "whose
    age is the maximum age of people whose job is student" nor "among the maximum year built of all ships"."""
    if negated or op not in ("=", "in") or cond.op not in ("=", "in"):
        return None
    word = _extreme_of_own_column(cond)
    if word is None:
        return None
    query = cond.subquery
    if not query.where:
        return f"is the {word}"
    if cond.among_them:
        return f"is the {word} among them"
    rows = query.main.noun(True) if query.main is not None else "rows"
    return f"is the {word} among {rows}{_clauses(query.where, query.main, True)}"


def _with_own_average(cond: _Cond, op: str) -> bool:
    """Whether `cond` compares (by `op`, larger or smaller) a column with the average of that same column over all
    its table's rows (a subquery of one table, no condition, no grouping): "whose hourly rate is above average"."""
    query, item = cond.subquery, cond.item
    if op not in _AVERAGE_PHRASES or not isinstance(query, _Select) or item is None or item.column is None:
        return False
    if item.kind != "column":
        return False
    if query.where or query.group or query.having or query.limit is not None or len(query.tables) != 1:
        return False
    if len(query.items) != 1 or item.column.table is None:
        return False
    measure = query.items[0]
    column = measure.column
    if measure.kind != "aggregate" or measure.function != "average" or measure.distinct or column is None:
        return False
    return column.table is not None and (column.name, column.table.key) == (item.column.name, item.column.table.key)


# ---------------------------------------------------------------------------------------------------------------
# Set operations
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class _SetQuery:
    operator: str  # "union", "intersect", "except"
    left: object
    right: object
    order: list = field(default_factory=list)
    limit: int | None = None
    plural_head: bool = False  # the phrase names its columns in the plural whatever the rows ("the names of ...")

    def _same_rows(self) -> bool:
        left, right = self.left, self.right
        return (
            isinstance(left, _Select)
            and isinstance(right, _Select)
            and not left.group
            and not right.group
            and left.main == right.main
            and left._head(left.items, True, left.main) == right._head(right.items, True, right.main)
        )

    def _merged_conditions(self, many: bool) -> str | None:
        """Both sides filter the same rows: one list of conditions ("whose amenity name is TV Lounge but not Study
        Room"), or None when they cannot be told as one."""
        left, right = self.left, self.right
        left_where = _clauses(left.where, left.main, many)
        right_where = _clauses(right.where, right.main, many)
        if len(left.where) == 1 == len(right.where) and (self.operator == "union" or self._named_rows()):
            # Values that name no row may come from two rows: "the cards of members whose address is both A and B"
            # would say one member.
            one, two = left.where[0], right.where[0]
            if (
                one.op == two.op == "="
                and not one.negated
                and not two.negated
                and one.values
                and two.values
                and one.subquery is None
                and two.subquery is None
                and one.item is not None
                and two.item is not None
                and one.item.column == two.item.column
            ):
                if one.table is not None and left.main is not None and one.table != left.main:
                    # On a joined table each side may hold for another of its rows: "with a ship named Lettice and
                    # also one named HMS Atalanta", never "a ship whose name is both".
                    prefix, subject, first = _clause_parts(one, left.main, many)
                    _, _, second = _clause_parts(two, left.main, many)
                    other = " ".join(part for part in (subject, second) if part)
                    if prefix:
                        joined = {"union": "or one", "intersect": "and also one", "except": "but none"}[self.operator]
                        said = " ".join(part for part in (prefix, subject, first) if part)
                        return f" {said} {joined} {other}"
                subject = " ".join(part for part in _subject(one.item, left.main) if part)
                joined = {
                    "union": f"is {one.values[0]} or {two.values[0]}",
                    "intersect": f"is both {one.values[0]} and {two.values[0]}",
                    "except": f"is {one.values[0]} but not {two.values[0]}",
                }[self.operator]
                return f" {subject} {joined}"
        if self.operator == "union" and left_where and right_where:
            return f"{left_where} or{right_where}"
        had = self._had(many)
        if had is not None:
            return f"{left_where} and {had}" if left_where else f" {had}"
        if self.operator == "except" and right_where and (self._keyed_rows() or self._coded_rows()):
            return f"{left_where}, except those{right_where}"
        if self.operator == "intersect" and left_where and right_where and self._keyed_rows():
            if "or" not in left.where and "or" not in right.where:
                # The same rows' keys on both sides: one row meets both ("the ids of return items that are not
                # refunded and whose reason code is NLN").
                return f"{left_where} and{right_where}"
        return None

    def _named_rows(self) -> bool:
        """Whether the selected columns tell rows apart or name them (a key, or a name or title)."""
        return self._keyed_rows() or any(
            item.kind == "column" and item.column is not None and item.column.name.split()[-1] in _NAMING_WORDS
            for item in self.left.items
        )

    def _keyed_rows(self) -> bool:
        """Whether the selected columns tell rows apart (a key is among them): only then does removing values
        remove rows. EXCEPT on names removes names, and a dorm that shares its name with a removed one goes too."""
        return any(
            item.kind == "column" and item.column is not None and item.column.identifies for item in self.left.items
        )

    def _coded_rows(self) -> bool:
        """Whether the one column selected is a code or number rows are known by ("tracking numbers", "staff codes";
        not a code of a kind, "type code"): removing its values removes those rows."""
        items = self.left.items
        if len(items) != 1 or items[0].kind != "column" or items[0].column is None:
            return False
        words = items[0].column.name.split()
        return words[-1] in _KEY_WORDS and not set(words) & _CATEGORY_WORDS

    def _had(self, many: bool) -> str | None:
        """The right side joins other tables and filters only them: "that have no concert whose year is 2014"."""
        left, right = self.left, self.right
        if self.operator == "union" or any(cond != "and" and cond.table == right.main for cond in right.where):
            return None
        if not self._keyed_rows():
            return None
        if "or" in right.where:
            return None
        others = [table for table in right.tables if table != right.main and table.sub is None]
        if not others or left.tables != [left.main]:
            return None
        had = right.names.as_rows_of(right._far_end(others), right.main)
        conditions = _clauses(right.where, had, False)
        return _having(right.main, had, "have" if many else "has", self.operator == "except", conditions)

    def _key_had(self, many: bool) -> str | None:
        """The keys of one table's rows without (or with) a row of another that holds them: "the ids of customers
        that have no account (whose ...)" for `customer_id FROM customers EXCEPT customer_id FROM accounts`, never
        "other than the customer ids of all accounts". The other side's column must point to the key (a foreign
        key, or one of the same name where the schema declares none). None for any other set operation."""
        left, right = self.left, self.right
        if self.operator == "union" or not (isinstance(left, _Select) and isinstance(right, _Select)):
            return None
        if left.group or right.group or len(left.items) != 1 or len(right.items) != 1 or "or" in right.where:
            return None
        if left.main is None or right.main is None or left.main == right.main:
            return None
        if left.tables != [left.main] or right.tables != [right.main]:
            return None
        mine, theirs = left.items[0].column, right.items[0].column
        if mine is None or theirs is None or left.items[0].kind != "column" or right.items[0].kind != "column":
            return None
        if mine.identifies != left.main or theirs.identifies not in (left.main, None):
            return None
        if theirs.identifies is None and theirs.name != mine.name:
            return None
        conditions = _clauses(right.where, right.main, False)
        had = _having(left.main, right.main, "have" if many else "has", self.operator == "except", conditions)
        where = _clauses(left.where, left.main, many)
        return f"{where} and {had}" if where else f" {had}"

    def phrase(self, many: bool, count: int | None = None) -> str:
        if self._same_rows():
            merged = self._merged_conditions(many)
            if merged is not None:
                return self.left.phrase(many, count, merged) + self._ordered()
            right = self.right.population(True, distinct=False)
            left = self.left.population(True, distinct=False)
            head = self.left._head(self.left.items, True, self.left.main)
            noun = self.left.main.noun(True) if self.left.main is not None else ""
            if noun and right.startswith(noun + " "):
                right = "those" + right[len(noun) :]  # "of dorms but not of those with a student ..."
            self.plural_head = True
            values = self._values_with(many)
            if values is not None:
                return values + self._ordered()
            if self.operator == "except":
                return f"{head} of {left} but not of {right}{self._ordered()}"
            if self.operator == "intersect":
                return f"{head} both of {left} and of {right}{self._ordered()}"
        had = self._key_had(many)
        if had is not None:
            return self.left.phrase(many, count, had) + self._ordered()
        left, right = self.left.phrase(many), self.right.phrase(True)
        joined = {
            "union": f"{left}, together with {right}",
            "intersect": f"{left} that are also among {right}",
            "except": f"{left}, other than {right}",
        }[self.operator]
        return joined + self._ordered()

    def _values_with(self, many: bool) -> str | None:
        """One column's values kept or dropped by which rows hold them, said of the values: "the teams of pilots
        whose nationality is United States, other than those of pilots whose rank is less than 13" (EXCEPT), "the
        positions shared by a player whose points are greater than 20 and one whose points are less than 10"
        (INTERSECT), never
        "the teams with a pilot whose ... and none whose ..." nor "the names both of dorms whose ... and of those
        whose ...". Names too, which two rows may share (a value of the left rows that no right row holds, or one that
        a row of each side holds); keys keep their own wording; None for any other shape."""
        left, right = self.left, self.right
        if self.operator == "union" or len(left.items) != 1 or self._keyed_rows() or left.main is None:
            return None
        item = left.items[0]
        if item.kind != "column" or item.column is None or item.column.table != left.main or left.main.sub is not None:
            return None
        if self._coded_rows():
            return None  # a code or number a row is known by ("staff codes"): no "staff codes of teachers but ..."
        noun, nouns = left.main.noun(False), left.main.noun(True)
        first = left.population(self.operator == "except", distinct=False)
        second = right.population(False, distinct=False)
        if not first.startswith(nouns if self.operator == "except" else noun) or not second.startswith(noun + " "):
            return None
        first = first[len(nouns if self.operator == "except" else noun) :]
        if not first and self._named_rows():
            return None  # all rows' names: "the names of dorms but not of those with a student ..."
        second = second[len(noun) :]
        values = _noun(_column_words(item.column, left.main, False), many)
        self.plural_head = many  # one value: "the position shared by ... is Loose Forward"
        if self.operator == "except":
            if not first:
                return f"the {values} with no {noun}{second}"
            others = right.population(True, distinct=False)
            if others.startswith(nouns + " "):
                # "the start dates of staff whose role code is BH, other than the start dates of staff whose ...",
                # never "but of no staff whose ..." (nor "but of no order that is not paid", two negatives)
                return f"the {values} of {nouns}{first}, other than the {_noun(values, True)} of {others},"
            return f"the {values} of {nouns}{first} but of no {noun}{second}"
        if not first:
            return None
        # "the name shared by a branch that is drive-thru and one whose ...", never "the name of both a branch ..."
        return f"the {values} shared by {_with_article(noun)}{first} and one{second}"

    def _ordered(self) -> str:
        words = ""
        if self.order:
            item, descending = self.order[0]
            words = f", sorted by {_item_words(item)}" + (" in descending order" if descending else "")
        if self.limit is not None:
            words += f", keeping the first {self.limit}"
        return words

    def population(self, many: bool, count: int | None = None, *, distinct: bool = True) -> str:
        if self._same_rows():
            merged = self._merged_conditions(many)
            if merged is not None:  # "students that have no pet whose pet type is cat"
                return self.left.population(many, count, merged, distinct=distinct)
        return self.phrase(many, count).removeprefix("the ")

    def lead(self) -> int:
        return self.left.lead()

    def listing(self, rows: list) -> str | None:
        return None

    def nothing(self) -> str:
        return f"There are no {self.population(True)}."

    @property
    def is_count_only(self) -> bool:
        return False

    @property
    def items(self) -> list[_Item]:
        return self.left.items

    def labels(self) -> list[str] | None:
        return self.left.labels()

    def example(self, row: list) -> str:
        return ""
