"""How many tokens a tool definition costs in the model's context, estimated offline (SL503).

No tokenizer of the models that read tool definitions ships offline (tiktoken downloads its tables
on first use; Anthropic's and Gemini's are not published), and the embedding model's WordPiece
vocabulary is a different tokenizer, so this is a documented heuristic, CJK-aware:

- each CJK ideograph, kana or hangul syllable: 1 token (current BPE vocabularies give 0.7 to 1.5);
- each run of Latin letters: 1 token per 8 letters, at least 1 (common words are one token);
- each run of digits: 1 token per 3 digits;
- each run of other non-space symbols (JSON punctuation): 1 token per 2 characters;
- whitespace: free (merged into the next token);
- plus PER_TOOL_OVERHEAD tokens per tool for the provider's own framing of each definition.

Texts over SAMPLE_CHARS characters (hostile or generated files) are measured on their first
SAMPLE_CHARS characters and scaled by length, so the estimate stays linear and fast.

The definition is measured as compact JSON of what the provider sends: name, description and the
parameters schema.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from schemalint.lazy_pattern import LazyPattern

PER_TOOL_OVERHEAD = 8
#: CJK ideographs, kana and hangul syllables: one token each
_CJK_RANGES = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"


#: compiled for the first non-ASCII text only: the CJK ranges are slow to compile
_PIECES = LazyPattern(
    rf"(?P<cjk>[{_CJK_RANGES}])"
    r"|(?P<word>[^\W\d_]+)"
    r"|(?P<digits>\d+)"
    r"|(?P<space>\s+)"
    rf"|(?P<symbols>[^\w\s{_CJK_RANGES}]+|_+)"
)


#: longer texts are measured on a prefix of this many characters and scaled by length
SAMPLE_CHARS = 200_000


def _keeping(keep: Callable[[str], bool]) -> bytes:
    """A bytes.translate table that blanks every ASCII character `keep` rejects (a 256-byte table is
    read directly; a str.translate table is a dict looked up once per character)."""
    return bytes(ord(c) if keep(c) else ord(" ") for c in map(chr, range(256)))


#: In ASCII text the kinds of run of `_PIECES` (word, digits, symbols) are disjoint character classes, so
#: each kind is found by blanking the others and splitting (C speed, no Python step per piece):
#: (table, characters per token).
_ASCII_RUNS = (
    (_keeping(str.isalpha), 8),
    (_keeping(str.isdigit), 3),
    (_keeping(lambda c: not (c.isalnum() or c.isspace() or c == "_")), 2),
    (_keeping(lambda c: c == "_"), 2),  # `_+` is a run of its own, not part of a run of punctuation
)


def estimate_text_tokens(text: str) -> int:
    if len(text) > SAMPLE_CHARS:
        return math.ceil(estimate_text_tokens(text[:SAMPLE_CHARS]) * len(text) / SAMPLE_CHARS)
    if text.isascii():
        data = text.encode("ascii")
        return sum(
            (len(run) + per_token - 1) // per_token
            for table, per_token in _ASCII_RUNS
            for run in data.translate(table).split()
        )
    return _estimate_pieces(text)


#: characters per token of each kind of piece but white space (`cjk` pieces are one character)
_CHARS_PER_TOKEN = {"cjk": 1, "word": 8, "digits": 3, "symbols": 2}


def _estimate_pieces(text: str) -> int:
    """The estimate by the definition: one regex match per piece (any text)."""
    return sum(
        (len(match.group()) + per_token - 1) // per_token
        for match in _PIECES.finditer(text)
        if (per_token := _CHARS_PER_TOKEN.get(match.lastgroup or "", 0))
    )


#: `json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)`, with the encoder built once
_COMPACT_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=str)


def estimate_tool_tokens(name: str | None, description: str | None, parameters: Any) -> int:
    """Tokens of the compact JSON {"name", "description", "parameters"}, measured part by part (no copy
    of a huge description is made)."""
    schema = _COMPACT_JSON.encode(parameters or {})
    return (
        _FRAMING_TOKENS
        + estimate_text_tokens(name or "")
        + estimate_text_tokens(description or "")
        + estimate_text_tokens(schema)
        + PER_TOOL_OVERHEAD
    )


_FRAMING_TOKENS = estimate_text_tokens('{"name":"","description":"","parameters":}')
