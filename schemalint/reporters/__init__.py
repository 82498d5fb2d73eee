"""Output formats. Each reporter turns a list of diagnostics into text; none of them prints."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from schemalint.diagnostics import Diagnostic
from schemalint.loaders import Document

Reporter = Callable[[Sequence[Diagnostic], Mapping[str, Document], bool], str]


def get_reporter(name: str) -> Reporter:
    """The reporter for an --output-format name; imported lazily so unused formats cost nothing."""
    if name == "text":
        from schemalint.reporters.text import render
    elif name == "json":
        from schemalint.reporters.json import render
    else:
        raise KeyError(name)
    return render


FORMATS = ("text", "json")
