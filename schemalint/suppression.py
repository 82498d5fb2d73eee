"""Dropping findings the user has silenced: per-file-ignores (with an optional JSON pointer)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from schemalint.config import Config, PerFileIgnore
from schemalint.diagnostics import Diagnostic
from schemalint.loaders import Document
from schemalint.loaders.discover import matches_any
from schemalint.rules import match_selector


def _ignored_by(entry: PerFileIgnore, diagnostic: Diagnostic, path: Path, config: Config) -> bool:
    if not matches_any(path, (entry.pattern,), config.root):
        return False
    if entry.pointer is not None and not (
        diagnostic.pointer == entry.pointer or diagnostic.pointer.startswith(entry.pointer.rstrip("/") + "/")
    ):
        return False
    return any(diagnostic.code == rule.code for selector in entry.selectors for rule in match_selector(selector))


def filter_diagnostics(
    diagnostics: Sequence[Diagnostic], document: Document | None, config: Config, path: str
) -> list[Diagnostic]:
    """The diagnostics that no per-file-ignore silences."""
    if not config.per_file_ignores:
        return list(diagnostics)
    file_path = Path(path)
    return [d for d in diagnostics if not any(_ignored_by(e, d, file_path, config) for e in config.per_file_ignores)]
