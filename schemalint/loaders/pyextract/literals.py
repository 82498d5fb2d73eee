"""Literal tool definitions written in Python (placeholder until dialect detection lands)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from schemalint.diagnostics import Finding
from schemalint.loaders.pyextract.source import SourceModule
from schemalint.model import Span, Tool


@dataclass
class LiteralTools:
    data: list[Any] = field(default_factory=list)
    spans: dict[str, tuple[Span, Span]] = field(default_factory=dict)
    tools: list[Tool] = field(default_factory=list)
    notes: list[tuple[str, Finding]] = field(default_factory=list)


def literal_tools(source: SourceModule, path: str, offset: int) -> list[LiteralTools]:
    return []
