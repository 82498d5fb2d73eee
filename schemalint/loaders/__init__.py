"""Loaders turn a file's text into a Document: data plus a map from JSON pointers to source spans."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

from schemalint.model import JSON, Span

if TYPE_CHECKING:
    from schemalint.diagnostics import Finding
    from schemalint.model import Tool

SourceFormat = Literal["json", "jsonl", "yaml", "python"]


class LoadError(Exception):
    """The file cannot be read or parsed; becomes an SL002 finding at (line, column)."""

    def __init__(self, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


class PositionIndex(Protocol):
    def locate(self, pointer: str, key: bool = False) -> Span | None:
        """The span of the value at `pointer` (of its key when `key`), or None if it does not exist."""


class NoPositions:
    """For documents without a source text (e.g. a live MCP server without a snapshot)."""

    def locate(self, pointer: str, key: bool = False) -> Span | None:
        return None


@dataclass
class Document:
    path: str
    text: str
    data: JSON
    format: SourceFormat
    positions: PositionIndex = field(default_factory=NoPositions)
    #: set by loaders that extract tools themselves (Python); otherwise dialect detection runs on `data`
    tools: list[Tool] | None = None
    #: loader findings that are not parse errors, as (rule code, finding): e.g. SL004, what a
    #: Python extractor had to assume
    notes: list[tuple[str, Finding]] = field(default_factory=list)
