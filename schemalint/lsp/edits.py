"""What an editor needs beyond diagnostics, without any LSP library: client positions, fixes as text
edits (from the shared fix applier), and disable comments.

schemalint positions are 1-based lines and 1-based columns counted in code points (see model.Span).
LSP positions are 0-based and count columns in the negotiated encoding: UTF-16 code units unless the
client offered another, so a character outside the BMP (an emoji) is two units wide there.
"""

from __future__ import annotations

import io
import re
import tokenize
from bisect import bisect_right
from dataclasses import dataclass
from functools import cached_property

from schemalint.diagnostics import Diagnostic
from schemalint.loaders import Document, LoadError
from schemalint.model import Span

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
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
        first_break = _LINE_BREAK.search(text)
        self.newline = first_break.group() if first_break else "\n"

    @cached_property
    def lines(self) -> list[str]:
        return _LINE_BREAK.split(self.text)

    @cached_property
    def starts(self) -> list[int]:
        return [0, *(match.end() for match in _LINE_BREAK.finditer(self.text))]

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

    def point(self, offset: int) -> Point:
        """The (line, column) of a character offset."""
        line = bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1


def fix_edits(document: Document, diagnostic: Diagnostic) -> list[TextEdit] | None:
    """The diagnostic's safe fix as one minimal text edit, or None when there is none to offer.

    The fix applier (schemalint.fixes, the one `check --fix` uses) produces the fixed text: JSON
    re-rendered with every untouched byte kept, YAML through a verified round trip, Python never.
    The edit is the span where the old and new texts differ, so the editor keeps its cursor and undo.
    """
    from schemalint.fixes import plan_file
    from schemalint.loaders.discover import parse_document

    def reparse(text: str, path: str) -> tuple[Document | None, list[Diagnostic]]:
        try:
            return parse_document(text, path), []  # one pass: only this diagnostic's fix
        except (LoadError, RecursionError):
            return None, []

    plan = plan_file(document, [diagnostic], unsafe=False, relint=reparse)
    if not plan.changed:
        return None
    return [difference(document.text, plan.new_text)]


def difference(old: str, new: str) -> TextEdit:
    """One edit that turns `old` into `new`: everything between their common prefix and suffix."""
    limit = min(len(old), len(new))
    prefix = 0
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
        suffix += 1
    lines = SourceLines(old)
    return TextEdit(lines.point(prefix), lines.point(len(old) - suffix), new[prefix : len(new) - suffix])


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
