"""SQL drafts a model proposes to the expert for a turn (docs/model_assistance.md): the prompt, the SQL read from the
answer, and the draft as the log records it, run in the sandbox and checked against Spider's format.

The room records the expert's request and hands the draft to the caller to work out later (`dialogs.room`, message
`model_sql`); everything here may wait on the model for up to MODEL_TIMEOUT_SECONDS, so it runs on threads of its own.
A draft is a proposal only: it reaches nobody but the expert, and the worker sees SQL only when the expert sends a
result themselves.
"""

import re
from collections.abc import Callable

from django.conf import settings

from annotation.model_client import ModelError, model_chat
from dialogs import log
from dialogs.log import TurnState
from dialogs.models import Dialogue, EventKind

# Changed whenever the prompt's words or layout change: every draft in the log names the version it was asked with,
# so drafts asked with different prompts can be told apart in the statistics.
PROMPT_VERSION = "sql-draft-1"

_SYSTEM = (
    "You are an expert in SQL helping to answer questions about a SQLite database. "
    "Write one SQLite query that answers the user's last question, using only the tables and columns listed. "
    "Earlier questions of the conversation are given with the SQL that answered them: the last question may build "
    "on them. Answer with the query alone, in a ```sql code block."
)


def schema_described(schema: dict) -> str:
    """The tables and columns of a Spider tables.json entry as the prompt gives them: each table's and column's name in
    the database with its readable name beside it when that says more, the column types, the keys. The entry is the
    curated one (Database.schema): hidden tables and columns are already left out."""
    tables = schema.get("table_names_original") or []
    readable_tables = schema.get("table_names") or tables
    columns = schema.get("column_names_original") or []
    readable_columns = schema.get("column_names") or columns
    types = schema.get("column_types") or []
    primary = set(schema.get("primary_keys") or [])
    lines = []
    for index, table in enumerate(tables):
        described = []
        for number, (owner, name) in enumerate(columns):
            if owner != index:
                continue
            words = readable_columns[number][1] if number < len(readable_columns) else name
            text = f"{name} {types[number] if number < len(types) else ''}".rstrip()
            if words and words.lower() != name.lower().replace("_", " "):
                text += f" ({words})"
            if number in primary:
                text += " primary key"
            described.append(text)
        words = readable_tables[index] if index < len(readable_tables) else table
        title = f"{table} ({words})" if words and words.lower() != table.lower().replace("_", " ") else table
        lines.append(f"Table {title}: {', '.join(described)}")
    for child, parent in schema.get("foreign_keys") or []:
        (child_table, child_name), (parent_table, parent_name) = columns[child], columns[parent]
        lines.append(f"{tables[child_table]}.{child_name} refers to {tables[parent_table]}.{parent_name}")
    return "\n".join(lines)


def prompt_messages(*, schema: dict, earlier: list[tuple[str, str | None]], question: str) -> list[dict]:
    """The chat messages asking for the SQL of `question`: the instructions and schema, then the dialogue so far as
    turns of a conversation (each earlier question, and the SQL the expert sent for it when there was one), then the
    question."""
    messages = [{"role": "system", "content": f"{_SYSTEM}\n\nThe database:\n{schema_described(schema)}"}]
    for asked, sql in earlier:
        messages.append({"role": "user", "content": asked})
        messages.append(
            {
                "role": "assistant",
                "content": f"```sql\n{sql}\n```" if sql else "(no SQL: not a question about the data)",
            }
        )
    messages.append({"role": "user", "content": question})
    return messages


_FENCED = re.compile(r"```[ \t]*(?:sql|sqlite)?[ \t]*\n(.*?)```", re.IGNORECASE | re.DOTALL)
_BARE = re.compile(r"\b(SELECT|WITH)\b.*", re.IGNORECASE | re.DOTALL)


def sql_from_answer(text: str) -> str | None:
    """The SQL in a model's answer: the first fenced code block, else the text from its first SELECT or WITH on; a
    trailing semicolon and spacing dropped. None when the answer holds no query."""
    fenced = _FENCED.search(text)
    if fenced:
        candidate = fenced.group(1)
    else:
        bare = _BARE.search(text)
        if bare is None:
            return None
        candidate = bare.group(0)
    candidate = candidate.strip().rstrip(";").strip()
    return candidate or None


def _dialogue_so_far(dialogue: Dialogue, turn: int) -> tuple[str, list[tuple[str, str | None]]]:
    """The question of `turn`, and every question before it that was not dropped, with the SQL sent for it."""
    turns: dict[int, TurnState] = log.dialogue_turns(dialogue)
    earlier = [t for t in turns.values() if t.seq < turn and not t.dropped]
    run_seqs = [t.run_seq for t in earlier if t.run_seq]
    sql_of = dict(dialogue.events.filter(kind=EventKind.SQL_RUN, seq__in=run_seqs).values_list("seq", "payload__sql"))
    return turns[turn].text, [(t.text, sql_of.get(t.run_seq)) for t in earlier]


def sql_draft_payload(*, dialogue: Dialogue, turn: int, request: int, run: Callable[[Dialogue, str], dict]) -> dict:
    """Ask the model for the SQL of `turn`, run what it proposes in the sandbox on the dialogue's file and check that
    Spider's format can encode it: the payload of the model_sql event that answers request `request`, a proposal or
    a failure with its code (a ModelError's, or `no_sql` when the answer holds no query). Waits on the model and the
    sandbox; the rate was counted when the request was recorded. `run` is how the room runs SQL on a dialogue's
    file (dialogs.room.sql_run_result), so that a draft's result is stored exactly as an expert's run is."""
    question, earlier = _dialogue_so_far(dialogue, turn)
    messages = prompt_messages(schema=dialogue.database.schema, earlier=earlier, question=question)
    failed = {"turn": turn, "request": request, "model": settings.MODEL_NAME, "prompt_version": PROMPT_VERSION}
    try:
        reply = model_chat(messages, prompt_version=PROMPT_VERSION)
    except ModelError as exc:
        return log.model_sql_failed_payload(**failed, code=exc.code, message=exc.message)
    failed["model"] = reply.model
    sql = sql_from_answer(reply.text)
    if sql is None:
        return log.model_sql_failed_payload(**failed, code="no_sql", message="The model answered without any SQL.")
    if len(sql) > settings.SANDBOX_MAX_SQL_LENGTH:
        message = f"The model's SQL is longer than the {settings.SANDBOX_MAX_SQL_LENGTH} characters a run may have."
        return log.model_sql_failed_payload(**failed, code="bad_answer", message=message)
    result = run(dialogue, sql)
    if not result["ok"]:
        encode_error = "It did not run."
    else:
        encode_error = result.get("spider_error")
    return log.model_sql_proposed_payload(
        turn=turn,
        request=request,
        sql=sql,
        result=result,
        encode_error=encode_error,
        model=reply.model,
        prompt_version=PROMPT_VERSION,
        seconds=reply.seconds,
    )
