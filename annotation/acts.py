"""The labelling vocabulary: dialogue acts (CoSQL appendix A.1) and the follow-up question kinds shown to workers.

Labels are validated against these sets everywhere (websocket messages, review corrections, imports), so a label that
is not listed here never reaches the database.
"""

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
FOLLOW_UP_KINDS: list[dict[str, str]] = [
    {
        "name": "Refer back (coreference)",
        "explain": "Use 'it', 'they', 'those' for something from your previous question.",
        "example": "Which dorms have a TV lounge? → How many students live in them?",
    },
    {
        "name": "Change a constraint",
        "explain": "Keep the question, change a condition.",
        "example": "Students older than 20? → What about older than 22?",
    },
    {
        "name": "Another attribute, same topic",
        "explain": "Ask for a different detail about the same things.",
        "example": "Names of the students in Smith Hall? → And their majors?",
    },
    {
        "name": "Same attribute, another topic",
        "explain": "Ask the same thing about something else.",
        "example": "How many students live in Smith Hall? → And in Fawlty Towers?",
    },
    {
        "name": "Ask about the answer",
        "explain": "Ask something about the result you were just shown.",
        "example": "Which is the largest dorm? → Which amenities does it have?",
    },
]


class LabelError(ValueError):
    """A label outside the allowed set."""


def check_acts(acts, *, side: str) -> list[str]:
    """Validate a list of act labels for `side` ('user' or 'system'); returns them upper-cased, deduplicated, in order.

    Raises LabelError naming the labels that are not in the set (or when the list is empty or not a list of strings).
    """
    allowed = USER_ACTS if side == "user" else SYSTEM_ACTS
    if not isinstance(acts, list) or not acts or not all(isinstance(act, str) for act in acts):
        raise LabelError(f"{side} acts must be a non-empty list of labels")
    normalised = list(dict.fromkeys(act.strip().upper() for act in acts))
    unknown = [act for act in normalised if act not in allowed]
    if unknown:
        raise LabelError(f"not {side} acts: {', '.join(unknown)} (allowed: {', '.join(allowed)})")
    return normalised
