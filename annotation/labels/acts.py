"""The labelling vocabulary: dialogue acts (CoSQL appendix A.1) and the follow-up question kinds shown to workers.

Labels are validated against these sets everywhere (websocket messages, review corrections, imports), so a label that
is not listed here never reaches the database.
"""

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

USER_ACTS: dict[str, str] = {
    "INFORM_SQL": "The question can be answered by SQL; the expert writes it.",
    "INFER_SQL": "Answered by SQL plus inference (yes/no questions, 'the 3rd oldest', ...).",
    "AMBIGUOUS": "Ambiguous; the expert double-checks the intent.",
    "AFFIRM": "The user says yes / agrees.",
    "NEGATE": "The user says no / disagrees.",
    "NOT_RELATED": "Not related to the database; the expert reminds the user.",
    "CANNOT_UNDERSTAND": "Cannot be understood; the expert asks to rephrase.",
    "CANNOT_ANSWER": "Cannot easily be answered by SQL; the expert says so.",
    "GREETING": "Greets the system.",
    "GOOD_BYE": "Says goodbye.",
    "THANK_YOU": "Thanks the system.",
    "DROP": "The user ignored the instructions in this turn.",
}

SYSTEM_ACTS: dict[str, str] = {
    "CONFIRM_SQL": "Describes the SQL and its result, and asks the user to confirm.",
    "CLARIFY": "Asks the user to clarify an ambiguous question.",
    "REJECT": "Cannot answer / did not understand / not related.",
    "REQUEST_MORE": "Asks whether the user wants anything else.",
    "GREETING": "Greets the user.",
    "SORRY": "Apologises.",
    "WELCOME": "Says 'you are welcome'.",
    "GOOD_BYE": "Says goodbye.",
    "DROP": "Warns the user that this turn broke the instructions.",
}

# Acts whose turn is grounded in SQL: such a response must come with a shared result table.
SQL_GROUNDED_USER_ACTS = frozenset({"INFORM_SQL", "INFER_SQL"})

# User acts that are courtesy, not a question: a turn made only of these does not count toward the minimum.
SOCIAL_USER_ACTS = frozenset({"GREETING", "GOOD_BYE", "THANK_YOU"})

# The five kinds of related question shown in the worker's "related questions" help (CoSQL Figure 7, SParC).
FOLLOW_UP_KINDS: list[dict[str, Promise]] = [
    {
        "name": _("Refer back (coreference)"),
        "explain": _("Use 'it', 'they', 'those' for something from your previous question."),
        "example": _("Which dorms have a TV lounge? → How many students live in them?"),
    },
    {
        "name": _("Change a constraint"),
        "explain": _("Keep the question, change a condition."),
        "example": _("Students older than 20? → What about older than 22?"),
    },
    {
        "name": _("Another attribute, same topic"),
        "explain": _("Ask for a different detail about the same things."),
        "example": _("Names of the students in Smith Hall? → And their majors?"),
    },
    {
        "name": _("Same attribute, another topic"),
        "explain": _("Ask the same thing about something else."),
        "example": _("How many students live in Smith Hall? → And in Fawlty Towers?"),
    },
    {
        "name": _("Ask about the answer"),
        "explain": _("Ask something about the result you were just shown."),
        "example": _("Which is the largest dorm? → Which amenities does it have?"),
    },
]


