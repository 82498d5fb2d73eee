"""JSON and YAML loaders: bytes -> text -> Document with a JSON-pointer -> span map.

JSON data comes from the C `json` module, its positions from one pass over its tokens
(`_json_spans`). YAML data and positions are built in one pass over parser events (no composer, no
constructor, no recursion): libyaml's where it reads the text exactly as ruamel.yaml's pure parser
does, otherwise, and for every error, ruamel.yaml's (see `_libyaml_events`).

Every failure is a `LoadError` with a one-line message and a 1-based line:column. Both loaders refuse
nesting deeper than `MAX_DEPTH` levels, so downstream code never sees deeper data, and values JSON
cannot carry (NaN, infinities, `.inf`/`.nan`, numbers with more digits than Python converts).

Spans are kept as character offsets `(key_start, key_end, value_start, value_end)` (`key_start` is
-1 for values that are not object members) and turned into line:column by one shared `LineIndex`.
"""

from __future__ import annotations

import codecs
import contextlib
import functools
import json
import math
import re
from array import array
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from typing import Any

from schemalint.loaders import Document, LoadError
from schemalint.model import JSON, Span, escape_pointer_token

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
_LINE_FEED = re.compile(r"\n")
_TRAILING_SPACE = " \t\r\n"


class LineIndex:
    """Turns character offsets into 1-based line:column positions (columns in code points).

    Lines end at LF, CRLF or a lone CR, as editors count them.
    """

    __slots__ = ("_starts",)

    def __init__(self, text: str) -> None:
        line_breaks = _LINE_BREAK if "\r" in text else _LINE_FEED
        #: where each line starts
        self._starts = array("q", [0])
        self._starts.extend(map(re.Match.end, line_breaks.finditer(text)))

    def _line(self, offset: int) -> tuple[int, int]:
        """The 0-based line an offset is on, and where that line starts."""
        line = bisect_right(self._starts, offset) - 1
        return line, self._starts[line]

    def position(self, offset: int) -> tuple[int, int]:
        line, line_start = self._line(offset)
        return line + 1, offset - line_start + 1

    def span(self, start: int, end: int) -> Span:
        line, line_start = self._line(start)
        end_line, end_line_start = self._line(end)
        return Span(line + 1, start - line_start + 1, end_line + 1, end - end_line_start + 1)


def _position_in(text: str, offset: int) -> tuple[int, int]:
    """line:column of one offset (for error messages)."""
    return LineIndex(text[:offset]).position(offset)


class OffsetPositions:
    """`PositionIndex` over a table of `OffsetSpan`s by pointer."""

    def __init__(self, text: str, spans: SpanTable) -> None:
        self._text = text
        self._spans = spans
        self._lines: LineIndex | None = None

    def locate(self, pointer: str, key: bool = False) -> Span | None:
        entry = self._spans.get(pointer)
        if entry is None:
            return None
        key_start, key_end, start, end = entry
        if key and key_start >= 0:
            start, end = key_start, key_end
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


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value) or math.isnan(value):
        raise _ValueProblem(f"number {_shorten(text)} is out of range")
    return value


def _checked_int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise _ValueProblem(f"number {_shorten(text)} has too many digits") from None


def _shorten(text: str, limit: int = 24) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --------------------------------------------------------------------------------------------------
# JSON

_JSON_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'
#: one value per match, with the commas and space before it and its key (group 1) and colon if it has
#: one; by `lastindex`: 2 = a string, 3 = '{' or '[', 4 = '}' or ']', 5 = a number or literal. The
#: leading space is matched, not searched past: a search tries every alternative at every character.
_JSON_TOKEN = re.compile(
    rf"[ \t\n\r,]*(?:({_JSON_STRING})[ \t\n\r]*:[ \t\n\r]*)?"
    rf'(?:({_JSON_STRING})|([{{\[])|([}}\]])|([^\s{{}}\[\]:,"]+))'
)


class _Problem(Exception):
    """A refused input at a character offset (raised by the YAML builder and the JSON scan)."""

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
        raise _ValueProblem("duplicate key")
    return obj


def _reject_constant(name: str) -> float:
    raise _ValueProblem(f"{name} is not valid JSON")


def _json_literal_problem(token: str) -> str | None:
    """Why the json module refused this number/literal token, or None."""
    try:
        json.loads(token, parse_int=_checked_int, parse_float=_finite_float, parse_constant=_reject_constant)
    except _ValueProblem as problem:
        return str(problem)
    except ValueError:  # not a number at all: json reports that itself
        pass
    return None


def _json_spans(text: str, check_values: bool = False) -> SpanTable:
    """Where each value of a JSON text is, read in one pass over its tokens with an explicit stack.

    The text is one `json.loads` read, or refused only for a duplicate key, a number, a constant
    (looked for with `check_values`) or its nesting (its hooks and recursion errors carry no
    position): the first of these in text order is raised as a `_Problem`, nesting past MAX_DEPTH
    included.
    """
    spans: SpanTable = {}
    # per open container: its pointer, its key's span, its start, and for an object where each of its
    # keys was first seen, for an array the index of its next element
    stack: list[list[Any]] = []
    for match in _JSON_TOKEN.finditer(text):
        kind = match.lastindex
        if kind == 4:  # a container closes
            if not stack:
                break
            container = stack.pop()
            spans[container[0]] = (container[1], container[2], container[3], match.end())
            continue
        key_start, key_end = match.span(1)
        if key_start >= 0:  # an object member
            token = match.group(1)
            key = json.loads(token) if "\\" in token else token[1:-1]
            parent = stack[-1]
            if key in parent[4]:
                raise _Problem(f"duplicate key {json.dumps(key, ensure_ascii=False)}", key_start, parent[4][key])
            parent[4][key] = key_start
            pointer = parent[0] + "/" + escape_pointer_token(key)
        elif stack:  # an array element
            parent = stack[-1]
            pointer = f"{parent[0]}/{parent[4]}"
            parent[4] += 1
        else:
            pointer = ""
        start = match.start(kind)  # type: ignore[arg-type]
        if kind == 3:  # a container opens
            if len(stack) >= MAX_DEPTH:
                raise _Problem(f"nesting deeper than {MAX_DEPTH} levels", start)
            stack.append([pointer, key_start, key_end, start, {} if match.group(3) == "{" else 0])
            continue
        problem = _json_literal_problem(match.group(5)) if kind == 5 and check_values else None
        if problem:
            raise _Problem(problem, start)
        spans[pointer] = (key_start, key_end, start, match.end())
    return spans


