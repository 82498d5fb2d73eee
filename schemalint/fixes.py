"""Applying fixes: RFC 6902 patch operations from findings, written back without reformatting the file.

A fix is a list of JSON Patch operations on the file's data. They are applied to a copy of the data;
the file's new text is then derived from the old and new data:

- JSON: the text is re-rendered from the root, copying every unchanged value, key and separator
  verbatim from the source (positions from the loader), so bytes outside the edits never change.
  New values follow the file's indentation (detected) and line endings.
- YAML: ruamel.yaml round trip (comments, key order, quoting, indentation kept). Before anything is
  changed the file must survive an unmodified round trip byte for byte with the detected
  indentation; if it does not, the file is left alone (reported, never reformatted).
- Python sources are never modified: their findings are reported only.

Fixes whose operations touch overlapping paths are applied in successive passes: each pass applies
non-overlapping fixes, re-lints the new text and repeats (at most `MAX_PASSES`). Files are written
atomically (a temporary file in the same folder, then `os.replace`, keeping the mode), and only if
their bytes on disk are still those that were linted.
"""

from __future__ import annotations

import codecs
import contextlib
import difflib
import glob
import io
import itertools
import json
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schemalint.diagnostics import Diagnostic, Fix, PatchOperation
from schemalint.loaders import Document
from schemalint.model import JSON, Span, join_pointer, resolve_pointer, split_pointer
from schemalint.reporters.terminal import printable

MAX_PASSES = 10
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_INLINE_ARRAY = re.compile(r'\[[ \t]*["0-9tfn-][^\n\[\]{}]*\]')
_INLINE_OBJECT = re.compile(r'\{[ \t]*"[^\n\[\]{}]*\}')


class FixError(Exception):
    """A fix that cannot be applied to this file (a missing path, a file that cannot be rewritten)."""


# --------------------------------------------------------------------------------------------------
# JSON Patch on plain data


def apply_operations(data: JSON, operations: Iterable[PatchOperation]) -> JSON:
    """`data` with the operations applied, all or nothing (FixError when one fails). `data` itself is
    never changed: the containers on each operation's path are copied, everything else is shared."""
    for operation in operations:
        data = _apply(data, split_pointer(operation.path), operation)
    return data


def _apply(node: JSON, tokens: list[str], operation: PatchOperation) -> JSON:
    """A copy of `node` with the operation applied at `tokens` below it."""
    if not tokens:
        if operation.op == "remove":
            raise FixError("cannot remove the whole document")
        return operation.value
    token, rest = tokens[0], tokens[1:]
    adding = not rest and operation.op == "add"
    if isinstance(node, dict):
        if token not in node and not adding:
            raise FixError(f"{operation.path} does not exist")
        members = dict(node)
        if rest:
            members[token] = _apply(node[token], rest, operation)
        elif operation.op == "remove":
            del members[token]
        else:
            members[token] = operation.value
        return members
    if isinstance(node, list):
        index = len(node) if adding and token == "-" else _index(token, len(node) + adding, operation.path)
        items = list(node)
        if rest:
            items[index] = _apply(node[index], rest, operation)
        elif adding:
            items.insert(index, operation.value)
        elif operation.op == "remove":
            del items[index]
        else:
            items[index] = operation.value
        return items
    raise FixError(f"{operation.path}: the parent is not an object or array")


def _index(token: str, size: int, path: str) -> int:
    if not token.isdigit() or int(token) >= size:
        raise FixError(f"{path}: no array element {token}")
    return int(token)


