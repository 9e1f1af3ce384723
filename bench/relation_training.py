"""Fitting the intent model of `annotation.labels.relation_model` (scikit-learn, at build time only).

Each variant is a multinomial logistic regression (L2, Newton-CG: it reaches the optimum in a few steps where
lbfgs crawls over thousands of n-grams weighed small). SQL features, and the question's "said:" features
(`relation_features.question_sql_features`), are scaled by their largest absolute value on the training pairs (so a
count and a flag weigh alike); the questions' n-grams are kept when at least `MIN_NGRAM_PAIRS` training pairs have them
and are scaled by `word_scale`, which with `C` sets how much the words may move a decision. The scaling is folded into
the stored weights, so the JSON model reads raw feature values.

The settings (`C`, and `word_scale` for the variant with words) are chosen by `choose_settings` among `CANDIDATES`
with a cross-validation of whole databases inside the pairs being fitted (`INNER_FOLDS` folds): bench/relations_cv.py
calls it on each outer fold's training databases only, so no held-out database takes part in any choice, and
`make relation-model` on all of them. `DEFAULT_SETTINGS` serve a fit given no databases (the tests' tiny models).
"""

from __future__ import annotations

from collections import Counter

from annotation.labels.relation_features import question_features, question_sql_features, sql_features
from annotation.labels.relation_model import MODEL_FORMAT, SQL_ONLY, WITH_WORDS
from annotation.labels.relations import CATEGORIES, read_pair

DEFAULT_SETTINGS = {
    SQL_ONLY: {"C": 0.3, "word_scale": 0.0},
    WITH_WORDS: {"C": 1.0, "word_scale": 0.2},
}
CANDIDATES = {
    SQL_ONLY: [{"C": c, "word_scale": 0.0} for c in (0.1, 0.3, 1.0)],
    WITH_WORDS: [{"C": c, "word_scale": scale} for c, scale in ((0.3, 0.2), (1.0, 0.1), (1.0, 0.2), (0.3, 0.5))],
}
INNER_FOLDS = 4
INNER_SEED = 1
MIN_NGRAM_PAIRS = 3
# Word features read like SQL features (scaled by their largest value, no count cut): how the question names the change.
DENSE_WORD_PREFIX = "said:"
# Weights are stored with this many decimals, and a feature whose weights all round to 0 is left out.
DECIMALS = 4


def features_of(pair) -> tuple[dict, dict]:
    """(SQL features, question features) of a bench.chase_corpus.CorpusPair."""
    reading = read_pair(pair.previous_sql, pair.current_sql, pair.schema)
    words = question_features(pair.previous_question, pair.current_question)
    words.update(question_sql_features(reading, pair.previous_question, pair.current_question))
    return sql_features(reading), words


def choose_settings(sql_rows: list[dict], word_rows: list[dict], labels: list[str], groups: list[str]) -> dict:
    """Per variant, the candidate with the best agreement with `labels` over `INNER_FOLDS` folds of whole databases
    (`groups`) of these pairs; ties go to the earlier candidate."""
    from sklearn.model_selection import GroupKFold

    splitter = GroupKFold(n_splits=INNER_FOLDS, shuffle=True, random_state=INNER_SEED)
    splits = list(splitter.split(groups, groups, groups))
    chosen = {}
    for variant, candidates in CANDIDATES.items():
        scores = []
        for settings in candidates:
            right = 0
            for train, test in splits:
                fitted = fit_variant(
                    [sql_rows[i] for i in train],
                    [word_rows[i] for i in train] if variant == WITH_WORDS else None,
                    [labels[i] for i in train],
                    settings,
                )
                right += _agreement(fitted, [sql_rows[i] for i in test], [word_rows[i] for i in test], labels, test)
            scores.append(right)
        chosen[variant] = candidates[scores.index(max(scores))]
    return chosen


def _agreement(fitted: dict, sql_rows: list[dict], word_rows: list[dict], labels: list[str], test) -> int:
    from annotation.labels.relation_model import RelationModel

    document = {"format": MODEL_FORMAT, "classes": list(CATEGORIES), "variants": {SQL_ONLY: fitted}}
    model = RelationModel(document)
    return sum(
        model.predict({**row, **words}, SQL_ONLY) == labels[index]
        for row, words, index in zip(sql_rows, word_rows, test, strict=True)
    )


def fit_variant(sql_rows: list[dict], word_rows: list[dict] | None, labels: list[str], settings: dict) -> dict:
    """One variant's JSON: {"intercept": [...], "weights": {feature: [...]}} in CATEGORIES order. With `word_rows`,
    their "said:" features join the SQL ones and their n-grams are weighed by `settings["word_scale"]`."""
    from sklearn.linear_model import LogisticRegression

    word_scale = settings["word_scale"]
    dense_rows = sql_rows
    if word_rows is not None:
        dense_rows = [
            {**row, **{name: value for name, value in words.items() if name.startswith(DENSE_WORD_PREFIX)}}
            for row, words in zip(sql_rows, word_rows, strict=True)
        ]
    scale: dict[str, float] = {}
    for row in dense_rows:
        for name, value in row.items():
            scale[name] = max(scale.get(name, 0.0), abs(value))
    rows = [{name: value / scale[name] for name, value in row.items() if scale[name]} for row in dense_rows]
    if word_rows is not None and word_scale:
        counts = Counter(name for row in word_rows for name in row if not name.startswith(DENSE_WORD_PREFIX))
        for row, words in zip(rows, word_rows, strict=True):
            row.update({name: value * word_scale for name, value in words.items() if counts[name] >= MIN_NGRAM_PAIRS})
        for name, count in counts.items():
            if count >= MIN_NGRAM_PAIRS:
                scale.setdefault(name, 1.0 / word_scale)
    names = sorted({name for row in rows for name in row})
    index = {name: position for position, name in enumerate(names)}
    matrix = _sparse(rows, index)
    model = LogisticRegression(C=settings["C"], solver="newton-cg", max_iter=5000)
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


def fit_document(
    sql_rows: list[dict], word_rows: list[dict], labels: list[str], note: str, groups: list[str] | None = None
) -> dict:
    """The whole model file: both variants fitted on the same pairs, with the settings `choose_settings` picks among
    these pairs' databases (`groups`), or `DEFAULT_SETTINGS` without them. The file records the settings used."""
    settings = choose_settings(sql_rows, word_rows, labels, groups) if groups is not None else DEFAULT_SETTINGS
    return {
        "format": MODEL_FORMAT,
        "note": note,
        "settings": settings,
        "classes": list(CATEGORIES),
        "variants": {
            SQL_ONLY: fit_variant(sql_rows, None, labels, settings[SQL_ONLY]),
            WITH_WORDS: fit_variant(sql_rows, word_rows, labels, settings[WITH_WORDS]),
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
