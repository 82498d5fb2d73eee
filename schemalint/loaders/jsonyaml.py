"""JSON and YAML loaders: bytes -> text -> Document with a JSON-pointer -> span map.

The public API is three functions:

- `decode_source(raw, path)`: bytes to text (UTF-8 with or without BOM, UTF-16/32 with a BOM).
- `load_json(text, path)`: data from the C `json` module. Positions cost nothing until the first
  `locate()`; then only the containers on the pointer's path are indexed (see `JsonOffsets`).
- `load_yaml(text, path)`: safe YAML only. Data and positions are built in one pass over parser
  events (no composer, no constructor, no recursion), resolving scalars with the YAML 1.2 core
  schema. Only the first document of a multi-document stream is loaded. The events come from
  libyaml (PyYAML's C parser) where it reads the text exactly as ruamel.yaml's pure parser does,
  otherwise, and for every error, from ruamel.yaml (see `_libyaml_events`).

Every failure is a `LoadError` with a one-line message and a 1-based line:column. Both loaders refuse
nesting deeper than `MAX_DEPTH` levels, so downstream code never sees deeper data, and values JSON
cannot carry (NaN, infinities, `.inf`/`.nan`, numbers with more digits than Python converts).

Spans are kept as character offsets `(key_start, key_end, value_start, value_end)` (`key_start` is
-1 for values that are not object members) and turned into line:column by one shared `LineIndex`.
"""

from __future__ import annotations

import codecs
import functools
import json
import math
import re
import sys
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from json.decoder import scanstring  # type: ignore[attr-defined]  # the C string scanner
from typing import Any

from schemalint.lazy_pattern import LazyPattern
from schemalint.loaders import Document, LoadError
from schemalint.model import JSON, Span, escape_pointer_token, unescape_pointer_token

#: Deepest nesting of objects/arrays (mappings/sequences) a loader accepts; the root container is level 1.
MAX_DEPTH = 500
#: Most nodes a YAML document may expand to once aliases are followed (alias-bomb guard).
MAX_YAML_NODES = 1_000_000
#: How much of a file is searched for NUL bytes to tell binary files from text.
BINARY_SNIFF_BYTES = 8192

#: (key_start, key_end, value_start, value_end) in character offsets; key_start == -1 without a key.
OffsetSpan = tuple[int, int, int, int]
SpanTable = dict[str, OffsetSpan]

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_TRAILING_SPACE = " \t\r\n"


#: line-start table granularity: 2**10 characters per block (see LineIndex)
_LINE_BLOCK_BITS = 10