def same(a: JSON, b: JSON) -> bool:
    """Equal as JSON values (`True` is not `1`, `1` is not `1.0`)."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _aligned(old: list[Any], new: list[Any]) -> tuple[int, int]:
    """Lengths of the common prefix and suffix of two lists (not overlapping)."""
    prefix = 0
    while prefix < min(len(old), len(new)) and same(old[prefix], new[prefix]):
        prefix += 1
    suffix = 0
    while suffix < min(len(old), len(new)) - prefix and same(old[-1 - suffix], new[-1 - suffix]):
        suffix += 1
    return prefix, suffix


# --------------------------------------------------------------------------------------------------
# JSON: re-render with verbatim copies of everything unchanged


class JsonRenderer:
    """Renders new data over the source text of the old data, changing only what differs."""

    def __init__(self, document: Document) -> None:
        self.text = document.text
        self.positions = document.positions
        self.line_starts = [0, *(m.end() for m in _LINE_BREAK.finditer(self.text))]
        self.newline = "\r\n" if "\r\n" in self.text else "\n"
        self.unit = _indent_unit(self.text)
        self.pretty = "\n" in self.text.strip()
        #: does the file write flat arrays / objects on one line (`["a", "b"]`, `{"type": "string"}`)?
        self.inline = {list: bool(_INLINE_ARRAY.search(self.text)), dict: bool(_INLINE_OBJECT.search(self.text))}

    def offset(self, line: int, column: int) -> int:
        return self.line_starts[line - 1] + column - 1

    def span(self, pointer: str, key: bool = False) -> tuple[int, int]:
        found: Span | None = self.positions.locate(pointer, key)
        if found is None:
            raise FixError(f"no source position for {pointer or 'the document'}")
        return self.offset(found.line, found.column), self.offset(found.end_line, found.end_column)

    def line_indent(self, offset: int) -> str:
        start = self.text.rfind("\n", 0, offset) + 1
        line = self.text[start:offset]
        return line[: len(line) - len(line.lstrip(" \t"))]

    def render_document(self, old: JSON, new: JSON) -> str:
        if same(old, new):
            return self.text
        start, end = self.span("")
        return self.text[:start] + self.render(old, new, "", start, end) + self.text[end:]

    def render(self, old: JSON, new: JSON, pointer: str, start: int, end: int) -> str:
        """The text of `new` where `old` was written at text[start:end]."""
        if same(old, new):
            return self.text[start:end]
        if isinstance(old, dict) and isinstance(new, dict) and list(old) == list(new):
            return self._in_place(old, new, pointer, start, end, list(old))
        if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
            return self._in_place(old, new, pointer, start, end, list(range(len(old))))
        if _same_kind(old, new):
            return self._container(old, new, pointer, start, end)
        return self.fresh(new, self.line_indent(start), compact=not self.pretty or "\n" not in self.text[start:end])

    def _in_place(self, old: Any, new: Any, pointer: str, start: int, end: int, keys: list[Any]) -> str:
        pieces, cursor = [], start
        for key in keys:
            if same(old[key], new[key]):
                continue
            child = join_pointer(pointer, key)
            child_start, child_end = self.span(child)
            pieces += [self.text[cursor:child_start], self.render(old[key], new[key], child, child_start, child_end)]
            cursor = child_end
        return "".join(pieces) + self.text[cursor:end]

    def _members(self, pointer: str, keys: Sequence[Any], key_spans: bool) -> list[tuple[int, int]]:
        """(start, end) of each member: from its key (objects) or value (arrays) to the value's end."""
        spans = []
        for key in keys:
            child = join_pointer(pointer, key)
            start = self.span(child, key=True)[0] if key_spans else self.span(child)[0]
            spans.append((start, self.span(child)[1]))
        return spans

    def _layout(self, spans: list[tuple[int, int]], start: int, end: int) -> tuple[str, str, str]:
        """(opening, default separator, closing) of a container with at least one member."""
        opening = self.text[start + 1 : spans[0][0]]
        closing = self.text[spans[-1][1] : end - 1]
        separator = "," + opening if "\n" in opening else ", "
        if len(spans) > 1:  # the file's own separator between the first two members
            separator = self.text[spans[0][1] : spans[1][0]]
        return opening, separator, closing

    def _empty_layout(self, start: int) -> tuple[str, str, str]:
        if not self.pretty:
            return "", ", ", ""
        indent = self.line_indent(start)
        return self.newline + indent + self.unit, "," + self.newline + indent + self.unit, self.newline + indent

    def _join(self, items: list[tuple[int | None, str]], spans: list[tuple[int, int]], separator: str) -> str:
        """Members joined by their original separator when they were neighbours, else `separator`."""
        out = []
        for position, (index, text) in enumerate(items):
            if position:
                previous = items[position - 1][0]
                same_pair = previous is not None and index is not None and index == previous + 1
                out.append(self.text[spans[previous][1] : spans[index][0]] if same_pair else separator)  # type: ignore[index]
            out.append(text)
        return "".join(out)

    def _container(self, old: Any, new: Any, pointer: str, start: int, end: int) -> str:
        """An object or array that gained or lost members: the members kept are copied (and edited
        where they changed), the new ones written fresh."""
        is_object = isinstance(old, dict)
        keys = list(old) if is_object else list(range(len(old)))
        spans = self._members(pointer, keys, key_spans=is_object)
        opening, separator, closing = self._layout(spans, start, end) if spans else self._empty_layout(start)
        indent = _last_line(opening) if "\n" in opening else self.line_indent(start)
        compact = "\n" not in opening
        items: list[tuple[int | None, str]] = []
        if is_object:
            position = {key: index for index, key in enumerate(keys)}
            for key, value in new.items():
                if key not in old:
                    fresh = json.dumps(key, ensure_ascii=False) + ": " + self.fresh(value, indent, compact)
                    items.append((None, fresh))
                    continue
                index, child = position[key], join_pointer(pointer, key)
                value_start = self.span(child)[0]
                rendered = self.render(old[key], value, child, value_start, spans[index][1])
                items.append((index, self.text[spans[index][0] : value_start] + rendered))
        else:
            prefix, suffix = _aligned(old, new)
            for index, value in enumerate(new):
                if prefix <= index < len(new) - suffix:
                    items.append((None, self.fresh(value, indent, compact)))
                else:
                    kept = index if index < prefix else len(old) - len(new) + index
                    items.append((kept, self.text[spans[kept][0] : spans[kept][1]]))
        brackets = "{}" if is_object else "[]"
        if not items:
            return brackets
        return brackets[0] + opening + self._join(items, spans, separator) + closing + brackets[1]

    def fresh(self, value: JSON, indent: str, compact: bool) -> str:
        """A new value, written at a position whose line is indented by `indent`."""
        if compact or not isinstance(value, (dict, list)) or not value:
            return json.dumps(value, ensure_ascii=False)
        children = value.values() if isinstance(value, dict) else value
        if self.inline[type(value)] and not any(isinstance(child, (dict, list)) for child in children):
            return json.dumps(value, ensure_ascii=False)
        text = json.dumps(value, ensure_ascii=False, indent=self.unit)
        return text.replace("\n", self.newline + indent)


