"""JSON output: a list of diagnostic objects, documented in docs/json-output.md."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from schemalint.diagnostics import Diagnostic
from schemalint.loaders import Document
from schemalint.reporters._json_text import json_report


def render(diagnostics: Sequence[Diagnostic], documents: Mapping[str, Document], color: bool = False) -> str | bytes:
    return json_report([d.to_json() for d in diagnostics])