class LineIndex:
    """Turns character offsets into 1-based line:column positions (columns in code points).

    Lines end at LF, CRLF or a lone CR, as editors count them.

    A text without lone CRs (nearly all) is indexed by blocks of 2**`_LINE_BLOCK_BITS` characters:
    per block, the number of line feeds before it and where the line holding its first character
    starts. A position counts the line feeds from its block's start to it and looks back for the
    last one, both in C (`str.count`, `str.rfind`) over less than a block. For 10 MB of JSON the
    table takes 15 ms to build where an array of every line start took 110 ms (serial work, even
    with --jobs, as it is built before the fork), for about 1 us more per position. A text with
    lone CRs gets the array of every line start (a line feed count cannot tell its lines).
    """

    __slots__ = ("_block_bits", "_block_line_starts", "_block_lines", "_starts", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        lone_cr = "\r" in text and text.count("\r") != text.count("\r\n")
        #: every line start (after each line break, and 0), for texts with lone CRs only
        self._starts: array[int] | None = None
        self._block_bits = _LINE_BLOCK_BITS
        #: per block: line feeds before its start, and the start of the line its start is on
        self._block_lines = array("q")
        self._block_line_starts = array("q")
        if lone_cr:
            self._starts = array("q", [0])
            self._starts.extend(map(re.Match.end, _LINE_BREAK.finditer(text)))
            return
        size = 1 << self._block_bits
        lines = line_start = 0
        for block_start in range(0, len(text) + 1, size):
            self._block_lines.append(lines)
            self._block_line_starts.append(line_start)
            lines += text.count("\n", block_start, block_start + size)
            last = text.rfind("\n", block_start, block_start + size)
            if last >= 0:
                line_start = last + 1

    def _line(self, offset: int) -> tuple[int, int]:
        """The 0-based line an offset is on, and where that line starts."""
        starts = self._starts
        if starts is not None:
            line = bisect_right(starts, offset) - 1
            return line, starts[line]
        block = offset >> self._block_bits
        block_start = block << self._block_bits
        text = self._text
        last = text.rfind("\n", block_start, offset)
        if last < 0:
            return self._block_lines[block], self._block_line_starts[block]
        return self._block_lines[block] + text.count("\n", block_start, offset), last + 1

    def position(self, offset: int) -> tuple[int, int]:
        line, line_start = self._line(offset)
        return line + 1, offset - line_start + 1

    def span(self, start: int, end: int) -> Span:
        line, line_start = self._line(start)
        if self._starts is None:
            on_one_line = self._text.find("\n", start, end) < 0
        else:
            on_one_line = line + 1 == len(self._starts) or end < self._starts[line + 1]
        end_line, end_line_start = (line, line_start) if on_one_line else self._line(end)
        return Span(line + 1, start - line_start + 1, end_line + 1, end - end_line_start + 1)


def _position_in(text: str, offset: int) -> tuple[int, int]:
    """line:column of one offset (for error messages)."""
    return LineIndex(text[:offset]).position(offset)


#: a span not computed yet (None is an answer: the pointer is not in the document)
_NOT_LOCATED: Any = object()


class OffsetPositions:
    """`PositionIndex` over character offsets: `find(pointer)` gives a value's `OffsetSpan`.

    `find_key(pointer)`, when given, is asked for keys' spans instead: its value end may be
    `_NOT_SKIPPED` (see `JsonOffsets.find_member`), and is then asked of `find` only for an array
    element (which has no key: its value is located instead).
    """

    def __init__(
        self,
        text: str,
        find: Callable[[str], OffsetSpan | None],
        find_key: Callable[[str], OffsetSpan | None] | None = None,
    ) -> None:
        self._text = text
        self._find = find
        self._find_key = find_key or find
        self._lines: LineIndex | None = None
        #: spans already computed (several findings often point at one place), by pointer: one
        #: table for values and one for keys, so that a lookup builds no (pointer, key) tuple
        self._value_spans: dict[str, Span | None] = {}
        self._key_spans: dict[str, Span | None] = {}

    def locate(self, pointer: str, key: bool = False) -> Span | None:
        spans = self._key_spans if key else self._value_spans
        span = spans.get(pointer, _NOT_LOCATED)
        if span is _NOT_LOCATED:
            span = spans[pointer] = self._locate(pointer, key)
        return span

    def _locate(self, pointer: str, key: bool) -> Span | None:
        entry = self._find_key(pointer) if key else self._find(pointer)
        if entry is None:
            return None
        key_start, key_end, start, end = entry
        if key and key_start >= 0:
            start, end = key_start, key_end
        elif end == _NOT_SKIPPED:
            return self._locate(pointer, False)
        text = self._text
        while end > start + 1 and text[end - 1] in _TRAILING_SPACE:  # block scalars end after their newline
            end -= 1
        if self._lines is None:
            self._lines = LineIndex(text)
        return self._lines.span(start, end)


# --------------------------------------------------------------------------------------------------
# Decoding

_BOMS = (  # longest first: the UTF-32-LE BOM starts with the UTF-16-LE one
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"),
)


def decode_source(raw: bytes, path: str) -> str:
    """The text of a source file, without its byte-order mark.

    UTF-8 with or without BOM; UTF-16 and UTF-32 only with a BOM. Raises LoadError for binary
    files (a NUL byte in the first 8 KiB of a UTF-8 file) and undecodable bytes (with their
    line:column). An empty text is returned as such: an empty Python module is valid, and a walk
    skips files without tools silently; `load_json`/`load_yaml` refuse it ("empty file").
    """
    encoding, label, body = "utf-8", "UTF-8", raw
    for bom, bom_encoding, bom_label in _BOMS:
        if raw.startswith(bom):
            encoding, label, body = bom_encoding, bom_label, raw[len(bom) :]
            break
    if encoding == "utf-8" and b"\0" in body[:BINARY_SNIFF_BYTES]:  # UTF-16/32 text is full of NULs
        raise LoadError("binary file")
    try:
        text = body.decode(encoding)
    except UnicodeDecodeError as error:
        prefix = body[: error.start].decode(encoding)  # everything before the first bad byte is valid
        line, column = _position_in(prefix, len(prefix))
        bad = body[error.start : error.end]
        if label == "UTF-8":
            what = f"byte 0x{bad[0]:02x}"
        else:
            what = f"code unit 0x{bad.hex()}" if bad else "truncated code unit"
        raise LoadError(f"invalid {label} {what} at line {line} column {column}", line, column) from None
    return text


def _without_bom(text: str) -> str:
    return text[1:] if text.startswith("\ufeff") else text


def _check_not_empty(text: str) -> None:
    if not text.strip():
        raise LoadError("empty file")


# --------------------------------------------------------------------------------------------------
# Numbers (shared by both loaders: JSON data must stay representable as JSON)


class _ValueProblem(ValueError):
    """A value the loaders refuse; the caller adds the position."""


_DECIMAL_INT = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value) or math.isnan(value):
        raise _ValueProblem(f"number {_shorten(text)} is out of range")
    return value


def _checked_int(text: str, base: int = 10) -> int:
    try:
        return int(text, base)
    except ValueError:
        raise _ValueProblem(f"number {_shorten(text)} has too many digits") from None


def _shorten(text: str, limit: int = 24) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --------------------------------------------------------------------------------------------------
# JSON

_JSON_NON_FINITE = ("NaN", "Infinity", "-Infinity")
_JSON_WORDS = ("true", "false", "null")
#: one token per match, by `lastindex`: 1 = a string value, 2 = a key (the string, group 1, has a
#: ':' after it), 3 = '{' or '[', 4 = '}' or ']', 5 = a number or literal. Commas, colons and
#: whitespace are skipped by the search. One string alternative with an optional colon: a choice
#: between two string alternatives backtracks through every character of a long string value.
_JSON_TOKEN = re.compile(
    r'("[^"\\]*(?:\\.[^"\\]*)*")(\s*:)?'
    r"|([{\[])"
    r"|([}\]])"
    r'|([^\s{}\[\]:,"]+)'
)


class _DuplicateKey(Exception):
    pass


class _Problem(Exception):
    """A refused input at a character offset (raised by the YAML builder, returned by the JSON scan)."""

    def __init__(self, message: str, offset: int, first_offset: int = -1) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        #: for a duplicate key, where the key was first defined
        self.first_offset = first_offset

    def to_load_error(self, text: str) -> LoadError:
        message = self.message
        if self.first_offset >= 0:
            line, column = _position_in(text, self.first_offset)
            message += f" (first defined at line {line} column {column})"
        return _error_at(text, message, self.offset)


def _reject_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise _DuplicateKey
    return obj


def _reject_constant(name: str) -> float:
    raise _ValueProblem(f"{name} is not valid JSON")