# How the expert must answer a user act (CoSQL appendix A.1 and A.3): a response to a turn labelled with `user` must
# carry one of `system`. An INFORM_SQL question that is also AMBIGUOUS is clarified first, so its SQL rule waits.
ACT_RULES: list[dict] = [
    {
        "user": "AMBIGUOUS",
        "system": ["CLARIFY"],
        "message": _("An AMBIGUOUS question is answered with CLARIFY: ask what the user meant."),
    },
    {
        "user": "NOT_RELATED",
        "system": ["REJECT", "SORRY"],
        "message": _("A NOT_RELATED question is answered with REJECT (or SORRY): say it is not about this database."),
    },
    {
        "user": "CANNOT_UNDERSTAND",
        "system": ["REJECT", "SORRY"],
        "message": _("A question you CANNOT_UNDERSTAND is answered with REJECT (or SORRY): ask the user to rephrase."),
    },
    {
        "user": "CANNOT_ANSWER",
        "system": ["REJECT", "SORRY"],
        "message": _("A question SQL CANNOT_ANSWER is answered with REJECT (or SORRY): say what the data cannot tell."),
    },
    {
        "user": "INFORM_SQL",
        "system": ["CONFIRM_SQL"],
        "unless": "AMBIGUOUS",
        "message": _("An INFORM_SQL question is answered with its result table and CONFIRM_SQL."),
    },
]

# What a response with each system act should say (CoSQL appendix A.3), shown beside the expert's response box.
RESPONSE_GUIDE: dict[str, str] = {
    "CONFIRM_SQL": "Describe everything the SQL asks, with its column names and values, without leaning on earlier "
    "turns; fold a short result into the sentence ('Fawlty Towers is the dorm that has a TV lounge but no study "
    "room.'), otherwise say what the table shows.",
    "CLARIFY": "“Did you mean …?”, “What did you mean by …?”",
    "REJECT": "“Sorry, I don't have the answer to your question …”, and why, if you can tell.",
    "REQUEST_MORE": "“Do you want anything else?”",
    "SORRY": "Apologise, plainly.",
    "WELCOME": "“You are welcome.”",
    "GREETING": "Greet the user back.",
    "GOOD_BYE": "Say goodbye.",
}


# Keyboard keys of the acts on the expert's screen (Label Studio and Potato label by key): digits and the two keys after
# them for the user acts, the top letter row for the system acts. One list, read by the template and the script.
USER_ACT_KEYS = "1234567890-="
SYSTEM_ACT_KEYS = "qwertyuio"


def acts_with_keys(side: str) -> list[dict]:
    """The acts of `side` ("user" or "system") with their descriptions and keys, in the screen's order."""
    acts, keys = (USER_ACTS, USER_ACT_KEYS) if side == "user" else (SYSTEM_ACTS, SYSTEM_ACT_KEYS)
    return [
        {"name": name, "description": text, "key": key} for (name, text), key in zip(acts.items(), keys, strict=True)
    ]


def act_rule_broken(user_acts: list[str], system_acts: list[str]) -> str | None:
    """The message of the first ACT_RULES rule that `system_acts` break for a turn labelled `user_acts`, or None."""
    for rule in ACT_RULES:
        if rule["user"] not in user_acts or rule.get("unless") in user_acts:
            continue
        if not set(rule["system"]) & set(system_acts):
            return str(rule["message"])  # in the active language
    return None


class LabelError(ValueError):
    """A label outside the allowed set."""


def check_acts(acts, *, side: str) -> list[str]:
    """Validate a list of act labels for `side` ('user' or 'system'); returns them upper-cased, deduplicated, in order.

    Raises LabelError naming the labels that are not in the set (or when the list is empty or not a list of strings).
    """
    allowed = USER_ACTS if side == "user" else SYSTEM_ACTS
    if not isinstance(acts, list) or not acts or not all(isinstance(act, str) for act in acts):
        raise LabelError(
            gettext("user acts must be a non-empty list of labels")
            if side == "user"
            else gettext("system acts must be a non-empty list of labels")
        )
    normalised = list(dict.fromkeys(act.strip().upper() for act in acts))
    unknown = [act for act in normalised if act not in allowed]
    if unknown:
        said = (
            gettext("not user acts: %(labels)s (allowed: %(allowed)s)")
            if side == "user"
            else gettext("not system acts: %(labels)s (allowed: %(allowed)s)")
        )
        raise LabelError(said % {"labels": ", ".join(unknown), "allowed": ", ".join(allowed)})
    return normalised


# --- CHASE's turn labels (CHASE section 3; docs/formats.md) -----------------------------------------------------------