def _error_at(text: str, message: str, offset: int) -> LoadError:
    line, column = _position_in(text, offset)
    return LoadError(message, line, column)


def load_json(text: str, path: str) -> Document:
    """Parse JSON with the C decoder, and scan its tokens for positions.

    Refuses duplicate keys, NaN/Infinity, numbers that do not fit a float or have too many digits,
    and nesting deeper than MAX_DEPTH, each with the line:column where it happens.
    """
    text = _without_bom(text)
    data, spans = _parse_json(text)
    return Document(path=path, text=text, data=data, format="json", positions=OffsetPositions(text, spans))


def _parse_json(text: str) -> tuple[JSON, SpanTable]:
    _check_not_empty(text)
    try:
        data = json.loads(
            text,
            object_pairs_hook=_reject_duplicate_keys,
            parse_constant=_reject_constant,
            parse_float=_finite_float,
        )
        return data, _json_spans(text)
    except json.JSONDecodeError as error:
        raise _error_at(text, error.msg, error.pos) from None
    except _Problem as problem:  # nested deeper than MAX_DEPTH
        raise problem.to_load_error(text) from None
    except (ValueError, RecursionError) as error:  # a hook's _ValueProblem, int() refusing a huge number
        raise _json_problem(text, error) from None


def _json_problem(text: str, error: Exception) -> LoadError:
    """The error json.loads raised, placed: the first problem in text order, with its position."""
    try:
        _json_spans(text, check_values=True)
    except _Problem as problem:
        return problem.to_load_error(text)
    if isinstance(error, RecursionError):
        return LoadError(f"nesting too deep to parse (limit {MAX_DEPTH} levels)")
    return LoadError(_one_line(str(error)))


def load_jsonl(text: str, path: str) -> Document:
    """JSON Lines: one JSON value per non-blank line, each read as `load_json` reads a file. The data is
    the list of the lines' values; pointer `/N/...` is in the N-th of them (blank lines not counted),
    and the empty pointer is the first line's value."""
    text = _without_bom(text)
    _check_not_empty(text)
    data: list[JSON] = []
    spans: SpanTable = {}
    start = 0  # where the line starts in the text
    for number, line in enumerate(text.split("\n"), 1):
        if line.strip():
            try:
                value, line_spans = _parse_json(_without_bom(line.rstrip("\r")))
            except LoadError as error:
                raise LoadError(error.message, number, error.column) from None
            for pointer, (key_start, key_end, value_start, value_end) in line_spans.items():
                key = (key_start + start, key_end + start) if key_start >= 0 else (-1, -1)
                spans[f"/{len(data)}{pointer}"] = (*key, value_start + start, value_end + start)
            data.append(value)
        start += len(line) + 1
    if not data:
        raise LoadError("empty file")
    spans[""] = spans["/0"]
    return Document(path=path, text=text, data=data, format="jsonl", positions=OffsetPositions(text, spans))


def _one_line(message: str) -> str:
    return " ".join(message.split())


# --------------------------------------------------------------------------------------------------
# YAML

_CORE = "tag:yaml.org,2002:"
_SCALAR_TAGS = {f"{_CORE}{name}" for name in ("str", "null", "bool", "int", "float")}
_NULL = re.compile(r"(?:~|null|Null|NULL|)\Z")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"[-+]?[0-9]+\Z")
_INT_OCTAL = re.compile(r"0o[0-7]+\Z")
_INT_HEX = re.compile(r"0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_FLOAT_SPECIAL = re.compile(r"[-+]?\.(?:inf|Inf|INF)\Z|\.(?:nan|NaN|NAN)\Z")


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
            # a non-string key as the string JSON would use (`1` -> "1", `true` -> "true")
            key = value if isinstance(value, str) else json.dumps(value)
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
_LIBYAML_DIFFERS = re.compile(r"[\t\x85\u2028\u2029]|[|>][-+0-9]*(?:#|[ ]*(?:#[^\n]*)?\r?\n[ ]+\r?\n)")


def _libyaml_events(text: str) -> Iterator[Any]:
    """libyaml's parser events (PyYAML's C binding).

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


def yaml_events(text: str) -> list[Any]:
    """The parser events of the whole stream, up to its first error: libyaml's where they are certain to
    be ruamel.yaml's, as the loader reads them."""
    try:
        return list(_libyaml_events(text))
    except Exception:  # not sure, or broken: ruamel.yaml's events up to the error
        events: list[Any] = []
        with contextlib.suppress(Exception):  # ruamel raises more than YAMLError (see _build_with_ruamel)
            for event in parse_yaml_events(text):
                events.append(event)
        return events


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
    return Document(path=path, text=text, data=data, format="yaml", positions=OffsetPositions(text, builder.spans))


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