def _last_line(text: str) -> str:
    return _LINE_BREAK.split(text)[-1]


def _indent_unit(text: str) -> str:
    """The indentation step of a pretty-printed file: the smallest leading white space of a line."""
    widths = []
    for line in _LINE_BREAK.split(text):
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            lead = line[: len(line) - len(stripped)]
            if lead.startswith("\t"):
                return "\t"
            widths.append(len(lead))
    return " " * min(widths) if widths else "  "


# --------------------------------------------------------------------------------------------------
# YAML: ruamel round trip


def _yaml_dumper(text: str) -> Any:
    """A round-trip YAML instance whose unmodified output is `text` byte for byte, or FixError."""
    from ruamel.yaml import YAML
    from ruamel.yaml.util import load_yaml_guess_indent

    try:
        _, guessed, dash_offset = load_yaml_guess_indent(text)
    except Exception as error:  # ruamel raises many types on odd input
        raise FixError(f"ruamel.yaml cannot read it: {type(error).__name__}") from None
    candidates = [
        _detect_yaml_indent(text),
        (guessed or 2, guessed or 2, dash_offset or 0),
        (2, 4, 2),
        (2, 2, 0),
        (4, 4, 2),
        (4, 6, 4),
    ]
    for mapping, sequence, offset in dict.fromkeys(candidates):
        if offset > sequence - 2:
            continue
        yaml = YAML()
        yaml.preserve_quotes = True
        yaml.width = 1 << 20
        yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
        yaml.explicit_start = text.lstrip().startswith("---")
        try:
            if _dump(yaml, yaml.load(text)) == text:
                return yaml
        except Exception:  # ruamel raises many types: try the next layout
            continue
    raise FixError("ruamel.yaml cannot round-trip it unchanged, so it is not rewritten")


