"""The intent category of a follow-up question as CHASE's annotators give it, learned from CHASE's training split.

`relations.detect_relation` reads the relations R1-R16 off the two queries by the definitions of CHASE's Table 12.
CHASE's own labels follow those definitions loosely (docs/chase.md gives the figures), so for the label a collection
exports, `label_intent` asks a model learned from CHASE's training split instead: the category is the model's, the
relations are the definitions' (those of the model's category; `IntentLabel` says which). docs/chase.md has the
figures.

The model is two multinomial logistic regressions stored as JSON (`relation_model.json` beside this module, built by
`make relation-model` from `../shared/corpora`, committed, never fetched): one over the SQL features of
`relation_features.sql_features`, one over those, the questions' character n-grams (`question_features`) and how the
question names what its query changed (`question_sql_features`). The second is used when the current question is
given. Evaluating one is a sum of weights over the pair's features, in
plain Python: no scikit-learn at run time, nothing unpickled.

Without the model file (or with one this code cannot read) `label_intent` falls back to the rules' category and logs
a warning once.
"""

from __future__ import annotations

import json
import logging
import math
import threading
from dataclasses import dataclass
from pathlib import Path

from annotation.labels.relation_features import question_features, question_sql_features, sql_features
from annotation.labels.relations import CATEGORIES, CATEGORY_OF, COMBINATION, DIFFERENT_ENTITY, read_pair

__all__ = [
    "MODEL_FORMAT",
    "MODEL_PATH",
    "IntentLabel",
    "RelationModel",
    "forget_loaded_models",
    "label_intent",
    "loaded_model",
    "pair_features",
]

logger = logging.getLogger(__name__)

MODEL_PATH = Path(__file__).with_name("relation_model.json")
MODEL_FORMAT = "wozsql-relation-model/1"
SQL_ONLY = "sql"
WITH_WORDS = "sql+words"


@dataclass(frozen=True)
class IntentLabel:
    """A pair's category (the model's, or the rules' in `source` "rules"), the rules' relations that belong to it
    (`relations`: for a combination all but R13; empty when the model chose a category none of them has, so that the
    pair is a valid label, `annotation.labels.acts.check_intent`), all the relations the rules found
    (`rule_relations`), and
    `source`: "sql", "sql+words" (which model decided) or "rules" (no model could be read)."""

    category: str
    relations: tuple[str, ...]
    source: str
    rule_relations: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        return {"category": self.category, "relations": list(self.relations)}


class RelationModel:
    """A model file read into memory: for each variant, the weight of each feature per category and the intercepts."""

    def __init__(self, document: dict) -> None:
        if document.get("format") != MODEL_FORMAT:
            raise ValueError(  # i18n-exempt: a bad model file is logged
                f"not a {MODEL_FORMAT} file (format {document.get('format')!r})"
            )
        self.classes = tuple(document["classes"])
        if set(self.classes) != set(CATEGORIES):
            raise ValueError(  # i18n-exempt: a bad model file is logged
                f"the model's categories {self.classes} are not {CATEGORIES}"
            )
        self.variants: dict[str, tuple[list[float], dict[str, list[float]]]] = {}
        for name, variant in document["variants"].items():
            intercept = [float(value) for value in variant["intercept"]]
            weights = {feature: [float(value) for value in row] for feature, row in variant["weights"].items()}
            if len(intercept) != len(self.classes) or any(len(row) != len(self.classes) for row in weights.values()):
                raise ValueError(  # i18n-exempt: a bad model file is logged
                    f"variant {name!r}: one weight per category expected"
                )
            self.variants[name] = (intercept, weights)
        if SQL_ONLY not in self.variants:
            raise ValueError(f"the model has no {SQL_ONLY!r} variant")  # i18n-exempt: a bad model file is logged

    def scores(self, features: dict[str, float], variant: str) -> list[float]:
        intercept, weights = self.variants[variant]
        scores = list(intercept)
        for name, value in features.items():
            row = weights.get(name)
            if row is not None and value:
                for index, weight in enumerate(row):
                    scores[index] += weight * value
        return scores

    def probabilities(self, features: dict[str, float], variant: str) -> dict[str, float]:
        scores = self.scores(features, variant)
        top = max(scores)
        exps = [math.exp(score - top) for score in scores]
        total = sum(exps)
        return {category: value / total for category, value in zip(self.classes, exps, strict=True)}

    def predict(self, features: dict[str, float], variant: str) -> str:
        scores = self.scores(features, variant)
        return self.classes[scores.index(max(scores))]


_LOCK = threading.Lock()
_LOADED: dict[Path, RelationModel | None] = {}


def loaded_model(path: Path | None = None) -> RelationModel | None:
    """The model at `path` (default MODEL_PATH), read once per process; None, with a warning logged once, when it is
    missing or unreadable."""
    path = Path(path or MODEL_PATH)
    if path in _LOADED:
        return _LOADED[path]
    with _LOCK:
        if path not in _LOADED:
            try:
                with open(path, encoding="utf-8") as handle:
                    _LOADED[path] = RelationModel(json.load(handle))
            except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
                logger.warning(
                    "intent model %s cannot be read (%s): intent categories come from the rules alone", path, error
                )
                _LOADED[path] = None
    return _LOADED[path]


def forget_loaded_models() -> None:
    """Read model files again on next use (tests that swap the file use it)."""
    with _LOCK:
        _LOADED.clear()


def pair_features(reading, previous_question: str | None, current_question: str | None) -> tuple[dict, str]:
    """The features of a pair and the variant that reads them: with words only when the current question is given."""
    features = sql_features(reading)
    if current_question and current_question.strip():
        features.update(question_features(previous_question, current_question))
        features.update(question_sql_features(reading, previous_question, current_question))
        return features, WITH_WORDS
    return features, SQL_ONLY


def label_intent(
    previous_sql: str,
    current_sql: str,
    schema: dict | None = None,
    *,
    previous_question: str | None = None,
    current_question: str | None = None,
    model_path: Path | None = None,
) -> IntentLabel:
    """The intent category CHASE's annotators would give the follow-up `current_sql` after `previous_sql`, with the
    rules' relations. The questions are optional: given, their words count too. Raises RelationError as
    `detect_relation` does; never fails for want of a model (see the module docstring)."""
    reading = read_pair(previous_sql, current_sql, schema)
    model = loaded_model(model_path)
    found = reading.relation.relations
    if model is None:
        return IntentLabel(reading.relation.category, found, "rules", found)
    features, variant = pair_features(reading, previous_question, current_question)
    if variant not in model.variants:
        features, variant = pair_features(reading, None, None)
    category = model.predict(features, variant)
    if category == COMBINATION:
        kept = tuple(name for name in found if CATEGORY_OF[name] != DIFFERENT_ENTITY)
    else:
        kept = tuple(name for name in found if CATEGORY_OF[name] == category)
    return IntentLabel(category, kept, variant, found)
