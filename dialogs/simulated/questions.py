"""What the simulated worker asks (docs/simulated_worker.md): the leak guard, the scripted questions read from a
goal's SQL, and the model's prompt.

Pure: no database, no socket, no model call. A schema is a tables.json entry (`Database.schema`: the readable names
applied), the goal is its question and SQL.

**The leak guard** (`leak_reasons`): a person playing the worker knows the goal question and nothing else, so a
question the simulated worker sends may use the goal question's words and no more. It must not hold the goal's SQL,
nor text that reads as SQL (clauses, `table.column`, identifiers with underscores), nor the name of a table or column
(its identifier or its readable name) that neither the goal question nor a suggestion the platform showed the worker
uses: a person reads the suggestions, and may follow one in its own words. Names are compared word by word, each word
in the singular, so "dorms" uses the table `dorm` and "dorm names" the column `dorm_name`.

**The scripted questions** (`scripted_questions`): the goal's SQL read as steps, each a question that narrows the
last one, in CoSQL's manner of a user who starts broad and follows up: the rows of the table the question is about,
then each of the goal's simple filters, then the count, grouping or order, and last the goal question itself. Each
step has several wordings, from the most to the least specific; the first the guard lets through is asked, so a
column the goal question does not name is never named (the step then speaks of the value alone: "Only the ones with
Chicago?"), and a filter whose value the goal question does not say is not asked about at all. When that gives
fewer than the minimum, general follow-ups on the same rows fill in before the goal question. Each step carries the
SQL of its intermediate result, for the scripted expert: never sent to the worker's side of anything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlglot import expressions as exp

from annotation.goals.tree_plan import condition_phrase, schema_names
from annotation.sql.spider import SpiderEncodingError, parse_sql
from annotation.wording.english import singular_word, words_of

__all__ = [
    "MODEL_PROMPT_VERSION",
    "Question",
    "leak_reasons",
    "model_messages",
    "model_question_text",
    "schema_names_used",
    "scripted_questions",
    "suggestion_question",
]

# Bumped whenever the model's prompt changes: every model question records the version it was asked with.
MODEL_PROMPT_VERSION = "simworker-1"
# A question longer than this from the model is no question a person types in a chat (the room allows 2,000).
MODEL_QUESTION_MAX_CHARS = 300

# Text that reads as SQL. Each is checked only when the goal question itself does not match it (a goal question
# may say "order by" in English; then so may the worker).
_SQL_PATTERNS = {
    "sql_select": re.compile(r"\bselect\b[^?]*\bfrom\b", re.IGNORECASE),
    "sql_where": re.compile(r"\bwhere\s+[\w.]+\s*(=|!=|<>|<=|>=|<|>|\blike\b|\bin\s*\()", re.IGNORECASE),
    "sql_clause": re.compile(r"\b(group|order)\s+by\b|\bhaving\s+count\b|\bjoin\s+\w+\s+(as|on)\b", re.IGNORECASE),
    "sql_function": re.compile(r"\b(count|avg|sum|min|max)\s*\(", re.IGNORECASE),
    "dotted_name": re.compile(r"\b[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*\b", re.IGNORECASE),
    "underscore_identifier": re.compile(r"\b[a-z0-9]+_[a-z0-9_]*\b", re.IGNORECASE),
}


@dataclass(frozen=True)
class Question:
    step: str  # "broad", "filter-1", "group", "count", "order", "more-1", "goal"
    text: str
    sql: str  # the SQL of the step's result (the goal's for "goal"): for the scripted expert only


def _words(text: str) -> list[str]:
    return [singular_word(word) for word in re.findall(r"[a-z0-9]+", text.lower())]


def _contains(words: list[str], name: list[str]) -> bool:
    size = len(name)
    return size > 0 and any(words[i : i + size] == name for i in range(len(words) - size + 1))


def _schema_name_words(schema: dict | None) -> dict[str, list[str]]:
    """Every table and column name of the schema, identifier and readable, as singular words: name → words."""
    schema = schema or {}
    names: dict[str, list[str]] = {}
    originals = schema.get("table_names_original") or []
    readable = schema.get("table_names") or []
    column_originals = schema.get("column_names_original") or []
    column_readable = schema.get("column_names") or []
    for name in [*originals, *readable]:
        names[str(name)] = _words(words_of(str(name)))
    for index, (table, name) in enumerate(column_originals):
        if table < 0:
            continue  # the "*" column
        names[str(name)] = _words(words_of(str(name)))
        if index < len(column_readable):
            names[str(column_readable[index][1])] = _words(words_of(str(column_readable[index][1])))
    return {name: words for name, words in names.items() if words}


def schema_names_used(goal_question: str, schema: dict | None) -> list[str]:
    """The schema's names (identifiers and readable names) that the goal question uses: what the worker may say."""
    words = _words(goal_question)
    return sorted(name for name, name_words in _schema_name_words(schema).items() if _contains(words, name_words))


