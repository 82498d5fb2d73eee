"""`json_report(value)`: the text of `json.dumps(value, indent=2, ensure_ascii=False, default=str) + "\\n"`.

With an indent, the json module uses its pure-Python encoder; orjson writes the same text far
faster, so it writes the report wherever its text is certainly the same:

- what orjson refuses (integers beyond 64 bits, non-string keys, lone surrogates, sets, and the
  dataclasses and dates it is told to pass through, which json writes with `str`) goes to json;
- orjson spells floats below 1e-4 differently (`1e-7`, `0.0000999`; json writes `1e-07`,
  `9.99e-05`): a text that may hold one (or a look-alike in a string) goes to json too.

Two differences remain, neither reachable from schemalint's own data: NaN and infinities come out as
`null` (json writes `NaN` and `Infinity`, which are not JSON; the loaders refuse them in input),
and a plain `enum.Enum` member as its value (json writes `str(member)`; enums with a str or int
base, like all of schemalint's, come out alike).
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

_OPTIONS = orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE | orjson.OPT_PASSTHROUGH_DATACLASS
_OPTIONS |= orjson.OPT_PASSTHROUGH_DATETIME
#: a one-digit negative exponent (json pads it: `1e-07`); a literal start keeps the search fast
_SHORT_NEGATIVE_EXPONENT = re.compile(rb"e-[0-9](?![0-9])")


def json_report(value: Any) -> str | bytes:
    """The report's text, as orjson's UTF-8 bytes when orjson wrote it: a report is written out
    as it is (`write_reports`), not decoded only to be encoded again."""
    try:
        written = orjson.dumps(value, option=_OPTIONS)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        written = None
    if written is None or _may_hold_small_float(written):
        return json.dumps(value, indent=2, ensure_ascii=False, default=str) + "\n"
    return written


def _may_hold_small_float(text: bytes) -> bool:
    """Whether orjson may have written a float below 1e-4 (or a string looks like one)."""
    if b"0.0000" in text:
        return True
    return any(
        match.start() > 0 and text[match.start() - 1 : match.start()].isdigit()
        for match in _SHORT_NEGATIVE_EXPONENT.finditer(text)
    )