def _json_literal_problem(token: str) -> str | None:
    """Why the json module refused this number/literal token, or None."""
    if token in _JSON_WORDS:
        return None
    if token in _JSON_NON_FINITE:
        return f"{token} is not valid JSON"
    try:
        if _DECIMAL_INT.match(token):
            _checked_int(token)
        else:
            _finite_float(token)
    except _ValueProblem as problem:
        return str(problem)
    except ValueError:
        return None  # not a number at all: json reports that itself
    return None


def first_json_problem(text: str) -> _Problem | None:
    """The first duplicate key, non-finite or oversized number, or nesting past MAX_DEPTH, in text order.

    Used only once `json.loads` has refused a text (its hooks and recursion errors carry no
    position); one linear token scan with an explicit stack.
    """
    # per open container: for an object, where each of its keys was first seen; None for an array
    stack: list[dict[str, int] | None] = []
    for match in _JSON_TOKEN.finditer(text):
        kind = match.lastindex
        if kind == 2:  # a key: a string followed by a colon
            token = match.group(1)
            key = json.loads(token) if "\\" in token else token[1:-1]
            keys = stack[-1] if stack else None
            if keys is not None:
                if key in keys:
                    return _Problem(f"duplicate key {json.dumps(key, ensure_ascii=False)}", match.start(1), keys[key])
                keys[key] = match.start(1)
        elif kind == 3:  # a container opens
            if len(stack) >= MAX_DEPTH:
                return _Problem(f"nesting deeper than {MAX_DEPTH} levels", match.start())
            stack.append({} if match.group(3) == "{" else None)
        elif kind == 4:  # a container closes
            if not stack:
                break
            stack.pop()
        elif kind == 5:  # a number or literal
            problem = _json_literal_problem(match.group(5))
            if problem:
                return _Problem(problem, match.start())
    return None


def _nesting_exceeds_limit(data: JSON) -> bool:
    """Whether data that json.loads accepted nests deeper than MAX_DEPTH (the root container is level 1).

    One level of containers at a time, so each value is looked at once with no recursion; about four
    times faster than counting brackets outside the strings of the text.
    """
    level = [data]
    for _ in range(MAX_DEPTH + 1):
        containers = [value for value in level if isinstance(value, (dict, list))]
        if not containers:
            return False
        level = [child for value in containers for child in (value.values() if isinstance(value, dict) else value)]
    return True


_JSON_SPACE = re.compile(r"[ \t\n\r]*")
#: a string, and a number or literal (`true`, `false`, `null`), in a valid JSON text (no possessive
#: quantifiers: Python 3.10 has none, and on 3.11 they made no measurable difference here)
_STRING_OR_SCALAR = r'("[^"\\]*(?:\\.[^"\\]*)*")|([-+.0-9a-zE]+)'
#: an object member from the end of the one before it (or the opening brace): the comma and space,
#: the key (group 1, without its quotes, still escaped), the colon, then its value when that is a
#: string (group 2) or a scalar (group 3); a container value starts where the match ends. Or the
#: closing brace (group 4): one match tells which, where a failed member match followed by a search
#: for the brace took two.
_JSON_MEMBER = re.compile(
    r'[ \t\n\r,]*(?:"([^"\\]*(?:\\.[^"\\]*)*)"[ \t\n\r]*:[ \t\n\r]*(?:' + _STRING_OR_SCALAR + r")?|(\}))"
)
#: an array element from the end of the one before it (or the opening bracket): groups as in
#: `_JSON_MEMBER`, with an empty group 1 for the key it does not have, and group 4 the closing bracket
_JSON_ELEMENT = re.compile(r"[ \t\n\r,]*(?:()(?:" + _STRING_OR_SCALAR + r"|(?=[\[{]))|(\]))")
#: what a member or element match is, by its `lastindex`: a key whose value is a container (which
#: starts where the match ends), a string or a scalar, or the container's closing bracket
_CONTAINER_VALUE, _CLOSING_BRACKET = 1, 4
_ARRAY_INDEX = re.compile(r"(?:0|[1-9][0-9]*)\Z")


#: the value end of a member whose value (a container) the C scanner has not skipped yet
_NOT_SKIPPED = -1


class _Members:
    """The direct members of one JSON container, scanned no further than the lookups needed.

    Four offsets per member: key start and end (-1 for an array element), value start and end. A
    container value's end is only known once the C scanner has skipped it, and it is skipped only
    when a later member is needed or its own span is asked for: until then its end is
    `_NOT_SKIPPED`. So going down a pointer skips the members before each step, not the step
    itself: the C scanner reads a tool about once, not once per level of the pointer.
    """

    __slots__ = ("end", "names", "offsets", "resume")

    def __init__(self, names: dict[str, int] | None, start: int) -> None:
        #: an object's keys -> member number; None for an array (members are numbered by index)
        self.names = names
        self.offsets = array("q")
        #: where the next member is scanned from; -1 once the closing bracket is reached
        self.resume = start + 1
        #: where the container ends (after its closing bracket), once the scan has reached it
        self.end = -1


#: how many looked-up pointers a JsonOffsets keeps (see JsonOffsets.find)
_RECENT_POINTERS = 1024