_BLOCK_KEY = re.compile(r"^( *)(?:- +)*[^#\s][^#]*:\s*(?:#.*)?$")


def _detect_yaml_indent(text: str) -> tuple[int, int, int]:
    """(mapping indent, sequence indent, dash offset) as ruamel.yaml's `indent()` takes them, read
    from the first block key whose value is a nested mapping and the first whose value is a list."""
    mapping = offset = None
    lines = [line for line in _LINE_BREAK.split(text) if line.strip() and not line.lstrip().startswith("#")]
    for line, following in itertools.pairwise(lines):
        match = _BLOCK_KEY.match(line)
        if match is None:
            continue
        key_column = len(line) - len(line.lstrip(" -"))
        step = len(following) - len(following.lstrip(" "))
        if following.lstrip().startswith("- ") and offset is None and step >= key_column:
            offset = step - key_column
        elif not following.lstrip().startswith("- ") and mapping is None and step > key_column:
            mapping = step - key_column
        if mapping is not None and offset is not None:
            break
    mapping = mapping or 2
    offset = offset if offset is not None else 0
    return mapping, max(offset + 2, 2), offset


def _dump(yaml: Any, data: Any) -> str:
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


class _YamlBuilder:
    """Makes ruamel nodes for new values: subtrees equal to a value the same edit removed are moved
    over with their formatting (SL401 wraps a schema in `anyOf`); new strings that need quotes get
    the file's preferred quote character."""

    def __init__(self, double_quotes: bool) -> None:
        self.double_quotes = double_quotes
        self.pool: list[tuple[JSON, Any]] = []

    def node(self, value: JSON, flow: bool) -> Any:
        from ruamel.yaml.comments import CommentedMap, CommentedSeq
        from ruamel.yaml.scalarstring import DoubleQuotedScalarString

        if isinstance(value, (dict, list)) and value:
            for index, (plain, existing) in enumerate(self.pool):
                if same(plain, value):
                    del self.pool[index]
                    return existing
        if isinstance(value, dict):
            mapping = CommentedMap((k, self.node(v, flow)) for k, v in value.items())
            if flow:
                mapping.fa.set_flow_style()
            return mapping
        if isinstance(value, list):
            sequence = CommentedSeq(self.node(v, flow) for v in value)
            if flow or all(not isinstance(v, (dict, list)) for v in value):
                sequence.fa.set_flow_style()
            return sequence
        if isinstance(value, str) and self.double_quotes and _YAML_NEEDS_QUOTES.search(value):
            return DoubleQuotedScalarString(value)
        return value

    def replacement(self, existing: Any, value: JSON, flow: bool) -> Any:
        """A new node in place of `existing`: a string keeps the quoting style it had."""
        if isinstance(value, str) and isinstance(existing, str) and type(existing) is not str:
            try:
                return type(existing)(value)
            except TypeError:  # scalar string types that take more arguments
                pass
        return self.node(value, flow)

    def remember(self, old: JSON, node: Any) -> None:
        """`node` (holding `old`) is being removed: a new value may reuse it, or its parts."""
        self.pool.append((old, node))
        for key in old if isinstance(old, dict) else range(len(old)) if isinstance(old, list) else ():
            if isinstance(old[key], (dict, list)):
                self.remember(old[key], node[key])

    def merge(self, node: Any, old: JSON, new: JSON) -> None:
        """Edit the ruamel tree `node` (which holds `old`) so that it holds `new`, touching only differences."""
        flow = _is_flow(node)
        if isinstance(old, dict) and isinstance(new, dict):
            for key in old:
                if key not in new or not _same_kind(old[key], new[key]):
                    self.remember(old[key], node[key])
                if key not in new:
                    del node[key]
            for key, value in new.items():
                if key in old and _same_kind(old[key], value):
                    self.merge(node[key], old[key], value)
                elif key not in old or not same(old[key], value):
                    node[key] = self.replacement(node[key] if key in old else None, value, flow)
            return
        if isinstance(old, list) and isinstance(new, list):
            if len(old) == len(new):
                for index, (before, after) in enumerate(zip(old, new, strict=True)):
                    if _same_kind(before, after):
                        self.merge(node[index], before, after)
                    elif not same(before, after):
                        self.remember(before, node[index])
                        node[index] = self.replacement(node[index], after, flow)
                return
            prefix, suffix = _aligned(old, new)
            for index in range(len(old) - suffix - 1, prefix - 1, -1):
                self.remember(old[index], node[index])
                del node[index]
            for index in range(prefix, len(new) - suffix):
                node.insert(index, self.node(new[index], flow))
            return
        raise FixError("a value changed kind at the top of the document")