def _normalised_sql(sql: str) -> str:
    return " ".join(sql.lower().split())


def leak_reasons(
    text: str, *, goal_question: str, goal_sql: str, schema: dict | None, shown: tuple[str, ...] | list[str] = ()
) -> list[str]:
    """Why `text` may not be sent as the simulated worker's question; empty when it may.

    Reasons: `goal_sql`, one of the SQL-looking patterns (`sql_select`, `sql_where`, `sql_clause`, `sql_function`,
    `dotted_name`, `underscore_identifier`), and `schema_name:<name>` for each schema name the text uses that neither
    the goal question nor a text in `shown` (the platform's suggestions the worker was shown) uses. What a suggestion
    showed the worker is theirs to say; SQL is never, whatever was shown.
    """
    reasons = []
    if goal_sql.strip() and _normalised_sql(goal_sql) in _normalised_sql(text):
        reasons.append("goal_sql")
    for reason, pattern in _SQL_PATTERNS.items():
        if pattern.search(text) and not pattern.search(goal_question):
            reasons.append(reason)
    words = _words(text)
    known = [_words(goal_question), *(_words(seen) for seen in shown)]
    for name, name_words in sorted(_schema_name_words(schema).items()):
        if _contains(words, name_words) and not any(_contains(read, name_words) for read in known):
            reasons.append(f"schema_name:{name}")
    return reasons


# --- The scripted questions ------------------------------------------------------------------------------------------


_OPS = {exp.EQ: "=", exp.NEQ: "!=", exp.GT: ">", exp.LT: "<", exp.GTE: ">=", exp.LTE: "<="}
_VALUE_ONLY = {
    "=": "Only the ones with {}, please.",
    "!=": "Leave out the ones with {}.",
    ">": "Only those above {}?",
    "<": "Only those below {}?",
    ">=": "Only those with at least {}?",
    "<=": "Only those with at most {}?",
}
# Follow-ups on the rows asked about so far, when the goal's steps are too few for the minimum.
_MORE = (
    "How many of them are there?",
    "Could you show me the first few of them again?",
    "And how many is that altogether?",
)


def _first_select(tree: exp.Expr) -> exp.Select | None:
    while isinstance(tree, exp.SetOperation):
        tree = tree.this
    while isinstance(tree, exp.Subquery | exp.Paren):
        tree = tree.this
    return tree if isinstance(tree, exp.Select) else None


def _tables(select: exp.Select) -> dict[str, str]:
    """Alias (or name) → table name, lower case, of the SELECT's own FROM and JOINs."""
    found = {}
    sources = [select.args.get("from_") or select.args.get("from")]
    sources += list(select.args.get("joins") or [])
    for source in sources:
        table = source.this if source is not None else None
        if isinstance(table, exp.Table):
            found[(table.alias or table.name).lower()] = table.name.lower()
    return found


def _conjuncts(node: exp.Expr | None) -> list[exp.Expr]:
    if node is None:
        return []
    if isinstance(node, exp.Where | exp.Paren):
        return _conjuncts(node.this)
    if isinstance(node, exp.And):
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


