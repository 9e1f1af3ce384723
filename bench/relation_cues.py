"""Cue words of a Chinese follow-up question, as features of the intent model: tried for issue 35 section 1, not
kept (docs/chase.md, "Cue words, tried and not kept"). `bench/relations_cv.py --cue-words` adds them to the question
features so that the measurement can be repeated; the platform's model does not read them.

`question_cues` names the kinds of words a follow-up uses to point back to the previous answer or to say what it
adds (general Chinese usage, read off no pair); `question_cue_features` turns them into "said:" features (scaled like
the SQL features by bench/relation_training.py): the current question's kinds, the previous question's, and each of the
current question's kinds crossed with what the SQL changed ("和" with a set operation added, "它" with a table joined)
and with the rules' category.
"""

from __future__ import annotations

import re

__all__ = ["QUESTION_CUES", "question_cue_features", "question_cues"]

QUESTION_CUES: dict[str, tuple[str, ...]] = {
    "them": ("他们", "它们", "她们", "这些", "那些", "这几", "那几"),  # the previous rows, plural
    "it": ("它", "他", "她", "该", "这个", "那个", "这家", "这所", "这位", "这款", "这部", "这种", "此"),
    "among": ("其中", "里面", "当中", "之中"),  # a part of the previous rows
    "each": ("分别", "各自", "各", "每"),
    "also": ("还有", "另外", "也", "又", "再", "还"),
    "other": ("其他", "其它", "其余", "别的", "以外", "除了", "剩下"),  # the rest: other instances
    "and_or": ("和", "以及", "与", "或", "及", "并且", "同时", "跟"),  # two things at once
    "comparative": ("比", "更", "超过", "高于", "低于", "多于", "少于", "以上", "以下", "大于", "小于", "不到"),
    "most": ("最",),
    "order": ("排序", "排列", "顺序", "升序", "降序", "从高到低", "从低到高", "从大到小", "从小到大"),
    "count": ("多少", "几", "数量", "总共", "一共"),
    "negation": ("不", "没", "非"),
    "all": ("所有", "全部", "都"),
}
# A question this short (characters, without punctuation) leans on the previous one for everything it leaves out.
SHORT_QUESTION = 8
# What the SQL changed, as relation_features.sql_features names it, that a cue is crossed with.
CROSSED_CHANGES = (
    "changed:select",
    "changed:from",
    "changed:filters",
    "changed:group",
    "changed:order",
    "changed:limit",
    "changed:distinct",
    "set_operation:added",
    "set_operation:removed",
    "tables:only_added",
    "tables:swapped",
    "entity_changed",
    "previous_inside_current",
    "values:all_kept",
    "superlative:added",
)
_SEPARATORS = re.compile(r"[\W_]+")


def question_cues(question: str | None) -> set[str]:
    """The kinds of `QUESTION_CUES` in a question, with "what_about" for one ending in 呢 ("and X?") and "short"."""
    text = _SEPARATORS.sub("", question.lower()) if question else ""
    if not text:
        return set()
    cues = {kind for kind, words in QUESTION_CUES.items() if any(word in text for word in words)}
    if question.rstrip("？?。.!！ ").endswith("呢"):
        cues.add("what_about")
    if len(text) <= SHORT_QUESTION:
        cues.add("short")
    return cues


def question_cue_features(
    sql: dict[str, float], previous_question: str | None, current_question: str | None
) -> dict[str, float]:
    """ "said:cue:" + kind for the current question, "said:previous_cue:" + kind for the previous one, and
    "said:cue:" + kind + "|" + change for every change of `CROSSED_CHANGES` and the rules' category ("rules:*") present
    in `sql` (the pair's sql_features). Empty when the current question is not given."""
    cues = question_cues(current_question)
    if not cues:
        return {}
    features = {f"said:cue:{kind}": 1.0 for kind in cues}
    features.update({f"said:previous_cue:{kind}": 1.0 for kind in question_cues(previous_question)})
    changes = [name for name in CROSSED_CHANGES if sql.get(name)]
    changes += [name for name in sql if name.startswith("rules:")]
    for kind in cues:
        features.update({f"said:cue:{kind}|{change}": 1.0 for change in changes})
    return features
