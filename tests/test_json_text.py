"""`dumps_indented` writes exactly what `json.dumps(indent=2, ensure_ascii=False, default=str)` writes."""

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
from schemalint.reporters._json_text import dumps_indented, json_report

from .strategies import json_values


def reference(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


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
    assert dumps_indented(value) == reference(value)


@settings(max_examples=300, deadline=None)
@given(json_values | st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=6))
def test_any_json_value(value: Any) -> None:
    assert dumps_indented(value) == reference(value)


@pytest.mark.parametrize("value", TRICKY, ids=repr)
def test_a_report_is_the_text_and_a_newline_as_utf8_bytes_or_as_text(value: Any) -> None:
    report = json_report(value)
    assert isinstance(report, bytes) == (_json_text._orjson_indented(value, newline=True) is not None)
    assert (report.decode() if isinstance(report, bytes) else report) == reference(value) + "\n"


def test_reports_in_bytes_are_written_as_they_are() -> None:
    assert json_report([{"a": "名前"}]) == '[\n  {\n    "a": "名前"\n  }\n]\n'.encode()
    assert json_report([1e-7]) == "[\n  1e-07\n]\n"  # the json module's text: orjson spells it 1e-7


def test_the_documented_differences() -> None:
    # json would write NaN and Infinity, which are not JSON
    assert json.loads(dumps_indented([float("nan"), float("inf"), -float("inf")])) == [None, None, None]
    # json would write str(member), "Colour.RED"; enums with a str or int base (all of schemalint's) are the same
    assert dumps_indented([Colour.RED]) == "[\n  1\n]"


@pytest.mark.parametrize("text", ["1e-7", "-0.0000999", "[\n  2.5e-9\n]"])
def test_floats_orjson_spells_differently_are_noticed(text: str) -> None:
    assert _json_text._may_hold_small_float(text.encode())


@pytest.mark.parametrize("text", ["1e-07", "1e-10", "0.0001", '"e-mail"', "1e+16"])
def test_floats_both_spell_alike_are_not_flagged(text: str) -> None:
    assert not _json_text._may_hold_small_float(text.encode())


def test_without_orjson_the_json_module_writes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_orjson(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "orjson":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_orjson)
    value = {"a": [1, {"b": 1e-7}], "c": float("nan")}
    assert dumps_indented(value) == reference(value)
