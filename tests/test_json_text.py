"""`json_report` writes exactly what `json.dumps(indent=2, ensure_ascii=False, default=str)` writes, and a newline."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import json
from collections import OrderedDict, namedtuple
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schemalint.reporters import _json_text
from schemalint.reporters._json_text import json_report

from .strategies import json_values


def reference(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str) + "\n"


def report_text(value: Any) -> str:
    report = json_report(value)
    return report.decode() if isinstance(report, bytes) else report


class Colour(enum.Enum):
    RED = 1


class Level(enum.IntEnum):
    HIGH = 3


class Kind(str, enum.Enum):
    TOOL = "tool"


class Name(str):
    pass


@dataclasses.dataclass
class Point:
    x: int = 1


Pair = namedtuple("Pair", "a b")

TRICKY = [
    None, True, False, 0, -5, 2**63, 2**64, -(2**70), 0.1, -0.0, 1e16, 1e22, 1e300, 5e-324, 1e-4, 9.99e-5, 1e-05,
    1.5e-7, [1e-7], {"a": 2.5e-9}, "", "\x00\x01\x1f\x7f\b\f\n\r\t\u2028\ufeff\\\"/", "名前 🙂", "1e-7", "0.00001",
    [], {}, [[]], [{}], {"a": {}}, {"a": [1, {"b": None, "c": [1.0, "x"]}]}, (1, 2), {1, 2}, b"x",
    {1: 2, None: 3, False: "f", 2.5: 1}, {"x": {3: [1]}}, OrderedDict(a=[1, OrderedDict(b=2)]), Pair(1, [2]),
    Level.HIGH, Kind.TOOL, Name("n"), {"k": Name("v"), "l": Level.HIGH}, Point(), datetime.date(2020, 1, 2),
    {"when": datetime.datetime(2020, 1, 2, 3, 4)}, {"p": Point(), "s": {"a"}},
]  # fmt: skip


@pytest.mark.parametrize("value", TRICKY, ids=repr)
def test_tricky_values(value: Any) -> None:
    assert report_text(value) == reference(value)


@settings(max_examples=300, deadline=None)
@given(json_values | st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=6))
def test_any_json_value(value: Any) -> None:
    assert report_text(value) == reference(value)


def test_reports_in_bytes_are_written_as_they_are() -> None:
    assert json_report([{"a": "名前"}]) == '[\n  {\n    "a": "名前"\n  }\n]\n'.encode()
    assert json_report([1e-7]) == "[\n  1e-07\n]\n"  # the json module's text: orjson spells it 1e-7


def test_the_documented_differences() -> None:
    # json would write NaN and Infinity, which are not JSON
    assert json.loads(json_report([float("nan"), float("inf"), -float("inf")])) == [None, None, None]
    # json would write str(member), "Colour.RED"; enums with a str or int base (all of schemalint's) are the same
    assert json_report([Colour.RED]) == b"[\n  1\n]\n"


@pytest.mark.parametrize("text", ["1e-7", "-0.0000999", "[\n  2.5e-9\n]"])
def test_floats_orjson_spells_differently_are_noticed(text: str) -> None:
    assert _json_text._may_hold_small_float(text.encode())


@pytest.mark.parametrize("text", ["1e-07", "1e-10", "0.0001", '"e-mail"', "1e+16"])
def test_floats_both_spell_alike_are_not_flagged(text: str) -> None:
    assert not _json_text._may_hold_small_float(text.encode())