class JsonOffsets:
    """Where each value of a valid JSON text is, found on demand along the pointer asked for.

    The containers on the path are scanned member by member up to the member wanted (see
    `_Members`); the C scanner skips container values (it returns where a value ends) and a
    pattern reads keys, strings and scalars. The work is proportional to the members before the
    path's steps, not to the file: locating one value in a 10,000-tool file costs about one
    `json.loads` (skipping the tools before it); locating values in every tool reads each tool
    about once more.
    """

    def __init__(self, text: str) -> None:
        self._text = text
        #: the C scanner: (value, end) for the value at an offset. Only the end is used: objects are
        #: handed to `len` (C) as they are parsed, which is three times faster than keeping them.
        self._skip_value = json.JSONDecoder(object_hook=len).scan_once  # type: ignore[attr-defined]
        #: by the container's start offset; None for a scalar
        self._members: dict[int, _Members | None] = {}
        start = _JSON_SPACE.match(text).end()  # type: ignore[union-attr]
        self._root: OffsetSpan = (-1, -1, start, len(text.rstrip(" \t\n\r")))
        #: the pointers looked up lately, and their ancestors: findings come tool by tool and share
        #: their tool's prefixes. Bounded: keeping every pointer of a 10,000-tool file costs 16 MB.
        #: An ancestor's value end may be `_NOT_SKIPPED`.
        self._found: dict[str, OffsetSpan | None] = {"": self._root}
        #: where a container value that was left `_NOT_SKIPPED` ends, once skipped: its span and a
        #: later sibling may both be asked for, in either order, and the value is skipped only once
        self._value_ends: dict[int, int] = {}

    def _value_end(self, start: int) -> int:
        end = self._value_ends.get(start)
        if end is None:
            members = self._members.get(start)
            end = self._skip_value(self._text, start)[1] if members is None else self._scan_to_end(members)
            self._value_ends[start] = end
        return end

    def _scan_to_end(self, members: _Members) -> int:
        """Where a container that lookups went into ends: its members are scanned on from where the
        lookups stopped rather than the whole container parsed again. Going on from one tool to the
        next would otherwise parse each tool a second time (6% of the instructions that locating
        the findings of 10,000 generated tools took).

        Its last member may be a container that lookups went into too, and so on down, until a
        value whose end is known or that no lookup went into: that chain is scanned to its end
        from the innermost out, so that each scan finds its last member's end known (a loop, not
        recursion, however deep the lookups went). Each one's end becomes the value end of the last
        member of the one around it, which its scan then goes on from.
        """
        chain = [members]
        while chain[-1].resume >= 0:
            offsets = chain[-1].offsets
            if not offsets or offsets[-1] != _NOT_SKIPPED or offsets[-2] in self._value_ends:
                break
            inner = self._members.get(offsets[-2])
            if inner is None:
                break
            chain.append(inner)
        end = -1
        for container in reversed(chain):
            if end >= 0:
                container.offsets[-1] = container.resume = end
            if container.resume >= 0:
                self._scan(container, None)
            end = container.end
        return end

    def find(self, pointer: str) -> OffsetSpan | None:
        """The span of the value at `pointer` (and of its key, for an object member), or None."""
        entry = self.find_member(pointer)
        if entry is not None and entry[3] == _NOT_SKIPPED:  # its span is asked for: skip it now
            entry = self._found[pointer] = (entry[0], entry[1], entry[2], self._value_end(entry[2]))
        return entry

    def find_member(self, pointer: str) -> OffsetSpan | None:
        """As `find`, but the value end of a container may still be `_NOT_SKIPPED`: enough for a key's
        span, and a later member or lookup into it does not find it skipped for nothing."""
        found = self._found
        if pointer in found:
            entry = found[pointer]
        else:
            if len(found) > _RECENT_POINTERS:
                found.clear()
                found[""] = self._root
            # climb to the nearest ancestor already found, then go down one member at a time (the
            # pointers climbed through are kept: built again, each would be hashed again)
            climbed: list[tuple[str, str]] = []  # (pointer, its last token), deepest first
            known = pointer
            while known not in found:
                parent, _, token = known.rpartition("/")
                climbed.append((known, token))
                known = parent
            entry = found[known]
            member = self._member
            for known, token in reversed(climbed):
                if entry is not None:
                    entry = member(entry[2], unescape_pointer_token(token))
                found[known] = entry
        return entry

    def _member(self, start: int, token: str) -> OffsetSpan | None:
        """The member `token` (a key, or an array index) of the value at `start`, or None."""
        indexed = self._members
        if start in indexed:
            members = indexed[start]
        else:
            opening = self._text[start]
            members = indexed[start] = _Members({} if opening == "{" else None, start) if opening in "{[" else None
        if members is None:
            return None
        names = members.names
        if names is not None:
            number = names.get(token)
            if number is None and members.resume >= 0:
                self._scan(members, token)
                number = names.get(token)
            if number is None:
                return None
        elif _ARRAY_INDEX.match(token):
            number = int(token)
            if number * 4 >= len(members.offsets) and members.resume >= 0:
                self._scan(members, number)
        else:
            return None
        at = number * 4
        offsets = members.offsets
        if at >= len(offsets):
            return None
        return offsets[at], offsets[at + 1], offsets[at + 2], offsets[at + 3]

    def _scan(self, members: _Members, wanted: str | int | None) -> None:
        """Scan a container's members on to the one `wanted` (an object's key, an array's index), or to its end.

        The wanted member's value is not skipped if it is a container (its end is `_NOT_SKIPPED`).
        """
        text, skip_value, names, offsets = self._text, self._skip_value, members.names, members.offsets
        next_member = _JSON_ELEMENT.match if names is None else _JSON_MEMBER.match
        position = members.resume
        if offsets and offsets[-1] == _NOT_SKIPPED:  # the member wanted last time: skip its value now
            position = offsets[-1] = self._value_end(offsets[-2])
        scanned: list[int] = []  # the members' offsets, added to the array in one go
        elements_wanted = (wanted + 1) * 4 - len(offsets) if isinstance(wanted, int) else -1  # offsets to add
        while True:
            match = next_member(text, position)
            kind = match.lastindex  # type: ignore[union-attr]  # the text is valid JSON: a member or the end
            position = match.end()  # type: ignore[union-attr]
            if kind == _CLOSING_BRACKET:
                members.end = position
                position = -1
                break
            if names is None:
                key_start = key_end = -1
                found = len(scanned) + 4 == elements_wanted
            else:
                key = match.group(1)  # type: ignore[union-attr]
                key_start, key_end = match.span(1)  # type: ignore[union-attr]
                if "\\" in key:
                    key = scanstring(text, key_start)[0]
                names[sys.intern(key)] = len(names)  # keys repeat across tools: share them
                key_start -= 1  # the quotes are part of the key's span
                key_end += 1
                found = key == wanted
            if kind != _CONTAINER_VALUE:
                scanned += (key_start, key_end, match.start(kind), position)  # type: ignore[arg-type,union-attr]
                if found:
                    break
            elif found:  # its value is skipped only when a later member or its span is asked for
                scanned += (key_start, key_end, position, _NOT_SKIPPED)
                break
            else:
                value_start = position
                position = skip_value(text, value_start)[1]
                scanned += (key_start, key_end, value_start, position)
        offsets.fromlist(scanned)
        members.resume = position