#: strings a plain YAML scalar would turn into something else, or cannot hold
_YAML_NEEDS_QUOTES = re.compile(
    r"^(?:|~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
    r"|0x[0-9a-fA-F]+|0o[0-7]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$|^[\s!&*\-?:,\[\]{}#|>@`'\"%]|: | #|\s$"
)


def _is_flow(node: Any) -> bool:
    attribute = getattr(node, "fa", None)
    return bool(attribute is not None and attribute.flow_style())


def _same_kind(a: JSON, b: JSON) -> bool:
    return (isinstance(a, dict) and isinstance(b, dict)) or (isinstance(a, list) and isinstance(b, list))


# --------------------------------------------------------------------------------------------------
# Passes over one file


def _regions(fix: Fix, data: JSON) -> list[str]:
    """The pointers a fix touches; an add or remove inside an array shifts the whole array."""
    regions = []
    for operation in fix.operations:
        tokens = split_pointer(operation.path)
        region = operation.path
        if tokens and operation.op in ("add", "remove") and tokens[-1] != "-":
            parent = join_pointer("", *tokens[:-1])
            try:
                if isinstance(resolve_pointer(data, parent), list):
                    region = parent
            except (KeyError, TypeError):
                pass
        regions.append(region)
    return regions


def _overlaps(a: str, b: str) -> bool:
    if a == b and a.endswith("/-"):  # appends to one array commute (SL401 adding names to `required`)
        return False
    return a == b or a.startswith(b + "/") or b.startswith(a + "/")


def choose_fixes(fixes: Sequence[Fix], data: JSON) -> list[Fix]:
    """Fixes that touch disjoint parts of the document, in order; the others wait for a later pass."""
    chosen: list[Fix] = []
    taken: list[str] = []
    for fix in fixes:
        regions = _regions(fix, data)
        if any(_overlaps(r, t) for r in regions for t in taken):
            continue
        chosen.append(fix)
        taken += regions
    return chosen


@dataclass
class FilePlan:
    """What fixing one file would do."""

    path: str
    document: Document
    new_text: str
    fixed: int = 0
    #: (rule code, rule slug, fix) of every fix applied, in order
    applied: list[tuple[str, str, Fix]] = field(default_factory=list)
    #: why the file is not fixed (Python source, YAML that does not round-trip, ...)
    skipped: str | None = None

    @property
    def changed(self) -> bool:
        return self.skipped is None and self.new_text != self.document.text

    def diff(self) -> str:
        lines = difflib.unified_diff(
            self.document.text.splitlines(keepends=True),
            self.new_text.splitlines(keepends=True),
            f"a/{printable(self.path)}",  # a name with a line feed would forge the diff's own lines
            f"b/{printable(self.path)}",
        )
        return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


Relint = Callable[[str, str], tuple[Document | None, list[Diagnostic]]]


def plan_file(document: Document, diagnostics: Sequence[Diagnostic], unsafe: bool, relint: Relint) -> FilePlan:
    """Apply the file's fixes pass by pass; `relint(text, path)` lints a new text of the file."""
    plan = FilePlan(document.path, document, document.text)
    fixes = _fixes_of(diagnostics, unsafe)
    if not fixes:
        return plan
    if document.format == "python":
        plan.skipped = "Python sources are never modified; apply the fixes by hand"
        return plan
    yaml = None
    if document.format == "yaml":
        try:
            yaml = _yaml_dumper(document.text)
        except FixError as error:
            plan.skipped = str(error)
            return plan
    current = document
    seen = {document.text}
    for _ in range(MAX_PASSES):
        new_data = current.data
        rule_of = {id(fix): rule for fix, rule in fixes}
        for fix in choose_fixes([fix for fix, _ in fixes], current.data):
            try:
                new_data = apply_operations(new_data, fix.operations)
            except FixError:
                continue
            plan.fixed += 1
            plan.applied.append((*rule_of[id(fix)], fix))
        if same(new_data, current.data):
            break
        try:
            text = _render(current, new_data, yaml)
        except FixError as error:
            plan.skipped = f"cannot apply the fixes: {error}"
            return plan
        if text in seen:  # a fix that undoes another: stop rather than loop
            break
        seen.add(text)
        relinted, found = relint(text, document.path)
        if relinted is None:
            plan.skipped = "the fixed text no longer parses; nothing written"
            return plan
        plan.new_text = text
        current = relinted
        fixes = _fixes_of(found, unsafe)
        if not fixes:
            break
    return plan


