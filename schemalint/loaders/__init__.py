"""Loaders turn a file's text into a Document: data plus a map from JSON pointers to source spans."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from schemalint.model import JSON, Span

if TYPE_CHECKING:
    from schemalint.diagnostics import Finding
    from schemalint.loaders.pyextract.literals import Candidate
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
    #: Python literals that may hold tools: dialect detection appends those that do to `data` and `tools`
    literals: list[Candidate] = field(default_factory=list)
    #: loader findings that are not parse errors, as (rule code, finding): e.g. SL004, what a
    #: Python extractor had to assume
    notes: list[tuple[str, Finding]] = field(default_factory=list)


def read_toml(path: Path) -> dict[str, Any]:
    """The table of a TOML file; LoadError, naming the file, when it cannot be read or parsed."""
    try:
        stat = path.stat()
    except OSError as error:
        raise LoadError(f"{path}: cannot read: {error.strerror}") from None
    # keyed by modification time too, so a long-running editor server sees edits
    return _parse_toml(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=64)
def _parse_toml(path: Path, mtime_ns: int, size: int) -> dict[str, Any]:
    if sys.version_info >= (3, 11):  # imported here: a run without a config file never needs it
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise LoadError(f"{path}: invalid TOML: {error}") from None
    except OSError as error:
        raise LoadError(f"{path}: cannot read: {error.strerror}") from None
