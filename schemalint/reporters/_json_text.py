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
from typing import Any

#: a one-digit negative exponent (json pads it: `1e-07`); a literal start keeps the search fast
_SHORT_NEGATIVE_EXPONENT = re.compile(r"e-[0-9](?![0-9])")


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
    try:
        import orjson
    except ImportError:  # pragma: no cover - orjson is a dependency; still correct without it
        return _stdlib(value)
    options = (
        orjson.OPT_INDENT_2
        | orjson.OPT_PASSTHROUGH_SUBCLASS
        | orjson.OPT_PASSTHROUGH_DATACLASS
        | orjson.OPT_PASSTHROUGH_DATETIME
    )
    try:
        text = orjson.dumps(value, default=_default, option=options).decode()
    except (TypeError, orjson.JSONEncodeError):
        return _stdlib(value)
    if _may_hold_small_float(text):
        return _stdlib(value)
    return text


def _may_hold_small_float(text: str) -> bool:
    """Whether orjson may have written a float below 1e-4 (or a string looks like one)."""
    if "0.0000" in text:
        return True
    return any(
        match.start() > 0 and text[match.start() - 1].isdigit() for match in _SHORT_NEGATIVE_EXPONENT.finditer(text)
    )


def _stdlib(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)