def _fixes_of(diagnostics: Sequence[Diagnostic], unsafe: bool) -> list[tuple[Fix, tuple[str, str]]]:
    """The applicable fixes, in order, with the code and slug of the rule that offers each."""
    return [(d.fix, (d.code, d.slug)) for d in diagnostics if d.fix is not None and (d.fix.safe or unsafe)]


def _render(document: Document, new_data: JSON, yaml: Any) -> str:
    try:
        if yaml is None:
            return JsonRenderer(document).render_document(document.data, new_data)
        tree = yaml.load(document.text)
        double_quotes = document.text.count('"') > document.text.count("'")
        _YamlBuilder(double_quotes).merge(tree, document.data, new_data)
        return _dump(yaml, tree)
    except (KeyError, IndexError, TypeError) as error:
        raise FixError(f"the source does not match its data at {error}") from None


# --------------------------------------------------------------------------------------------------
# Writing


class StaleFileError(FixError):
    """The file changed on disk after it was linted."""


def write_atomically(path: Path, expected: bytes, new: bytes) -> None:
    """Replace `path`'s content by `new` if it still holds `expected`: a temporary file in the same
    folder, flushed, given the file's permission bits and owner, then `os.replace`. A file with other
    hard links is refused (a new inode would leave the other names with the old text), and so is one
    whose owner cannot be kept. A crash leaves the old file intact; the temporary files a killed run
    left beside it are removed on the next write."""
    try:
        current = path.read_bytes()
        status = path.stat()
    except OSError as error:
        raise FixError(f"cannot read {path}: {error.strerror or error}") from None
    if current != expected:
        raise StaleFileError(f"{path} changed on disk since it was linted; not written")
    if status.st_nlink > 1:
        raise FixError(
            f"{path} has {status.st_nlink} hard links; replacing it would leave the other links unfixed; not written"
        )
    for stale in path.parent.glob(f".{glob.escape(path.name)}.*{TEMPORARY_SUFFIX}"):
        with contextlib.suppress(OSError):
            stale.unlink()
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMPORARY_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(new)
            out.flush()
            os.fsync(out.fileno())
        _keep_owner(temporary, path, status)
        os.chmod(temporary, status.st_mode & 0o7777)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


TEMPORARY_SUFFIX = ".schemalint-tmp"


def _keep_owner(temporary: str, path: Path, status: os.stat_result) -> None:
    chown = getattr(os, "chown", None)  # not on Windows, where a new file's owner is the writer anyway
    if chown is None or (status.st_uid, status.st_gid) == (os.stat(temporary).st_uid, os.stat(temporary).st_gid):
        return
    try:
        chown(temporary, status.st_uid, status.st_gid)
    except OSError:
        raise FixError(
            f"{path} belongs to another user (uid {status.st_uid}, gid {status.st_gid}), which the fixed file "
            "could not keep; not written"
        ) from None


def encode_like(text: str, original: bytes) -> bytes:
    """`text` in the encoding (and with the byte-order mark) of the original bytes."""
    for bom, encoding in (
        (codecs.BOM_UTF32_LE, "utf-32-le"),
        (codecs.BOM_UTF32_BE, "utf-32-be"),
        (codecs.BOM_UTF8, "utf-8"),
        (codecs.BOM_UTF16_LE, "utf-16-le"),
        (codecs.BOM_UTF16_BE, "utf-16-be"),
    ):
        if original.startswith(bom):
            return bom + text.encode(encoding)
    return text.encode("utf-8")