def json_positions(text: str) -> OffsetPositions:
    """Positions in a valid JSON text, scanned on demand (keys' spans without skipping values)."""
    offsets = JsonOffsets(text)
    return OffsetPositions(text, offsets.find, offsets.find_member)


def _error_at(text: str, message: str, offset: int) -> LoadError:
    line, column = _position_in(text, offset)
    return LoadError(message, line, column)


def _locate_json_problem(text: str, fallback: str) -> LoadError:
    """The error json.loads raised, placed: the first problem in text order, with its position."""
    problem = first_json_problem(text)
    if problem is None:
        return LoadError(fallback)
    return problem.to_load_error(text)


def load_json(text: str, path: str) -> Document:
    """Parse JSON with the C decoder; positions are scanned on the first `locate()`.

    Refuses duplicate keys, NaN/Infinity, numbers that do not fit a float or have too many digits,
    and nesting deeper than MAX_DEPTH, each with the line:column where it happens.
    """
    text = _without_bom(text)
    _check_not_empty(text)
    data = _load_json_quickly(text)
    if data is _NOT_SURE:
        data = _load_json_exactly(text)
    return Document(path=path, text=text, data=data, format="json", positions=json_positions(text))


def load_jsonl(text: str, path: str) -> Document:
    """JSON Lines: one JSON value per non-blank line, each read as `load_json` reads a file. The data is
    the list of the lines' values; pointer `/N/...` is in the N-th of them (blank lines not counted)."""
    text = _without_bom(text)
    _check_not_empty(text)
    lines: list[tuple[int, Document]] = []
    for number, line in enumerate(text.split("\n"), 1):
        if line.strip():
            try:
                lines.append((number, load_json(line.rstrip("\r"), path)))
            except LoadError as error:
                raise LoadError(error.message, number, error.column) from None
    if not lines:
        raise LoadError("empty file")
    data = [document.data for _, document in lines]
    return Document(path=path, text=text, data=data, format="jsonl", positions=JsonLinesPositions(lines))


class JsonLinesPositions:
    """Positions in a JSON Lines text: each line's own positions, moved down to its line."""

    def __init__(self, lines: list[tuple[int, Document]]) -> None:
        self._lines = lines

    def locate(self, pointer: str, key: bool = False) -> Span | None:
        index, _, rest = pointer[1:].partition("/")
        if not pointer:
            index = "0"
        if not _ARRAY_INDEX.match(index) or int(index) >= len(self._lines):
            return None
        number, document = self._lines[int(index)]
        span = document.positions.locate(f"/{rest}" if rest else "", key and bool(rest))
        if span is None:
            return None
        return Span(span.line + number - 1, span.column, span.end_line + number - 1, span.end_column)


#: `_load_json_quickly` could not vouch for the text: `_load_json_exactly` decides
_NOT_SURE: Any = object()


def _load_json_quickly(text: str) -> JSON:
    """The data of a text that is certainly well formed, else `_NOT_SURE`; under half the time of
    `_load_json_exactly` (10,000 generated tools: 134 ms instead of 293 ms of CPU).

    The C decoder runs without the duplicate-key hook (a Python call per object, as long as the
    decoding itself) or a number hook (a Python call per float), and nothing walks the data to
    measure its depth. Instead, orjson writes the data back compactly, which proves all three:

    - depth: orjson refuses data nested deeper than 254 levels (below MAX_DEPTH; a test holds it to that).
    - duplicate keys: outside strings, a JSON text has one colon per object member, and so has
      orjson's output. Inside strings, orjson writes the colons the decoded strings hold, never
      escaped. Each decoded string comes from its own string of the text, and without `\\u003a`
      escapes each of its colons was written there as such. So the output has as many colons as
      the text if, and only if, no member was lost: a duplicate key drops a member (and whatever
      the value it replaced held), leaving the output with fewer colons than the text.
    - numbers out of range (`1e400` decodes to infinity): orjson writes infinities as `null`. With
      no member lost, every `null` of the text is in the output: the literals, and each `null` in a
      string (its letters are written as such, or its `n` is the escape `\\n`, which orjson writes
      alike). So an infinity leaves the output with more `null`s than the text.

    Anything else (an escaped colon, a decoding error, deeper data, integers beyond 64 bits, lone
    surrogates) is `_NOT_SURE`: the exact path runs and reports what it finds, as it always did.
    """
    if "\\u003a" in text or "\\u003A" in text:
        return _NOT_SURE
    try:
        import orjson

        data = json.loads(text, parse_constant=_reject_constant)
        compact = orjson.dumps(data)
    except (ImportError, ValueError, TypeError, RecursionError):  # orjson.JSONEncodeError is a TypeError
        return _NOT_SURE
    if compact.count(b":") != text.count(":") or compact.count(b"null") != text.count("null"):
        return _NOT_SURE
    return data