def _simple_filter(node: exp.Expr, tables: dict[str, str]) -> dict | None:
    """A `column op literal` filter as {"column": "table.column", "op", "value"}, or None for anything else."""
    if isinstance(node, exp.Like) and isinstance(node.this, exp.Column) and isinstance(node.expression, exp.Literal):
        column, op, literal = node.this, "like", node.expression
    elif type(node) in _OPS and isinstance(node.this, exp.Column) and isinstance(node.expression, exp.Literal):
        column, op, literal = node.this, _OPS[type(node)], node.expression
    else:
        return None
    table = tables.get(column.table.lower()) if column.table else (next(iter(tables.values()), None))
    if table is None:
        return None
    value = literal.this if literal.is_string else (float(literal.this) if "." in literal.this else int(literal.this))
    return {"column": f"{table}.{column.name.lower()}", "op": op, "value": value}


def _main_table(select: exp.Select, tables: dict[str, str], goal_question: str, schema: dict | None) -> str | None:
    """The table the goal question is about: the first of the query's tables whose name the question uses."""
    names = schema_names(schema)
    words = _words(goal_question)
    for table in tables.values():
        if _contains(words, _words(names.table(table))) or _contains(words, _words(words_of(table))):
            return table
    return None


def _sql(node: exp.Expr) -> str:
    return node.sql(dialect="sqlite")


def scripted_questions(*, goal_question: str, goal_sql: str, schema: dict | None, min_questions: int) -> list[Question]:
    """The questions toward the goal, broad first and the goal question last, at least `min_questions` of them when
    the goal question itself passes the guard; every one passes the guard (see the module's docstring)."""

    def passing(*texts: str) -> str | None:
        for text in texts:
            if not leak_reasons(text, goal_question=goal_question, goal_sql=goal_sql, schema=schema):
                return text
        return None

    try:
        select = _first_select(parse_sql(goal_sql))
    except SpiderEncodingError:
        select = None
    steps: list[Question] = []
    if select is not None:
        steps = _steps_toward(select, goal_question=goal_question, schema=schema, passing=passing)
    broad_sql = steps[0].sql if steps else goal_sql
    more = iter(_MORE)
    while len(steps) < max(min_questions - 1, 0):
        text = passing(next(more, ""))
        if not text:
            break
        steps.append(Question(f"more-{len(steps) + 1}", text, broad_sql))
    if passing(goal_question):
        steps.append(Question("goal", goal_question, goal_sql))
    return steps


def _steps_toward(select: exp.Select, *, goal_question: str, schema: dict | None, passing) -> list[Question]:
    """The steps a goal query's own clauses give: the whole main table, each simple filter the goal question names a
    value of, then its grouping, count or top row."""
    tables = _tables(select)
    main = _main_table(select, tables, goal_question, schema)
    base = select.copy()
    for part in ("group", "having", "order", "limit", "where", "distinct"):
        base.set(part, None)
    base.set("expressions", [exp.Star()])
    steps: list[Question] = []
    if main is not None:
        many = schema_names(schema).table(main)
        text = passing(f"Can you show me all the {many}?", f"What {many} are there?")
        if text:
            steps.append(Question("broad", text, _sql(exp.select("*").from_(exp.to_table(main)))))
    anchor = main or next(iter(tables.values()), "")
    steps += _filter_steps(select, base, tables, anchor, goal_question=goal_question, schema=schema, passing=passing)
    steps += _shape_steps(select, base, passing=passing)
    return steps


def _filter_steps(select, base, tables, anchor, *, goal_question: str, schema: dict | None, passing) -> list[Question]:
    filters = [
        (node, item)
        for node in _conjuncts(select.args.get("where"))
        if (item := _simple_filter(node, tables)) is not None
    ]
    steps: list[Question] = []
    kept: list[exp.Expr] = []
    for position, (node, item) in enumerate(filters):
        kept.append(node)
        value = str(item["value"]).strip("%")
        if not _contains(_words(goal_question), _words(value)):
            continue  # a value the goal question does not say is one a person would not know to ask for
        phrase = condition_phrase(schema, item, anchor)
        value_only = _VALUE_ONLY.get(item["op"], "Only the ones with {}, please.").format(value)
        text = passing(f"Only those whose {phrase}?", value_only)
        if text:
            narrowed = base.copy()
            narrowed.set("where", exp.Where(this=exp.and_(*[k.copy() for k in kept])))
            steps.append(Question(f"filter-{position + 1}", text, _sql(narrowed)))
    return steps