# Contextual phenomena of a user turn (multi-label), with what each means for the person labelling.
CONTEXTUAL_PHENOMENA: dict[str, str] = {
    "Context Independent": "The question can be understood on its own, without the earlier turns.",
    "Coreference": "It refers back to something earlier with a pronoun or a short name ('they', 'those', 'it').",
    "Ellipsis Continuation": "It leaves out what it keeps from the previous question and adds to it ('their age?').",
    "Ellipsis Substitution": "It leaves out what it keeps and replaces one part ('what about France?').",
    "Far Side": "It depends on a turn before the previous one.",
}

# CHASE's two labels of a question's wording, as its release writes them (values counted in the public training split,
# ../shared/corpora/chase_train.json): how the question phrases what it asks (`pragmatics`) and its form
# (`question_style`). The release's own (Chinese) words are the values; the English is what the screens show.
PRAGMATICS: dict[str, str] = {
    "主动": "active voice",  # who does what
    "被动": "passive voice",  # what is done comes first ("which songs were sung by ...")
    "同义表达": "a synonym of a schema word",  # "pupils" for student
    "名词->动词": "a schema noun said as a verb",  # "who sang" for singer
}
QUESTION_STYLES: dict[str, str] = {
    "疑问句": "a question",  # "Which dorms ...?"
    "陈述句": "a statement or request",  # "Show me the dorms ..."
    "关键词": "keywords only",  # "dorms, capacity"
}


def check_choice(value, choices: dict[str, str], name: str) -> str:
    """One of `choices`' keys, or "" (not labelled)."""
    if value is None or value == "":
        return ""
    if not isinstance(value, str) or value.strip() not in choices:
        raise LabelError(
            gettext("%(name)s must be one of %(choices)s, or empty") % {"name": name, "choices": ", ".join(choices)}
        )
    return value.strip()


def check_pragmatics(value) -> str:
    return check_choice(value, PRAGMATICS, "pragmatics")


def check_question_style(value) -> str:
    return check_choice(value, QUESTION_STYLES, "question_style")


# SParC's thematic relations of a follow-up question (SParC Table 2, after Bertomeu et al. 2006; docs/chase.md): the
# first three relate it to a previous question, the last to a previous answer (SParC groups answer refinement and
# answer theme into one). A question may have one or more; the values are what the exports and statistics write.
THEMATIC_RELATIONS: dict[str, str] = {
    "refinement": "Refinement: the same kind of entity as a previous question, with another constraint",
    "theme_entity": "Theme-entity: other properties of the same entity as a previous question",
    "theme_property": "Theme-property: the same property of another entity",
    "answer_refinement_theme": "Answer refinement/theme: a subset of a previous answer, or one entity it named",
}
# The thematic relation each CHASE relation (annotation.labels.relations.RELATION_NAMES) suggests, for a proposal a
# person then accepts or not (docs/chase.md says why; answer refinement/theme needs the previous answer, no SQL pair
# shows it). Relations missing here suggest nothing.
THEMATIC_OF_RELATION: dict[str, str] = {
    **dict.fromkeys(("R1", "R2", "R3", "R4", "R5", "R6", "R7"), "theme_entity"),
    **dict.fromkeys(("R8", "R9", "R11", "R12", "R14", "R15"), "refinement"),
    "R10": "theme_property",
}


def check_thematic_relations(values) -> list[str]:
    """A follow-up question's thematic relations: a list (possibly empty: not labelled) of THEMATIC_RELATIONS' keys,
    deduplicated in THEMATIC_RELATIONS' order."""
    if not isinstance(values, list) or not all(isinstance(value, str) for value in values):
        raise LabelError(gettext("thematic relations must be a list of names"))
    given = {value.strip() for value in values}
    unknown = sorted(given - set(THEMATIC_RELATIONS))
    if unknown:
        raise LabelError(
            gettext("not thematic relations: %(labels)s (allowed: %(allowed)s)")
            % {"labels": ", ".join(unknown), "allowed": ", ".join(THEMATIC_RELATIONS)}
        )
    return [name for name in THEMATIC_RELATIONS if name in given]


