"""Rules about what tools return (output schemas): SL701."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from schemalint.rules.sl701_unbounded_list_result import Options as SL701Options
from schemalint.rules.sl701_unbounded_list_result import UnboundedListResult
from schemalint.testing import run_rule

RECORDS = {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}


def returning(output: Any, description: str = "Lists the shipments of an order.", **parameters: Any) -> dict[str, Any]:
    return {
        "name": "list_shipments",
        "description": description,
        "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}, **parameters}},
        "outputSchema": output,
    }


@pytest.mark.parametrize(
    ("output", "pointer"),
    [
        ({"type": "object", "properties": {"shipments": RECORDS}}, "/0/outputSchema/properties/shipments"),
        (RECORDS, "/0/outputSchema"),  # Gemini `response` may be an array
        ({"type": "ARRAY", "items": {"type": "OBJECT"}}, "/0/outputSchema"),
        ({"type": "object", "properties": {"result": {"type": "array", "items": {"$ref": "#/$defs/S"}}}}, None),
    ],
)
def test_sl701_flags_record_lists_with_nothing_that_bounds_them(output: Any, pointer: str | None) -> None:
    [finding] = run_rule(UnboundedListResult(), [returning(output)])
    assert pointer is None or finding.pointer == pointer


@pytest.mark.parametrize(
    "tool",
    [
        returning({"type": "object", "properties": {"shipments": RECORDS, "total_count": {"type": "integer"}}}),
        returning({"type": "object", "properties": {"shipments": RECORDS, "hasMore": {"type": "boolean"}}}),
        returning({"type": "object", "properties": {"shipments": RECORDS, "nextPageToken": {"type": "string"}}}),
        returning({"type": "object", "properties": {"shipments": {**RECORDS, "maxItems": 100}}}),
        returning(
            {"type": "object", "properties": {"shipments": RECORDS}}, page_size={"type": "integer", "maximum": 50}
        ),
        returning({"type": "object", "properties": {"shipments": RECORDS}}, "Returns the first 25 shipments."),
        returning({"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}}}}),
        returning({"type": "object", "properties": {"shipment": {"type": "object"}}}),
        {"name": "get_order", "description": "One order.", "parameters": {"type": "object"}},
    ],
)
def test_sl701_accepts_bounded_counted_or_continued_lists(tool: dict[str, Any]) -> None:
    assert run_rule(UnboundedListResult(), [tool]) == []


def test_sl701_an_uncapped_limit_is_not_a_bound_and_words_extend() -> None:
    uncapped = returning({"type": "object", "properties": {"shipments": RECORDS}}, limit={"type": "integer"})
    assert len(run_rule(UnboundedListResult(), [uncapped])) == 1
    with_marker = returning({"type": "object", "properties": {"shipments": RECORDS, "watermark": {"type": "string"}}})
    assert len(run_rule(UnboundedListResult(), [with_marker])) == 1
    assert run_rule(UnboundedListResult(SL701Options(extend_continuation_words=("watermark",))), [with_marker]) == []


def _examples(section: str) -> dict[str, Any]:
    docs = UnboundedListResult.docs()
    [block] = re.findall(rf"## {section}\n```json\n(.*?)\n```", docs, re.S)
    example: dict[str, Any] = json.loads(block)
    example["parameters"] = example.pop("inputSchema")
    return example


def test_sl701_docs_example_fires_and_its_fix_does_not() -> None:
    assert len(run_rule(UnboundedListResult(), [_examples("Example")])) == 1
    assert run_rule(UnboundedListResult(), [_examples("Use instead")]) == []
