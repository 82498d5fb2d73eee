"""Evolutions of composed parameters, one of each kind: what is reported, where, and at what severity."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from schemalint.diff import compare_tools
from schemalint.diff.compare import Change
from schemalint.model import Severity

from .test_composition_oracle import findings, tool


def obj(properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, **extra}


def closed(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return obj(properties, required=required, additionalProperties=False)


def params(**properties: Any) -> dict[str, Any]:
    return obj(properties)


TEXT = {"type": "string"}
NUMBER = {"type": "integer"}
ATTACHMENT = obj({"url": TEXT, "data": TEXT, "name": TEXT})
SHIPPING = obj({"address": TEXT, "store_id": TEXT, "notes": TEXT})
PICKUP = closed({"kind": {"const": "pickup"}, "store_id": TEXT}, ["kind", "store_id"])
COURIER = closed({"kind": {"const": "courier"}, "address": TEXT}, ["kind", "address"])
EVENT = obj({"start_date": TEXT, "end_date": TEXT, "timezone": TEXT})


def all_changes(old: Any, new: Any) -> list[Change]:
    return [c for c, _ in compare_tools([tool(old)], [tool(new)])]


def errors(changes: list[Change]) -> list[Change]:
    return [c for c in changes if c.severity in (None, Severity.ERROR)]


BREAKS: list[tuple[str, Any, Any, str, str, Any]] = [
    (
        "a free object became a union of closed objects",
        params(delivery=SHIPPING),
        params(delivery={"oneOf": [PICKUP, COURIER]}),
        "SL904",
        "/0/inputSchema/properties/delivery/oneOf",
        {"delivery": {"address": "1 Main St"}},
    ),
    (
        "array items must now carry exactly one of two keys",
        params(attachments={"type": "array", "items": ATTACHMENT}),
        params(
            attachments={
                "type": "array",
                "items": {**ATTACHMENT, "oneOf": [{"required": ["url"]}, {"required": ["data"]}]},
            }
        ),
        "SL904",
        "/0/inputSchema/properties/attachments/items/oneOf",
        {"attachments": [{"name": "a.png"}]},
    ),
    (
        "a oneOf alternative added that overlaps an old one",
        params(limit={"oneOf": [NUMBER, TEXT]}),
        params(limit={"oneOf": [NUMBER, TEXT, {"type": "number"}]}),
        "SL904",
        "/0/inputSchema/properties/limit/oneOf",
        {"limit": 5},
    ),
    (
        "if/then added",
        obj({"visibility": {"type": "string", "enum": ["public", "private"]}, "members": {"type": "array"}}),
        obj(
            {"visibility": {"type": "string", "enum": ["public", "private"]}, "members": {"type": "array"}},
            **{"if": {"properties": {"visibility": {"const": "private"}}, "required": ["visibility"]}},
            then={"required": ["members"]},
        ),
        "SL908",
        "/0/inputSchema/then",
        {"visibility": "private"},
    ),
    (
        "dependentRequired added",
        EVENT,
        {**EVENT, "dependentRequired": {"end_date": ["start_date"]}},
        "SL908",
        "/0/inputSchema/dependentRequired",
        {"end_date": "2025-02-01"},
    ),
    (
        "dependentSchemas added",
        EVENT,
        {**EVENT, "dependentSchemas": {"timezone": {"required": ["start_date"]}}},
        "SL908",
        "/0/inputSchema/dependentSchemas",
        {"timezone": "UTC"},
    ),
    (
        "not added",
        EVENT,
        {**EVENT, "not": {"required": ["start_date", "end_date"]}},
        "SL908",
        "/0/inputSchema/not",
        {"start_date": "2025-01-01", "end_date": "2025-02-01"},
    ),
    (
        "an anyOf of required keys added",
        params(id=TEXT, slug=TEXT),
        {**params(id=TEXT, slug=TEXT), "anyOf": [{"required": ["id"]}, {"required": ["slug"]}]},
        "SL904",
        "/0/inputSchema/anyOf",
        {},
    ),
]


@pytest.mark.parametrize(("old", "new", "code", "pointer", "call"), [b[1:] for b in BREAKS], ids=[b[0] for b in BREAKS])
def test_break_is_an_error_that_quotes_a_rejected_value(old: Any, new: Any, code: str, pointer: str, call: Any) -> None:
    assert Draft202012Validator(old).is_valid(call) and not Draft202012Validator(new).is_valid(call)
    [finding] = errors(findings(old, new))
    assert (finding.code, finding.pointer) == (code, pointer)
    assert "which the old schema accepted, is now rejected" in finding.message
    quoted = finding.data["rejected_value"]
    assert quoted is not None


LOOSENINGS: list[tuple[str, Any, Any]] = [
    (
        "an anyOf of required keys removed",
        {**params(id=TEXT, slug=TEXT), "anyOf": [{"required": ["id"]}, {"required": ["slug"]}]},
        params(id=TEXT, slug=TEXT),
    ),
    (
        "alternatives reordered",
        params(delivery={"oneOf": [PICKUP, COURIER]}),
        params(delivery={"oneOf": [COURIER, PICKUP]}),
    ),
    (
        "an anyOf alternative added",
        params(limit={"anyOf": [NUMBER, TEXT]}),
        params(limit={"anyOf": [NUMBER, TEXT, {"type": "null"}, {"type": "boolean"}]}),
    ),
    (
        "a disjoint oneOf alternative added",
        params(limit={"oneOf": [NUMBER, TEXT]}),
        params(limit={"oneOf": [TEXT, NUMBER, {"type": "boolean"}]}),
    ),
    (
        "an allOf part dropped",
        {**EVENT, "allOf": [{"required": ["start_date"]}, {"required": ["timezone"]}]},
        {**EVENT, "allOf": [{"required": ["timezone"]}]},
    ),
    (
        "dependentRequired relaxed",
        {**EVENT, "dependentRequired": {"end_date": ["start_date", "timezone"]}},
        {**EVENT, "dependentRequired": {"end_date": ["start_date"]}},
    ),
    ("dependentRequired dropped", {**EVENT, "dependentRequired": {"end_date": ["start_date"]}}, EVENT),
    (
        "a union flattened into a type list",
        params(ref={"anyOf": [TEXT, NUMBER]}),
        params(ref={"type": ["string", "integer"]}),
    ),
    (
        "a closed union opened into one object",
        params(delivery={"oneOf": [PICKUP, COURIER]}),
        params(delivery=obj({"kind": TEXT, "store_id": TEXT, "address": TEXT})),
    ),
    (
        "an alternative loosened",
        params(delivery={"oneOf": [PICKUP, COURIER]}),
        params(delivery={"oneOf": [{**COURIER, "required": ["kind"]}, PICKUP]}),
    ),
]


@pytest.mark.parametrize(("old", "new"), [c[1:] for c in LOOSENINGS], ids=[c[0] for c in LOOSENINGS])
def test_loosening_is_not_reported_as_breaking(old: Any, new: Any) -> None:
    assert findings(old, new) == []


def test_reordered_alternative_is_compared_with_its_counterpart() -> None:
    old = params(delivery={"oneOf": [PICKUP, COURIER]})
    tightened = {**COURIER, "properties": {**COURIER["properties"], "address": {**TEXT, "maxLength": 200}}}
    [finding] = findings(old, params(delivery={"oneOf": [tightened, PICKUP]}))
    assert finding.code == "SL908"
    assert finding.pointer == "/0/inputSchema/properties/delivery/oneOf/0/properties/address/maxLength"


def test_unprovable_loosening_is_a_warning() -> None:
    """Every object either has `url` or has not: the new `oneOf` takes all, which examples cannot prove."""
    old = params(attachments={"type": "array", "items": ATTACHMENT})
    either = {**ATTACHMENT, "oneOf": [{"required": ["url"]}, {"not": {"required": ["url"]}}]}
    new = params(attachments={"type": "array", "items": either})
    assert all(
        Draft202012Validator(new).is_valid({"attachments": [item]}) for item in ({}, {"url": "u"}, {"data": "d"})
    )
    [finding] = findings(old, new)
    assert finding.severity is Severity.WARNING and "no proof" in finding.message


def test_new_union_is_not_reported_as_a_type_widening_or_removed_parameters() -> None:
    changes = all_changes(params(delivery=SHIPPING), params(delivery={"oneOf": [PICKUP, COURIER]}))
    assert [c.code for c in changes] == ["SL904"]