def check_thematic_of_turn(values, *, follow_up: bool) -> list[str]:
    """`check_thematic_relations`, and the rule every place that takes them keeps (the room, review's corrections,
    double annotation): a thematic relation relates a follow-up question to an earlier question answered with SQL,
    so a first question has none (`follow_up` False)."""
    checked = check_thematic_relations(values)
    if checked and not follow_up:
        raise LabelError(str(THEMATIC_ON_FIRST))
    return checked


THEMATIC_ON_FIRST = _("a thematic relation relates a follow-up question to an earlier one: this is the first")


def thematic_proposal(intent: dict | None) -> list[str]:
    """The thematic relations an intent label's relations suggest (THEMATIC_OF_RELATION), in THEMATIC_RELATIONS'
    order: a proposal, never a label."""
    suggested = {THEMATIC_OF_RELATION.get(name) for name in (intent or {}).get("relations") or ()}
    return [name for name in THEMATIC_RELATIONS if name in suggested]


# The intent categories (annotation.labels.relations.CATEGORIES) as the CHASE release writes them in its `intent` field;
# its fifth label, 其他 ("other"), is the combination category.
CHASE_INTENT_LABELS: dict[str, str] = {
    "same_instances": "相同实体实例的属性",
    "different_instances": "相同实体类型的不同实例的属性",
    "different_entity": "不同实体类型的实例",
    "display": "修改对结果的展示形式",
    "combination": "其他",
}
INTENT_CATEGORY_OF_CHASE_LABEL = {label: category for category, label in CHASE_INTENT_LABELS.items()}

# Intent categories in plain words, for the expert's screen and the statistics.
INTENT_CATEGORY_NAMES: dict[str, str] = {
    "same_instances": "Same instances",
    "different_instances": "Different instances of the same entity",
    "different_entity": "Different entity",
    "display": "Display",
    "combination": "Combination",
}

SCHEMA_LINK_TYPES = ("table", "column", "value")


def check_phenomena(values) -> list[str]:
    """Validate contextual phenomena: a list (possibly empty) of names from CONTEXTUAL_PHENOMENA, deduplicated in
    order. "Context Independent" excludes the others: a question cannot both stand alone and lean on earlier turns."""
    if not isinstance(values, list) or not all(isinstance(value, str) for value in values):
        raise LabelError(gettext("contextual phenomena must be a list of names"))
    normalised = list(dict.fromkeys(value.strip() for value in values))
    unknown = [value for value in normalised if value not in CONTEXTUAL_PHENOMENA]
    if unknown:
        raise LabelError(
            gettext("not contextual phenomena: %(labels)s (allowed: %(allowed)s)")
            % {"labels": ", ".join(unknown), "allowed": ", ".join(CONTEXTUAL_PHENOMENA)}
        )
    if "Context Independent" in normalised and len(normalised) > 1:
        raise LabelError(gettext("'Context Independent' cannot be combined with another phenomenon"))
    return normalised


def check_intent(value) -> dict:
    """Validate an intent label: {"category": one of the five, "relations": ["R1", ...]} whose relations belong to
    the category (for a combination: to two or more categories, never Different Entity). Returns it normalised."""
    # Here, not at the top: relations loads sqlglot (about 0.1 s), and this module is the plain vocabulary every
    # layer imports.
    from annotation.labels.relations import CATEGORIES, CATEGORY_OF, RELATION_NAMES

    if not isinstance(value, dict) or value.get("category") not in CATEGORIES:
        raise LabelError(
            gettext("an intent needs a 'category' (one of: %(allowed)s)") % {"allowed": ", ".join(CATEGORIES)}
        )
    category, relations = value["category"], value.get("relations", [])
    if not isinstance(relations, list) or not all(isinstance(name, str) for name in relations):
        raise LabelError(gettext("an intent's 'relations' must be a list of relation names such as 'R1'"))
    relations = sorted(dict.fromkeys(name.strip().upper() for name in relations), key=lambda name: int(name[1:] or 0))
    unknown = [name for name in relations if name not in RELATION_NAMES]
    if unknown:
        raise LabelError(gettext("not relations: %(labels)s (allowed: R1 to R16)") % {"labels": ", ".join(unknown)})
    categories = {CATEGORY_OF[name] for name in relations}
    if category == "combination":
        if "different_entity" in categories:
            raise LabelError(gettext("a combination never includes Different Entity (R13)"))
    elif categories - {category}:
        raise LabelError(
            gettext("relations %(labels)s do not all belong to %(category)s")
            % {"labels": ", ".join(relations), "category": category}
        )
    return {"category": category, "relations": relations}