def _shape_steps(select, base, *, passing) -> list[Question]:
    steps: list[Question] = []
    if select.args.get("group") is not None:
        text = passing("Can you break that down for each of them?", "How many are there for each one?")
        if text:
            grouped = select.copy()
            grouped.set("order", None)
            grouped.set("limit", None)
            steps.append(Question("group", text, _sql(grouped)))
    elif any(isinstance(e, exp.Count) for e in select.find_all(exp.Count)):
        text = passing("How many are there?")
        if text:
            steps.append(Question("count", text, _sql(base.copy().set("expressions", [exp.Count(this=exp.Star())]))))
    if select.args.get("order") is not None and select.args.get("limit") is not None:
        text = passing("Which one comes out on top?", "Which is first if you sort them?")
        if text:
            steps.append(Question("order", text, _sql(select)))
    return steps


# --- The model's question ------------------------------------------------------------------------------------------


def model_messages(*, goal_question: str, names_used: list[str], history: list[tuple[str, str]]) -> list[dict]:
    """The chat messages that ask a model for the worker's next question (prompt MODEL_PROMPT_VERSION).

    `history` is the dialogue so far as (question, the expert's answer) pairs, words only: the model never sees SQL,
    and of the schema only the names the goal question already uses."""
    system = (
        "You play a person who uses a database through a chat with an expert, who answers each question with a "
        "table and a sentence. You want to find out the answer to a goal question, but you ask your way there in "
        "small steps: start broad, then narrow down with follow-up questions that build on the previous answers, "
        "and ask the goal question itself when you are close. Write one short question in plain English, nothing "
        "else. Never write SQL or database identifiers, and do not name things the goal question does not name."
    )
    lines = [f"Goal question: {goal_question}"]
    if names_used:
        lines.append("Words you may use for the data: " + ", ".join(names_used))
    if history:
        lines.append("The chat so far:")
        for question, answer in history:
            lines.append(f"You: {question}")
            lines.append(f"Expert: {answer}")
    else:
        lines.append("The chat has not started yet.")
    lines.append("Your next question:")
    return [{"role": "system", "content": system}, {"role": "user", "content": "\n".join(lines)}]


def model_question_text(reply: str) -> str:
    """A model's reply as the question to send: all of it on one line, without a "You:" prefix or quotes around it
    (so the guard reads everything the model wrote, not its first line alone); empty when nothing is left or it is
    longer than a chat question."""
    text = " ".join(reply.split())
    text = re.sub(r"^(you|question|user)\s*:\s*", "", text, flags=re.IGNORECASE)
    text = text.strip().strip('"“”').strip()
    return text if len(text) <= MODEL_QUESTION_MAX_CHARS else ""


def suggestion_question(text: str) -> str:
    """A platform suggestion (written to the worker: "Ask how many dorms there are", "Narrow it down, e.g. only those
    whose city is Paris", "Ask to sort them by age") as the question the worker types after reading it: "Can you tell
    me how many dorms there are?", "Only those whose city is Paris?", "Can you sort them by age?"."""
    text = " ".join(text.split()).rstrip(".?! ")
    _, example, rest = text.partition("e.g. ")
    if example:
        return _sentence(rest) + "?" if rest else ""
    to = re.sub(r"^(also\s+)?ask\s+to\s+", "", text, flags=re.IGNORECASE)
    if to != text:
        return f"Can you {to}?"  # "Ask to list them" -> "Can you list them?"
    about = re.sub(r"^(also\s+)?ask\s+(only\s+)?about\s+", "", text, flags=re.IGNORECASE)
    if about != text:
        only = "only " if re.match(r"^(also\s+)?ask\s+only\s+", text, flags=re.IGNORECASE) else ""
        return f"What about {only}{about}?"
    asked = re.sub(r"^(also\s+)?ask\s+(for\s+)?", "", text, flags=re.IGNORECASE)
    if asked != text:
        return f"Can you tell me {asked}?"
    # Any other imperative ("Widen it: also include those ...", "Break it down per year") is asked for politely.
    _, colon, after = text.partition(": ")
    return f"Can you {_lower_first(after if colon else text)}?" if text else ""


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]