def _load_json_exactly(text: str) -> JSON:
    """The data of a text, with every refusal (duplicate key, number, depth) placed at its position."""
    try:
        data = json.loads(
            text,
            object_pairs_hook=_reject_duplicate_keys,
            parse_constant=_reject_constant,
            parse_float=_finite_float,
        )
    except json.JSONDecodeError as error:
        raise _error_at(text, error.msg, error.pos) from None
    except _DuplicateKey:
        raise _locate_json_problem(text, "duplicate key") from None
    except RecursionError:
        raise _locate_json_problem(text, f"nesting too deep to parse (limit {MAX_DEPTH} levels)") from None
    except ValueError as error:  # _ValueProblem from the hooks, or int() refusing a huge number
        raise _locate_json_problem(text, _one_line(str(error))) from None
    if _nesting_exceeds_limit(data):
        raise _locate_json_problem(text, f"nesting deeper than {MAX_DEPTH} levels")
    return data


def _one_line(message: str) -> str:
    return " ".join(message.split())


# --------------------------------------------------------------------------------------------------
# YAML

_CORE = "tag:yaml.org,2002:"
_SCALAR_TAGS = {f"{_CORE}{name}" for name in ("str", "null", "bool", "int", "float")}
#: compiled when a YAML file first needs them, not by every JSON run
_NULL = LazyPattern(r"(?:~|null|Null|NULL|)\Z")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = LazyPattern(r"[-+]?[0-9]+\Z")
_INT_OCTAL = LazyPattern(r"0o[0-7]+\Z")
_INT_HEX = LazyPattern(r"0x[0-9a-fA-F]+\Z")
_FLOAT = LazyPattern(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_FLOAT_SPECIAL = LazyPattern(r"[-+]?\.(?:inf|Inf|INF)\Z|\.(?:nan|NaN|NAN)\Z")


def _core_scalar(text: str) -> JSON:
    """A plain scalar resolved with the YAML 1.2 core schema (timestamps and the like stay strings)."""
    if _NULL.match(text):
        return None
    boolean = _BOOL.get(text)
    if boolean is not None:
        return boolean
    return _core_number(text, text)


def _core_number(text: str, default: JSON) -> JSON:
    if _INT.match(text):
        return _checked_int(text)
    if _INT_OCTAL.match(text):
        return int(text[2:], 8)
    if _INT_HEX.match(text):
        return int(text[2:], 16)
    if _FLOAT.match(text):
        return _finite_float(text)
    if _FLOAT_SPECIAL.match(text):
        raise _ValueProblem(f"{text} is not representable in JSON")
    return default


def _tagged_scalar(tag: str, text: str) -> JSON:
    """A scalar with an explicit core-schema tag (`!!str 12`, `!!int "12"`)."""
    kind = tag[len(_CORE) :]
    if kind == "str":
        return text
    if kind == "null" and _NULL.match(text):
        return None
    if kind == "bool" and text in _BOOL:
        return _BOOL[text]
    if kind in ("int", "float"):
        value = _core_number(text, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return float(value) if kind == "float" else value
        if kind == "float" and isinstance(value, float):
            return value
    raise _ValueProblem(f"!!{kind} value {_shorten(repr(text))} is not a valid {kind}")


def _display_tag(tag: str) -> str:
    return "!!" + tag[len(_CORE) :] if tag.startswith(_CORE) else tag


def _key_text(value: JSON) -> str:
    """A non-string mapping key as the string JSON would use (`1` -> "1", `true` -> "true")."""
    if isinstance(value, str):
        return value
    return json.dumps(value)


class _Container:
    """An open mapping or sequence while YAML events are turned into data."""

    __slots__ = ("anchor", "data", "flow", "key", "last_end", "merges", "nodes_before", "pointer", "start")

    def __init__(self, data: dict[str, JSON] | list[JSON], pointer: str, start: int) -> None:
        self.data = data
        self.pointer = pointer  # children's pointers extend it
        self.start = start
        self.last_end = start
        self.flow = False
        self.anchor: str | None = None
        self.nodes_before = 0
        #: a mapping's key waiting for its value: (key, key_start, key_end, is_merge_key)
        self.key: tuple[str, int, int, bool] | None = None
        #: `<<` merge sources: (mapping, start, end)
        self.merges: list[tuple[dict[str, JSON], int, int]] = []


class _YamlBuilder:
    """Turns the parser events of the first YAML document into JSON data and a span table.

    Iterative (an explicit stack), so hostile nesting cannot overflow Python's stack. Aliases
    share the anchored value; the expanded size of the document is bounded by MAX_YAML_NODES.
    """

    def __init__(self) -> None:
        self.spans: SpanTable = {}
        self.stack: list[_Container] = []
        self.anchors: dict[str, tuple[JSON, int]] = {}  # name -> (value, expanded node count)
        self.open_anchors: set[str] = set()
        self.nodes = 0
        self.root: JSON = None
        self.has_document = False

    def build(self, events: Iterable[Any]) -> JSON:
        """Consume ruamel.yaml or PyYAML (libyaml) events: both name their classes alike."""
        for event in events:
            kind = type(event).__name__
            if kind == "ScalarEvent":
                self._scalar(event)
            elif kind == "MappingStartEvent" or kind == "SequenceStartEvent":
                self._open(event, kind == "MappingStartEvent")
            elif kind == "MappingEndEvent" or kind == "SequenceEndEvent":
                self._close(event.end_mark.index)
            elif kind == "AliasEvent":
                self._alias(event)
            elif kind == "DocumentStartEvent":
                self.has_document = True
            elif kind == "DocumentEndEvent" or kind == "StreamEndEvent":
                break  # only the first document of a stream is loaded
        return self.root

    # -- values -----------------------------------------------------------------------------------

    def _count(self, nodes: int, offset: int) -> None:
        self.nodes += nodes
        if self.nodes > MAX_YAML_NODES:
            raise _Problem(f"document expands to more than {MAX_YAML_NODES:,} nodes (alias bomb?)", offset)

    def _scalar(self, event: Any) -> None:
        start, end = event.start_mark.index, event.end_mark.index
        tag = event.tag
        try:
            if tag is None:
                value = _core_scalar(event.value) if event.implicit[0] else event.value
            elif tag == "!":
                value = event.value
            elif tag in _SCALAR_TAGS:
                value = _tagged_scalar(tag, event.value)
            else:
                raise _ValueProblem(f"tag {_display_tag(tag)} is not allowed (safe YAML: core schema tags only)")
        except _ValueProblem as problem:
            raise _Problem(str(problem), start) from None
        self._count(1, start)
        is_merge_key = event.value == "<<" and tag is None and not event.style  # plain: None (ruamel), "" (libyaml)
        self._place(value, 1, start, end, event.anchor, is_merge_key)

    def _alias(self, event: Any) -> None:
        start, end = event.start_mark.index, event.end_mark.index
        name = event.anchor
        if name in self.open_anchors:
            raise _Problem(f"alias *{name} refers to a node that contains it (recursive alias)", start)
        if name not in self.anchors:
            raise _Problem(f"alias *{name} is not defined", start)
        value, size = self.anchors[name]
        self._count(size, start)
        self._place(value, size, start, end, None, False)

    def _open(self, event: Any, is_mapping: bool) -> None:
        start = event.start_mark.index
        tag = event.tag
        expected = f"{_CORE}map" if is_mapping else f"{_CORE}seq"
        if tag is not None and tag != "!" and tag != expected:
            raise _Problem(f"tag {_display_tag(tag)} is not allowed (safe YAML: core schema tags only)", start)
        if len(self.stack) >= MAX_DEPTH:
            raise _Problem(f"nesting deeper than {MAX_DEPTH} levels", start)
        data: dict[str, JSON] | list[JSON] = {} if is_mapping else []
        container = _Container(data, self._member_pointer(start), start)
        container.flow = bool(event.flow_style)
        container.anchor = event.anchor
        container.nodes_before = self.nodes
        if event.anchor is not None:
            self.open_anchors.add(event.anchor)
        self._count(1, start)
        self.stack.append(container)

    def _close(self, end_offset: int) -> None:
        container = self.stack.pop()
        # a block collection's end event sits at the next token: end at its last entry instead
        end = end_offset if container.flow else container.last_end
        if container.merges:
            assert isinstance(container.data, dict)
            container.data = self._merged(container)
        size = self.nodes - container.nodes_before
        if container.anchor is not None:
            self.open_anchors.discard(container.anchor)
        self._place(container.data, size, container.start, end, container.anchor, False)

    def _merged(self, container: _Container) -> dict[str, JSON]:
        """The mapping with its `<<` merge sources applied: explicit keys win, then earlier sources."""
        assert isinstance(container.data, dict)
        merged: dict[str, JSON] = {}
        for source, start, end in container.merges:
            for key, value in source.items():
                if key not in container.data and key not in merged:
                    merged[key] = value
                    self.spans[container.pointer + "/" + escape_pointer_token(key)] = (start, end, start, end)
        merged.update(container.data)
        return merged

    # -- placing a finished value into its parent --------------------------------------------------

    def _member_pointer(self, start: int) -> str:
        """Pointer of the collection starting now (`_place` puts it there when it ends)."""
        if not self.stack:
            return ""
        parent = self.stack[-1]
        if isinstance(parent.data, list):
            return f"{parent.pointer}/{len(parent.data)}"
        if parent.key is None:
            raise _Problem("mapping keys must be scalars (strings, numbers, booleans or null)", start)
        return parent.pointer + "/" + escape_pointer_token(parent.key[0])

    def _place(
        self,
        value: JSON,
        size: int,
        start: int,
        end: int,
        anchor: str | None,
        is_merge_key: bool,
    ) -> None:
        """Put a finished value (scalar, alias or collection) into its parent and record its span."""
        if anchor is not None:
            self.anchors[anchor] = (value, size)
        if not self.stack:
            self.root = value
            self.spans[""] = (-1, -1, start, end)
            return
        parent = self.stack[-1]
        parent.last_end = end
        data = parent.data
        if isinstance(data, list):
            self.spans[f"{parent.pointer}/{len(data)}"] = (-1, -1, start, end)
            data.append(value)
            return
        if parent.key is None:  # this value is a key
            if isinstance(value, (dict, list)):
                raise _Problem("mapping keys must be scalars (strings, numbers, booleans or null)", start)
            key = _key_text(value)
            if key in data or (is_merge_key and parent.merges):
                first = self.spans.get(parent.pointer + "/" + escape_pointer_token(key), (-1,))[0]
                raise _Problem(f"duplicate key {json.dumps(key, ensure_ascii=False)}", start, first)
            parent.key = (key, start, end, is_merge_key)
            return
        key, key_start, key_end, merge = parent.key
        parent.key = None
        if merge:
            sources = value if isinstance(value, list) else [value]
            if not all(isinstance(source, dict) for source in sources):
                raise _Problem("a << merge key needs a mapping or a list of mappings", start)
            parent.merges.extend((source, start, end) for source in sources)
            return
        self.spans[parent.pointer + "/" + escape_pointer_token(key)] = (key_start, key_end, start, end)
        data[key] = value


@functools.cache
def _linear_scanner_class() -> type:
    """ruamel's pure scanner with its simple-key bookkeeping made O(1) per token.

    Upstream scans every pending "possible simple key" (one per open flow level) for every token,
    which is quadratic on hostile input such as 100,000 `[`: seconds before the depth limit is hit.
    Pending keys are inserted in token order (a level's key is removed before a new one is saved),
    so the oldest key is the first in the dict and stale keys form a prefix of it.
    `test_linear_scanner_matches_ruamel` checks that both produce the same events and errors.
    """
    from ruamel.yaml.scanner import Scanner, ScannerError

    class LinearScanner(Scanner):  # type: ignore[misc]
        def next_possible_simple_key(self) -> Any:
            for key in self.possible_simple_keys.values():
                return key.token_number
            return None

        def stale_possible_simple_keys(self) -> None:
            keys = self.possible_simple_keys
            reader = self.reader
            while keys:
                level = next(iter(keys))
                key = keys[level]
                if key.line == reader.line and reader.index - key.index <= 1024:
                    return
                if key.required:
                    raise ScannerError(
                        "while scanning a simple key", key.mark, "could not find expected ':'", reader.get_mark()
                    )
                del keys[level]

    return LinearScanner


def parse_yaml_events(text: str, linear: bool = True) -> Iterator[Any]:
    """ruamel.yaml's parser events for `text` (pure Python parser, no construction)."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=True)
    if linear:
        yaml.Scanner = _linear_scanner_class()
    return iter(yaml.parse(text))


class _NotSureToMatch(Exception):
    """libyaml may read this text differently from ruamel.yaml: ruamel decides."""


#: what libyaml (YAML 1.1) reads differently from ruamel.yaml: tabs as separators, NEL/LS/PS as line
#: breaks, a block scalar header with a comment not after a space (`|#`), a block scalar's leading
#: whitespace-only line indented less than its text
_LIBYAML_DIFFERS = LazyPattern(r"[\t\x85\u2028\u2029]|[|>][-+0-9]*(?:#|[ ]*(?:#[^\n]*)?\r?\n[ ]+\r?\n)")


def _libyaml_events(text: str) -> Iterator[Any]:
    """libyaml's parser events (PyYAML's C binding, about ten times ruamel's pure parser).

    They match ruamel's, marks included, except where `_NotSureToMatch` is raised: texts matching
    `_LIBYAML_DIFFERS`, empty plain scalars (libyaml places them after the colon, ruamel at the
    next token) and anchors and aliases (libyaml accepts `&a:` and `*a:` where ruamel does not).
    `test_libyaml_events_match_ruamel` compares the two on mutated inputs.
    """
    try:
        from yaml._yaml import CParser
    except ImportError:  # PyYAML without libyaml
        raise _NotSureToMatch from None
    if _LIBYAML_DIFFERS.search(text):
        raise _NotSureToMatch
    parser = CParser(text)
    while (event := parser.get_event()) is not None:
        if getattr(event, "anchor", None) is not None:
            raise _NotSureToMatch
        if not getattr(event, "value", True) and not event.style:
            raise _NotSureToMatch
        yield event


def load_yaml(text: str, path: str) -> Document:
    """Parse YAML safely: core-schema scalars, no custom tags, bounded aliases, first document only.

    Non-string keys become strings as JSON would spell them; duplicate keys, recursive or
    undefined aliases, `.inf`/`.nan` and nesting deeper than MAX_DEPTH are LoadErrors.
    libyaml parses when it reads the text as ruamel.yaml does; anything else, errors included, is
    parsed again by ruamel.yaml, whose messages and positions are the ones reported.
    """
    text = _without_bom(text)
    _check_not_empty(text)
    builder = _YamlBuilder()
    try:
        data = builder.build(_libyaml_events(text))
    except Exception:  # not sure, refused or broken: ruamel.yaml has the last word
        builder = _YamlBuilder()
        data = _build_with_ruamel(builder, text)
    if not builder.has_document:
        raise LoadError("empty file (no YAML document)")
    return Document(path=path, text=text, data=data, format="yaml", positions=OffsetPositions(text, builder.spans.get))


def _build_with_ruamel(builder: _YamlBuilder, text: str) -> JSON:
    from ruamel.yaml.error import MarkedYAMLError, YAMLError
    from ruamel.yaml.reader import ReaderError

    try:
        return builder.build(parse_yaml_events(text))
    except _Problem as problem:
        raise problem.to_load_error(text) from None
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        message = _one_line(" ".join(part for part in (error.context, error.problem) if part) or str(error))
        if mark is None:
            raise LoadError(message) from None
        raise _error_at(text, message, mark.index) from None
    except ReaderError as error:
        character = ord(error.character) if isinstance(error.character, str) else error.character
        raise _error_at(text, f"unacceptable character #x{character:04x}: {error.reason}", error.position) from None
    except YAMLError as error:
        raise LoadError(_one_line(str(error))) from None
    except RecursionError:
        raise LoadError(f"nesting too deep to parse (limit {MAX_DEPTH} levels)") from None
    except Exception as error:  # ruamel's own checks (e.g. an assert on `%YAML 1.3`): never a traceback
        raise LoadError(_one_line(f"cannot parse YAML: {error or type(error).__name__}")) from None