def check_schema_linking(spans, *, tokens: list[str], schema: dict) -> list[dict]:
    """Validate schema-linking spans in CHASE's form over `tokens` (the utterance's tokens): each
    {"beg", "end" (token indexes, both included), "type": table|column|value, "entity": {"tableId" | "columnId",
    "value", and for a value its "column"}}, ids within the schema. Returns them sorted by position."""
    if not isinstance(spans, list):
        raise LabelError(gettext("schema linking must be a list of spans"))
    tables = len(schema.get("table_names_original", []))
    columns = schema.get("column_names_original", [])
    checked = []
    for number, span in enumerate(spans, 1):
        where = {"span": number}
        if not isinstance(span, dict) or not isinstance(span.get("entity"), dict):
            raise LabelError(gettext("span %(span)s: needs 'beg', 'end', 'type' and an 'entity'") % where)
        beg, end, kind, entity = span.get("beg"), span.get("end"), span.get("type"), span["entity"]
        if not (isinstance(beg, int) and isinstance(end, int) and 0 <= beg <= end < len(tokens)):
            raise LabelError(
                gettext("span %(span)s: 'beg' and 'end' must be token indexes (0 to %(last)s), beg <= end")
                % {**where, "last": len(tokens) - 1}
            )
        if kind not in SCHEMA_LINK_TYPES:
            raise LabelError(
                gettext("span %(span)s: 'type' must be one of %(allowed)s")
                % {**where, "allowed": ", ".join(SCHEMA_LINK_TYPES)}
            )
        value = entity.get("value")
        if not isinstance(value, str) or "\x00" in value or len(value) > 500:
            raise LabelError(gettext("span %(span)s: the entity needs a 'value' string") % where)
        if kind == "table":
            table_id = entity.get("tableId")
            if not (isinstance(table_id, int) and 0 <= table_id < tables):
                raise LabelError(
                    gettext("span %(span)s: 'tableId' must be a table of this database (0 to %(last)s)")
                    % {**where, "last": tables - 1}
                )
            clean = {"tableId": table_id, "value": value}
        else:
            column_id = entity.get("columnId")
            if not (isinstance(column_id, int) and 0 < column_id < len(columns)):
                raise LabelError(
                    gettext("span %(span)s: 'columnId' must be a column of this database (1 to %(last)s)")
                    % {**where, "last": len(columns) - 1}
                )
            clean = {"columnId": column_id, "value": value}
            if kind == "value":
                clean["column"] = columns[column_id][1]
        checked.append({"beg": beg, "end": end, "entity": clean, "type": kind})
    return sorted(checked, key=lambda span: (span["beg"], span["end"]))


# --- Ambiguity and unanswerability (PRACTIQ's types; MMSQL and BIRD-Interact record the same) ----------------------

