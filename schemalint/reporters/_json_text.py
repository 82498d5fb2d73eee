"""`dumps_indented(value)`: the text of `json.dumps(value, indent=2, ensure_ascii=False, default=str)`, fast.

With an indent, the json module uses its pure-Python encoder (about 2 s for 69,000 findings). orjson
writes the same indented text about ten times faster. Where the two could differ, the json module
is used instead, so the bytes stay the same:

- orjson refuses integers beyond 64 bits, non-string keys and lone surrogates: it raises.
- orjson spells floats below 1e-4 differently (`1e-7`, `0.0000999`; json writes `1e-07`,
  `9.99e-05`): such a number in the output (or a look-alike in a string) is found by two searches.
- subclasses of dict, list, tuple, str, int and float, dataclasses and dates go through `_default`,
  which gives them the form json gives them.

Two differences remain, neither reachable from schemalint's own data: NaN and infinities come out as
`null` (json writes `NaN` and `Infinity`, which are not JSON; the loaders refuse them in input), and
a plain `enum.Enum` member as its value (json writes `str(member)`; enums with a str or int base,
like all of schemalint's, come out alike).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from schemalint.diagnostics import Diagnostic
    from schemalint.loaders import Document
    from schemalint.reporters import Reporter

#: a one-digit negative exponent (json pads it: `1e-07`); a literal start keeps the search fast
_SHORT_NEGATIVE_EXPONENT = re.compile(rb"e-[0-9](?![0-9])")


def _default(value: Any) -> Any:
    """What json makes of the values orjson hands back (subclasses and everything `default=str` covers)."""
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, bool):  # not reached (orjson writes bools), listed so ints below stay ints
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return str(value)


def dumps_indented(value: Any) -> str:
    """`json.dumps(value, indent=2, ensure_ascii=False, default=str)`, byte for byte (see the module docs)."""
    written = _orjson_indented(value, newline=False)
    return _stdlib(value) if written is None else written.decode()


def json_report(value: Any) -> str | bytes:
    """`dumps_indented(value) + "\\n"`, as orjson's UTF-8 bytes when orjson wrote it: a report is written
    out as it is (`write_reports`), where decoding its 50 MB for 70,000 findings only to encode them
    again, and appending the newline to a copy, took a third as long as writing them."""
    written = _orjson_indented(value, newline=True)
    return _stdlib(value) + "\n" if written is None else written


def decoded(render_encoded: Callable[[Sequence[Diagnostic], Mapping[str, Document], bool], str | bytes]) -> Reporter:
    """The `render` (text) of a reporter whose `render_encoded` gives its report as text or as UTF-8 bytes."""

    def render(diagnostics: Sequence[Diagnostic], documents: Mapping[str, Document], color: bool = False) -> str:
        report = render_encoded(diagnostics, documents, color)
        return report.decode() if isinstance(report, bytes) else report

    return render


def _orjson_indented(value: Any, newline: bool) -> bytes | None:
    """orjson's indented text of `value` (UTF-8), or None where it may differ from the json module's."""
    try:
        import orjson
    except ImportError:  # pragma: no cover - orjson is a dependency; still correct without it
        return None
    options = (
        orjson.OPT_INDENT_2
        | orjson.OPT_PASSTHROUGH_SUBCLASS
        | orjson.OPT_PASSTHROUGH_DATACLASS
        | orjson.OPT_PASSTHROUGH_DATETIME
    )
    if newline:
        options |= orjson.OPT_APPEND_NEWLINE
    try:
        written = orjson.dumps(value, default=_default, option=options)
    except (TypeError, orjson.JSONEncodeError):
        return None
    return None if _may_hold_small_float(written) else written


def _may_hold_small_float(text: bytes) -> bool:
    """Whether orjson may have written a float below 1e-4 (or a string looks like one)."""
    if b"0.0000" in text:
        return True
    return any(
        match.start() > 0 and text[match.start() - 1 : match.start()].isdigit()
        for match in _SHORT_NEGATIVE_EXPONENT.finditer(text)
    )


def _stdlib(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)
