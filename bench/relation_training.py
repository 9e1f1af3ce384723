"""Fitting the intent model of `annotation.labels.relation_model` (scikit-learn, at build time only).

Each variant is a multinomial logistic regression (L2, lbfgs). SQL features are scaled by their largest absolute
value on the training pairs (so a count and a flag weigh alike); the questions' n-grams are kept when at least
`MIN_NGRAM_PAIRS` training pairs have them and are scaled by `WORD_SCALE`, which with `C` sets how much the words may
move a decision. The scaling is folded into the stored weights, so the JSON model reads raw feature values.
The settings were chosen on the 5 database folds of bench/relations_cv.py among four candidates each (docs/chase.md).
"""

from __future__ import annotations

from collections import Counter

from annotation.labels.relation_features import question_features, sql_features
from annotation.labels.relation_model import MODEL_FORMAT, SQL_ONLY, WITH_WORDS
from annotation.labels.relations import CATEGORIES, read_pair

SETTINGS = {
    SQL_ONLY: {"C": 0.3, "word_scale": 0.0},
    WITH_WORDS: {"C": 1.0, "word_scale": 0.2},
}
MIN_NGRAM_PAIRS = 3
# Weights are stored with this many decimals, and a feature whose weights all round to 0 is left out.
DECIMALS = 4


def features_of(pair) -> tuple[dict, dict]:
    """(SQL features, question features) of a bench.chase_corpus.CorpusPair."""
    reading = read_pair(pair.previous_sql, pair.current_sql, pair.schema)
    return sql_features(reading), question_features(pair.previous_question, pair.current_question)


def fit_variant(sql_rows: list[dict], word_rows: list[dict] | None, labels: list[str], variant: str) -> dict:
    """One variant's JSON: {"intercept": [...], "weights": {feature: [...]}} in CATEGORIES order."""
    from sklearn.linear_model import LogisticRegression

    settings = SETTINGS[variant]
    scale: dict[str, float] = {}
    for row in sql_rows:
        for name, value in row.items():
            scale[name] = max(scale.get(name, 0.0), abs(value))
    rows = [{name: value / scale[name] for name, value in row.items() if scale[name]} for row in sql_rows]
    word_scale = settings["word_scale"]
    if word_rows is not None and word_scale:
        counts = Counter(name for row in word_rows for name in row)
        for row, words in zip(rows, word_rows, strict=True):
            row.update({name: value * word_scale for name, value in words.items() if counts[name] >= MIN_NGRAM_PAIRS})
            for name in words:
                if counts[name] >= MIN_NGRAM_PAIRS:
                    scale.setdefault(name, 1.0 / word_scale)
    names = sorted({name for row in rows for name in row})
    index = {name: position for position, name in enumerate(names)}
    matrix = _sparse(rows, index)
    model = LogisticRegression(C=settings["C"], max_iter=5000)
    model.fit(matrix, labels)
    coef, bias = model.coef_, model.intercept_
    if len(model.classes_) == 2:  # one row for the second class; as two softmax rows, each gets half, opposed
        coef, bias = [-coef[0] / 2, coef[0] / 2], [-bias[0] / 2, bias[0] / 2]
    known = list(model.classes_)
    # A category no training pair had can never win: weights 0, an intercept far below the others.
    order = [known.index(category) if category in known else None for category in CATEGORIES]
    weights = {}
    for name, position in index.items():
        row = [
            round(float(coef[klass][position]) / scale[name], DECIMALS) if klass is not None else 0.0 for klass in order
        ]
        if any(row):
            weights[name] = row
    intercept = [round(float(bias[klass]), DECIMALS) if klass is not None else -50.0 for klass in order]
    return {"intercept": intercept, "weights": weights}


def fit_document(sql_rows: list[dict], word_rows: list[dict], labels: list[str], note: str) -> dict:
    """The whole model file: both variants fitted on the same pairs."""
    return {
        "format": MODEL_FORMAT,
        "note": note,
        "classes": list(CATEGORIES),
        "variants": {
            SQL_ONLY: fit_variant(sql_rows, None, labels, SQL_ONLY),
            WITH_WORDS: fit_variant(sql_rows, word_rows, labels, WITH_WORDS),
        },
    }


def _sparse(rows: list[dict], index: dict):
    from scipy.sparse import csr_matrix

    data, columns, pointers = [], [], [0]
    for row in rows:
        for name, value in row.items():
            position = index.get(name)
            if position is not None and value:
                columns.append(position)
                data.append(value)
        pointers.append(len(columns))
    return csr_matrix((data, columns, pointers), shape=(len(rows), len(index)))
