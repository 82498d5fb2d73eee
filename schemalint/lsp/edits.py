"""What an editor needs beyond diagnostics, without any LSP library: client positions, fixes as text
edits, and disable comments.

schemalint positions are 1-based lines and 1-based columns counted in code points (see model.Span).
LSP positions are 0-based and count columns in the negotiated encoding: UTF-16 code units unless the
client offered another, so a character outside the BMP (an emoji) is two units wide there.
"""

from __future__ import annotations

import copy
import io
import json
import re
import tokenize
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from schemalint.diagnostics import Fix, PatchOperation
from schemalint.loaders import Document, LoadError
from schemalint.model import JSON, Span, split_pointer

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_PLAIN_YAML_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
_DISABLE_COMMENT = re.compile(r"^(?P<indent>\s*)#\s*schemalint:\s*disable=(?P<codes>[A-Za-z0-9_,\s-]+?)\s*$")

#: (line, column) as in Span: 1-based, columns in code points
Point = tuple[int, int]


@dataclass(frozen=True)
class TextEdit:
    """Replace the text from `start` to `end` (end-exclusive) with `new_text`."""

    start: Point
    end: Point
    new_text: str


class SourceLines:
    """A text's lines, to turn schemalint positions into client positions and offsets."""

    def __init__(self, text: str) -> None:
        self.text = text
        #: in ASCII text a column is the same number in every encoding: no line needs to be looked at
        self.ascii = text.isascii()
        self._lines: list[str] | None = None
        self._starts: list[int] | None = None
        first_break = _LINE_BREAK.search(text)
        self.newline = first_break.group() if first_break else "\n"

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = _LINE_BREAK.split(self.text)
        return self._lines

    @property
    def starts(self) -> list[int]:
        if self._starts is None:
            self._starts = [0]
            self._starts.extend(match.end() for match in _LINE_BREAK.finditer(self.text))
        return self._starts

    def line_text(self, line: int) -> str:
        return self.lines[line - 1] if 1 <= line <= len(self.lines) else ""

    def client_position(self, line: int, column: int, encoding: str = "utf-16") -> tuple[int, int]:
        """0-based (line, character) in the client's units; clamped into the text."""
        if self.ascii and line <= len(self.starts):
            line_end = self.starts[line] if line < len(self.starts) else len(self.text) + 1
            return max(line, 1) - 1, max(min(column, line_end - self.starts[max(line, 1) - 1]), 1) - 1
        if line > len(self.lines):
            return len(self.lines) - 1, self.units(self.lines[-1], encoding)
        line = max(line, 1)
        prefix = self.line_text(line)[: max(column, 1) - 1]
        return line - 1, self.units(prefix, encoding)

    def client_range(self, span: Span, encoding: str = "utf-16") -> tuple[tuple[int, int], tuple[int, int]]:
        return self.client_position(span.line, span.column, encoding), self.client_position(
            span.end_line, span.end_column, encoding
        )

    @staticmethod
    def units(text: str, encoding: str) -> int:
        if encoding == "utf-8":
            return len(text.encode("utf-8", "surrogatepass"))
        if encoding == "utf-32":
            return len(text)
        return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)

    def offset(self, point: Point) -> int:
        line, column = point
        line = min(max(line, 1), len(self.starts))
        return min(self.starts[line - 1] + column - 1, len(self.text))

    def apply(self, edits: Sequence[TextEdit]) -> str:
        """The text after the edits (non-overlapping; edits at the same place keep their order)."""
        text = self.text
        placed = sorted(enumerate(edits), key=lambda item: (self.offset(item[1].start), item[0]), reverse=True)
        for _, edit in placed:
            text = text[: self.offset(edit.start)] + edit.new_text + text[self.offset(edit.end) :]
        return text


def fix_edits(document: Document, fix: Fix) -> list[TextEdit] | None:
    """A fix as minimal text edits on a JSON or YAML document, or None when it cannot be expressed safely.

    Supported: `add` of a key to an existing object, `replace` of an existing value. The edited text is
    parsed again and must give exactly the patched data, so a fix is never offered that would corrupt
    the file or do something else than it says.
    """
    if document.format not in ("json", "yaml"):
        return None
    lines = SourceLines(document.text)
    edits: list[TextEdit] = []
    for operation in fix.operations:
        edit = _operation_edit(document, lines, operation)
        if edit is None:
            return None
        edits.append(edit)
    expected = apply_patch(document.data, fix.operations)
    if expected is None:
        return None
    from schemalint.engine import parse_document

    try:
        edited = parse_document(lines.apply(edits), document.path)
    except (LoadError, RecursionError):
        return None
    return edits if edited.data == expected else None


