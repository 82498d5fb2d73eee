"""JSON output: a list of diagnostic objects, documented in docs/json-output.md."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from schemalint.diagnostics import Diagnostic
from schemalint.loaders import Document


def render(diagnostics: Sequence[Diagnostic], documents: Mapping[str, Document], color: bool = False) -> str:
    return json.dumps([d.to_json() for d in diagnostics], indent=2, ensure_ascii=False, default=str) + "\n"
