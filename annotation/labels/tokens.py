"""Utterance tokens (`utterance_toks`) as the SParC, CoSQL and CHASE releases hold them.

The English releases were tokenised with a Penn-Treebank-style word tokeniser: punctuation and clitics ('s, n't)
split off, double quotes written as `` and '', a period split off where a sentence ends. CHASE splits Chinese text
character by character and keeps runs of Latin letters and digits whole. This module re-implements those rules
with a few regular expressions, so that dialogues collected here get tokens shaped like the releases' (the
conformance test measures how often they agree exactly). Imported records keep the tokens they came with.
"""

import re
from functools import lru_cache

# Han, kana and hangul: a text with any of these is tokenised the CHASE way (a stray full-width "？" in English
# text does not count: the English releases left it on its word).
_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_CJK_TOKEN = re.compile(r"[A-Za-z0-9]+|\S| ")

# Each rule with a text that every match of it contains (None: none to check): a rule whose text is not in the
# utterance as it stands then is skipped without running the expression (most utterances have no quotes, colons or
# periods, and tokenising was most of the time an export spent on its utterances).
_RULES: list[tuple[re.Pattern, str, str | None]] = [
    # An opening double quote: at the start or after a space or an opening bracket.
    (re.compile(r'^"'), " `` ", '"'),
    (re.compile(r'(?<=[\s(\[{<])"'), " `` ", '"'),
    # Punctuation that always stands alone; commas and colons only when not inside a number (1,000 and 10:30).
    (re.compile(r"([;@#$%&?!|()\[\]{}<>’])"), r" \1 ", None),
    (re.compile(r"(?<!\d),|,(?!\d)"), " , ", ","),
    (re.compile(r"(?<!\d):|:(?!\d)"), " : ", ":"),
    (re.compile(r"\.\.\."), " ... ", "..."),
    # Any other double quote closes.
    (re.compile(r'"'), " '' ", '"'),
    # Clitics split off the word they follow.
    (re.compile(r"(?i)(\w)('s|'m|'d|'ll|'re|'ve)\b"), r"\1 \2", "'"),
    (re.compile(r"(?i)(\w)(n't)\b"), r"\1 \2", "'"),
    (re.compile(r"(?i)\b(can)(not)\b"), r"\1 \2", None),
    # A single quote that closes a word ('UAL' -> 'UAL ') stands alone; an opening one stays on its word.
    (re.compile(r"(?<=\w)'(?=\s|$|[.?!,;:])"), " ' ", "'"),
    # A period ends a sentence at the end of the text or of a folded part (" | "), before other final punctuation,
    # and before a capital letter, except after "ok" (which the sentence splitter of the releases left whole).
    (re.compile(r"(?<=[^\s.])\.(?=\s*(?:''|')?\s*(?:$|\||[?!]))"), " . ", "."),
    (re.compile(r"(?<!\b[Oo][Kk])(?<=\w\w)\.(?=\s+[A-Z])"), " . ", "."),
]


def utterance_toks(text: str) -> list[str]:
    """Tokenise one utterance the way the public releases did (character-wise for Chinese text)."""
    return list(_tokens(text))


def tokens_cache_clear() -> None:
    """Forget the tokens remembered (an export does once its files are written)."""
    _tokens.cache_clear()


@lru_cache(maxsize=50_000)  # exports and statistics tokenise the same texts again and again
def _tokens(text: str) -> tuple[str, ...]:
    if _CJK.search(text):
        return tuple(_CJK_TOKEN.findall(text))
    for pattern, replacement, needs in _RULES:
        if needs is None or needs in text:  # checked on the text as the rules before have left it
            text = pattern.sub(replacement, text)
    return tuple(text.split())
