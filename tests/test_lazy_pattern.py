"""LazyPattern: compiled on first use, answers like re.Pattern, and skips ASCII text only when it must."""

from __future__ import annotations

import itertools
import re

import pytest

import schemalint.text
from schemalint.lazy_pattern import LazyPattern

SAMPLES = ["", "plain ascii text, 30 seconds", "查询订单 (分) 30秒", "mixed 毫秒 and ms", "a\u200bb", "ＡＢＣ"]
ALL_ASCII_PAIRS = "".join(a + b for a, b in itertools.product(map(chr, range(128)), repeat=2))


def answers(pattern: LazyPattern | re.Pattern[str], text: str) -> list[object]:
    def spans(found: object) -> object:
        return found.span() if isinstance(found, re.Match) else found

    return [
        spans(pattern.search(text)),
        spans(pattern.search(text, 2, 9)),
        spans(pattern.match(text)),
        [m.span() for m in pattern.finditer(text)],
        pattern.findall(text),
        pattern.sub("_", text),
    ]


@pytest.mark.parametrize(
    ("source", "flags", "needs_non_ascii"),
    [(r"[\u4e00-\u9fff]+", 0, True), (r"\bsec(?:ond)?s?\b|秒", re.IGNORECASE, False), (r"(\d)\s*(秒|分)", 0, True)],
)
def test_answers_like_re(source: str, flags: int, needs_non_ascii: bool) -> None:
    lazy = LazyPattern(source, flags, needs_non_ascii=needs_non_ascii)
    for text in SAMPLES:
        assert answers(lazy, text) == answers(re.compile(source, flags), text), text


def test_compiled_on_first_use_and_not_for_ascii_text_when_it_needs_non_ascii() -> None:
    lazy = LazyPattern(r"[\u3040-\u30ff]", needs_non_ascii=True)
    assert lazy.findall("only ascii") == [] and lazy.search("only ascii") is None
    assert lazy._compiled is None
    assert lazy.findall("カナ") == ["カ", "ナ"]
    assert lazy._compiled is not None
    eager = LazyPattern(r"\w+")
    assert eager._compiled is None
    assert eager.findall("a b") == ["a", "b"]


def declared_non_ascii() -> list[LazyPattern]:
    found = [value for value in vars(schemalint.text).values() if isinstance(value, LazyPattern)]
    found += [pattern for _, pattern in schemalint.text.POISONING_PATTERNS]
    return [pattern for pattern in found if pattern.needs_non_ascii]


def ascii_words_of_every_pattern() -> str:
    """The English words and numbers that the text module's patterns look for, as one ASCII text."""
    sources = [v.source for v in vars(schemalint.text).values() if isinstance(v, LazyPattern)]
    sources += [pattern.source for _, pattern in schemalint.text.POISONING_PATTERNS]
    return " ".join(word for source in sources for word in re.findall(r"[A-Za-z0-9'.:%$-]+", source))


@pytest.mark.parametrize("pattern", declared_non_ascii(), ids=lambda p: p.source[:20])
def test_patterns_declared_non_ascii_never_match_ascii(pattern: LazyPattern) -> None:
    for text in (ALL_ASCII_PAIRS, ascii_words_of_every_pattern(), " 30 (s) 1 d x9 use instead only for " * 3):
        assert pattern.compiled.search(text) is None


def test_the_cjk_and_hidden_character_classes_are_declared_non_ascii() -> None:
    assert {schemalint.text._CJK_CHAR, schemalint.text._HIDDEN_CHAR} <= set(declared_non_ascii())