# The sub-types of an AMBIGUOUS or CANNOT_ANSWER user turn, per act, with what each means for the expert: PRACTIQ's
# four ambiguous and four unanswerable types.
AMBIGUITY_TYPES: dict[str, dict[str, str]] = {
    "AMBIGUOUS": {
        "ambiguous_select_column": "Which column the answer should show is unclear (two columns fit).",
        "ambiguous_filter_column": "Which column a condition is on is unclear (two columns fit).",
        "ambiguous_value": "A value matches several values of a column.",
        "vague_condition": "A condition is vague ('recent', 'popular', 'large').",
    },
    "CANNOT_ANSWER": {
        "nonexistent_select_column": "The answer asks for a column the database does not have.",
        "nonexistent_filter_column": "A condition is on a column the database does not have.",
        "nonexistent_value": "A condition's value is not in the database.",
        "unsupported_join": "It needs a join the database cannot make.",
    },
}
AMBIGUITY_ACT_OF_TYPE = {name: act for act, types in AMBIGUITY_TYPES.items() for name in types}
# How many readings of an ambiguous question the expert may record.
AMBIGUITY_MAX_READINGS = 10


def check_ambiguity(value, *, acts: list[str], tokens: list[str], max_sql_length: int) -> dict:
    """Validate the ambiguity label of a user turn labelled `acts` (checked acts): {"type": a sub-type of one of the
    turn's acts (AMBIGUITY_TYPES), "span" (optional): {"beg", "end"} token indexes of `tokens`, both included, as in
    CHASE's schema links, "readings" (optional, an AMBIGUOUS type only): the SQL of each reading the expert
    considered}. Returns it normalised (absent optional fields left out)."""
    present = [act for act in AMBIGUITY_TYPES if act in acts]
    if not present:
        raise LabelError(gettext("an ambiguity label belongs to a turn labelled AMBIGUOUS or CANNOT_ANSWER"))
    if not isinstance(value, dict):
        raise LabelError(gettext("an ambiguity label must be an object with a 'type'"))
    unknown = set(value) - {"type", "span", "readings"}
    if unknown:
        raise LabelError(
            gettext("an ambiguity label has only 'type', 'span' and 'readings', not %(keys)s")
            % {"keys": ", ".join(sorted(unknown))}
        )
    kind = value.get("type")
    allowed = [name for act in present for name in AMBIGUITY_TYPES[act]]
    if kind not in allowed:
        raise LabelError(gettext("the ambiguity 'type' must be one of: %(allowed)s") % {"allowed": ", ".join(allowed)})
    checked: dict = {"type": kind}
    span = value.get("span")
    if span is not None:
        checked["span"] = _checked_span(span, tokens)
    readings = value.get("readings")
    if readings is not None and readings != []:
        checked["readings"] = _checked_readings(readings, kind, max_sql_length)
    return checked


def _checked_span(span, tokens: list[str]) -> dict:
    beg, end = (span.get("beg"), span.get("end")) if isinstance(span, dict) else (None, None)
    if not (type(beg) is int and type(end) is int and 0 <= beg <= end < len(tokens)):
        raise LabelError(
            gettext("the ambiguity 'span' needs 'beg' and 'end', token indexes (0 to %(last)s), beg <= end")
            % {"last": len(tokens) - 1}
        )
    return {"beg": beg, "end": end}


def _checked_readings(readings, kind: str, max_sql_length: int) -> list[str]:
    """The SQL of each reading of an ambiguous question (an AMBIGUOUS sub-type only), stripped."""
    if AMBIGUITY_ACT_OF_TYPE[kind] != "AMBIGUOUS":
        raise LabelError(gettext("readings belong to an ambiguous question; a question SQL cannot answer has none"))
    if not isinstance(readings, list) or not all(isinstance(sql, str) and sql.strip() for sql in readings):
        raise LabelError(gettext("the ambiguity 'readings' must be a list of SQL queries"))
    if len(readings) > AMBIGUITY_MAX_READINGS:
        raise LabelError(gettext("at most %(count)s readings") % {"count": AMBIGUITY_MAX_READINGS})
    for number, sql in enumerate(readings, 1):
        if "\x00" in sql or len(sql) > max_sql_length:
            raise LabelError(
                gettext("reading %(number)s: SQL is limited to %(count)s characters, without NUL")
                % {"number": number, "count": max_sql_length}
            )
    return [sql.strip() for sql in readings]