def _operation_edit(document: Document, lines: SourceLines, operation: PatchOperation) -> TextEdit | None:
    tokens = split_pointer(operation.path)
    if operation.op == "remove" or not tokens:
        return None
    existing = document.positions.locate(operation.path)
    if existing is not None:  # replace (or `add` over an existing member, which JSON Patch defines as replace)
        start, end = (existing.line, existing.column), (existing.end_line, existing.end_column)
        return TextEdit(start, end, _dump(operation.value))
    if operation.op != "add":
        return None
    parent_pointer = operation.path[: operation.path.rfind("/")]
    parent_span = document.positions.locate(parent_pointer)
    if parent_span is None or not isinstance(_value_at(document.data, parent_pointer), Mapping):
        return None
    return _insert_member(document.format, lines, parent_span, tokens[-1], operation.value)


def _insert_member(format_: str, lines: SourceLines, parent: Span, key: str, value: JSON) -> TextEdit:
    start = lines.offset((parent.line, parent.column))
    at = (parent.line, parent.column)
    if lines.text[start : start + 1] == "{":  # JSON object, YAML flow mapping
        member = (
            f"{json.dumps(key, ensure_ascii=False)}: {_dump(value)}" if format_ == "json" else _yaml_member(key, value)
        )
        after = re.match(r"\s*", lines.text[start + 1 :])
        whitespace = after.group() if after else ""
        at = (parent.line, parent.column + 1)
        if lines.text[start + 1 + len(whitespace) : start + 2 + len(whitespace)] == "}":
            return TextEdit(at, at, member)
        if "\n" in whitespace or "\r" in whitespace:
            indent = re.split(r"\r\n|\r|\n", whitespace)[-1]
            return TextEdit(at, at, f"{lines.newline}{indent}{member},")
        return TextEdit(at, at, f"{member}, ")
    # a YAML block mapping starts at its first key: the new key goes before it, at the same column
    return TextEdit(at, at, f"{_yaml_member(key, value)}{lines.newline}{' ' * (parent.column - 1)}")


def _yaml_member(key: str, value: JSON) -> str:
    shown = key if _PLAIN_YAML_KEY.match(key) else json.dumps(key, ensure_ascii=False)
    return f"{shown}: {_dump(value)}"


def _dump(value: JSON) -> str:
    """JSON text, which is also valid YAML flow style."""
    return json.dumps(value, ensure_ascii=False)


def _value_at(data: JSON, pointer: str) -> JSON:
    node = data
    for token in split_pointer(pointer):
        if isinstance(node, Mapping) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node


def apply_patch(data: JSON, operations: Sequence[PatchOperation]) -> JSON | None:
    """RFC 6902 add/replace/remove on a copy of `data`; None when an operation does not apply."""
    result = copy.deepcopy(data)
    for operation in operations:
        tokens = split_pointer(operation.path)
        if not tokens:
            return None
        parent = _value_at(result, operation.path[: operation.path.rfind("/")])
        last = tokens[-1]
        if isinstance(parent, dict):
            if operation.op == "remove":
                if last not in parent:
                    return None
                del parent[last]
            elif operation.op == "replace" and last not in parent:
                return None
            else:
                parent[last] = copy.deepcopy(operation.value)
        elif isinstance(parent, list):
            index = len(parent) if last == "-" else int(last) if last.isdigit() else -1
            if not 0 <= index <= len(parent) or (operation.op != "add" and index == len(parent)):
                return None
            if operation.op == "add":
                parent.insert(index, copy.deepcopy(operation.value))
            elif operation.op == "replace":
                parent[index] = copy.deepcopy(operation.value)
            else:
                del parent[index]
        else:
            return None
    return result


def disable_comment_edit(text: str, format_: str, line: int, code: str) -> TextEdit:
    """`# schemalint: disable=CODE` on its own line before `line` (YAML, Python).

    An existing disable comment right there gets the code added; in Python, a line inside a
    multi-line string moves the comment before the string, where it is a comment and not text.
    """
    lines = SourceLines(text)
    if format_ == "python":
        line = _line_outside_strings(text, line)
    previous = _DISABLE_COMMENT.match(lines.line_text(line - 1)) if line > 1 else None
    if previous is not None:
        codes = [c.strip() for c in previous.group("codes").split(",") if c.strip()]
        if code in codes:
            codes.remove(code)
        updated = f"{previous.group('indent')}# schemalint: disable={','.join([*codes, code])}"
        return TextEdit((line - 1, 1), (line - 1, len(lines.line_text(line - 1)) + 1), updated)
    target = lines.line_text(line)
    indent = target[: len(target) - len(target.lstrip())]
    return TextEdit((line, 1), (line, 1), f"{indent}# schemalint: disable={code}{lines.newline}")


def _line_outside_strings(text: str, line: int) -> int:
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.STRING and token.start[0] < line <= token.end[0]:
                return token.start[0]
    except (tokenize.TokenError, SyntaxError):
        pass
    return line
