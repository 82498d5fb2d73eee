"""schemalint.text: CaselessPattern answers as a case-insensitive search does; ASCII short-cuts count alike."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from schemalint import text
from schemalint.text import CaselessPattern

CASELESS = [value for value in vars(text).values() if isinstance(value, CaselessPattern)]

SAMPLES = [
    "Deletes the file. This cannot be undone.",
    "DELETES THE FILE PERMANENTLY; safe to RETRY.",
    "Do NOT use this for refunds; use `refund_order` Instead.",
    "Only For admins. Read-Only.",
    "Sends an e-mail. Calling it Twice sends two.",
    "Returns the weather.",
    "Use this tool only when the user asks; prefer the `Search` tool for lookups.",
    "Ünïcödé text: Idempotent, NOT reversible.",
    "\u212a is a Kelvin sign; \u017fide effects",
]


def _caseless_search(pattern: CaselessPattern, sample: str) -> bool:
    return re.search(pattern.source, sample, re.IGNORECASE | pattern.flags) is not None


def test_the_caseless_patterns_are_found() -> None:
    assert len(CASELESS) >= 2


def test_caseless_patterns_spell_their_letters_in_lower_case() -> None:
    """The lower-cased text is searched case-sensitively: an upper-case letter could never match it."""
    for pattern in CASELESS:
        letters = re.sub(r"\\.", "", pattern.source)  # escapes such as \b, \s, \W keep their case
        assert not re.search("[A-Z]", letters), pattern.source[:60]


def test_found_in_agrees_with_a_case_insensitive_search() -> None:
    for pattern in CASELESS:
        for sample in SAMPLES:
            for variant in (sample, sample.upper(), sample.lower(), sample.swapcase()):
                assert pattern.found_in(variant) == _caseless_search(pattern, variant), (pattern.source[:40], variant)


@given(st.lists(st.sampled_from([*" .;,-'`", "Only", "for", "NOT", "use", "Instead", "undo", "Retry", "x"])))
@settings(max_examples=200, deadline=None)
def test_found_in_agrees_on_arbitrary_ascii_text(words: list[str]) -> None:
    sample = " ".join(words)
    for pattern in CASELESS:
        assert pattern.found_in(sample) == _caseless_search(pattern, sample)


@given(st.text(alphabet=st.characters(max_codepoint=127)))
@settings(max_examples=300, deadline=None)
def test_ascii_text_units_count_the_unicode_words(sample: str) -> None:
    """The ASCII short-cut of text_units counts what the Unicode word pattern counts."""
    assert text.text_units(sample) == len(re.findall(r"[^\W_]+(?:['’][^\W_]+)?", sample))
