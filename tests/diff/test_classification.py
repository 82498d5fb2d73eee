"""Each SL9xx rule on small evolutions of one tool set: a change that must be reported, and a near miss
that must not be (or must be reported at a lower severity)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from schemalint.diagnostics import Diagnostic
from schemalint.model import Severity

from .conftest import Tools, mcp_tool

Edit = Callable[[Tools], Any]


def props(tools: Tools, index: int = 0) -> dict[str, Any]:
    return tools[index]["inputSchema"]["properties"]


def schema(tools: Tools, index: int = 0) -> dict[str, Any]:
    return tools[index]["inputSchema"]


def filter_def(tools: Tools) -> dict[str, Any]:
    return tools[0]["inputSchema"]["$defs"]["Filter"]


POSITIVE: list[tuple[str, str, Edit, Severity]] = [
    ("SL901", "removed tool", lambda t: t.pop(2), Severity.ERROR),
    ("SL902", "renamed tool", lambda t: t[1].update(name="open_issue"), Severity.ERROR),
    (
        "SL903",
        "new required",
        lambda t: (props(t).update(repo={"type": "string"}), schema(t)["required"].append("repo")),
        Severity.ERROR,
    ),
    (
        "SL903",
        "new required behind $ref",
        lambda t: filter_def(t).update(
            required=["assignee"], properties={**filter_def(t)["properties"], "assignee": {"type": "string"}}
        ),
        Severity.ERROR,
    ),
    ("SL904", "type changed", lambda t: props(t)["per_page"].update(type="string"), Severity.ERROR),
    (
        "SL904",
        "nullable dropped",
        lambda t: props(t).update(since={"type": "string", "format": "date-time"}),
        Severity.ERROR,
    ),
    ("SL904", "type changed in items", lambda t: props(t)["labels"]["items"].update(type="integer"), Severity.ERROR),
    (
        "SL904",
        "type changed behind $ref",
        lambda t: filter_def(t)["properties"]["milestone"].update(type="string"),
        Severity.ERROR,
    ),
    ("SL904", "widened integer to number", lambda t: props(t)["per_page"].update(type="number"), Severity.INFO),
    ("SL905", "enum value removed", lambda t: props(t)["state"].update(enum=["open", "closed"]), Severity.ERROR),
    ("SL906", "parameter removed", lambda t: props(t).pop("labels"), Severity.ERROR),
    ("SL906", "nested parameter removed", lambda t: filter_def(t)["properties"].pop("author"), Severity.ERROR),
    ("SL907", "became required", lambda t: schema(t)["required"].append("state"), Severity.ERROR),
    ("SL908", "maximum lowered", lambda t: props(t)["per_page"].update(maximum=50), Severity.ERROR),
    ("SL908", "minimum raised", lambda t: props(t)["per_page"].update(minimum=5), Severity.ERROR),
    ("SL908", "maxLength in items", lambda t: props(t)["labels"]["items"].update(maxLength=10), Severity.ERROR),
    ("SL908", "minItems added", lambda t: props(t)["labels"].update(minItems=1), Severity.ERROR),
    ("SL908", "a large maximum added", lambda t: props(t)["labels"].update(maxItems=2**31 - 1), Severity.ERROR),
    ("SL908", "pattern added", lambda t: props(t)["owner"].update(pattern="^[a-z]+$"), Severity.ERROR),
    ("SL908", "format added", lambda t: props(t, 1)["title"].update(format="email"), Severity.ERROR),
    ("SL908", "additionalProperties closed", lambda t: schema(t).update(additionalProperties=False), Severity.ERROR),
    (
        "SL909",
        "tool description",
        lambda t: t[1].update(description="Creates an issue; prefer search first."),
        Severity.WARNING,
    ),
    ("SL909", "parameter description", lambda t: props(t)["owner"].update(description="Owner login"), Severity.WARNING),
    ("SL910", "enum value added", lambda t: props(t)["state"]["enum"].append("draft"), Severity.INFO),
    ("SL911", "optional added", lambda t: props(t).update(sort={"type": "string"}), Severity.INFO),
    ("SL912", "order changed", lambda t: t.insert(0, t.pop(1)), Severity.WARNING),
    ("SL913", "default changed", lambda t: props(t)["state"].update(default="all"), Severity.WARNING),
    ("SL913", "default added", lambda t: props(t)["per_page"].update(default=30), Severity.WARNING),
    ("SL914", "stopped being read-only", lambda t: t[0].update(annotations={"readOnlyHint": False}), Severity.ERROR),
    ("SL914", "became destructive", lambda t: t[1]["annotations"].update(destructiveHint=True), Severity.ERROR),
    ("SL914", "title changed", lambda t: t[1]["annotations"].update(title="Create"), Severity.WARNING),
    ("SL915", "output field removed", lambda t: t[0]["outputSchema"]["properties"].pop("url"), Severity.ERROR),
    ("SL915", "output field optional", lambda t: t[0]["outputSchema"].update(required=["count"]), Severity.ERROR),
    (
        "SL915",
        "output type widened",
        lambda t: t[0]["outputSchema"]["properties"]["count"].update(type="number"),
        Severity.ERROR,
    ),
    ("SL915", "output schema removed", lambda t: t[0].pop("outputSchema"), Severity.ERROR),
    (
        "SL916",
        "tool added",
        lambda t: t.append(mcp_tool("merge_pull_request", {"number": {"type": "integer"}})),
        Severity.INFO,
    ),
]

NEGATIVE: list[tuple[str, str, Edit]] = [
    ("SL901", "renamed, not removed", lambda t: t[1].update(name="open_issue")),
    (
        "SL902",
        "removed and an unrelated tool added",
        lambda t: (
            t.pop(2),
            t.append(mcp_tool("get_me", {"verbose": {"type": "boolean"}, "fields": {"type": "array"}})),
        ),
    ),
    ("SL903", "optional parameter added", lambda t: props(t).update(repo={"type": "string"})),
    (
        "SL904",
        "nullable union rewritten as a type array",
        lambda t: props(t).update(since={"type": ["string", "null"], "format": "date-time"}),
    ),
    ("SL905", "enum value added", lambda t: props(t)["state"]["enum"].append("draft")),
    ("SL905", "enum reordered", lambda t: props(t)["state"].update(enum=["all", "closed", "open"])),
    ("SL906", "parameter added", lambda t: props(t).update(sort={"type": "string"})),
    ("SL907", "became optional", lambda t: schema(t).pop("required")),
    ("SL908", "maximum raised", lambda t: props(t)["per_page"].update(maximum=500)),
    ("SL908", "maxLength removed", lambda t: props(t)["labels"]["items"].pop("maxLength")),
    (
        "SL908",
        "safe-integer range added, as zod's int() writes it",
        lambda t: props(t)["labels"].update(maxItems=2**53 - 1),
    ),
    ("SL909", "nothing but required reordered", lambda t: schema(t, 1).update(required=["title"])),
    ("SL910", "enum value removed", lambda t: props(t)["state"].update(enum=["open", "closed"])),
    (
        "SL911",
        "required parameter added",
        lambda t: (props(t).update(repo={"type": "string"}), schema(t)["required"].append("repo")),
    ),
    ("SL912", "tool appended at the end", lambda t: t.append(mcp_tool("get_me"))),
    ("SL913", "default unchanged, written as float", lambda t: props(t)["per_page"].update(maximum=100.0)),
    ("SL914", "annotations reordered", lambda t: t[1].update(annotations={"destructiveHint": False})),
    ("SL915", "output field added", lambda t: t[0]["outputSchema"]["properties"].update(extra={"type": "string"})),
    (
        "SL915",
        "output narrowed to nullable removed",
        lambda t: t[0]["outputSchema"]["properties"]["count"].update(minimum=0),
    ),
    ("SL915", "output enum added (narrowing)", lambda t: t[0]["outputSchema"]["properties"]["url"].update(enum=["a"])),
    ("SL916", "renamed, not added", lambda t: t[1].update(name="open_issue")),
]


@pytest.mark.parametrize(("code", "label", "edit", "severity"), POSITIVE, ids=[f"{c[0]}-{c[1]}" for c in POSITIVE])
def test_change_is_reported(
    evolve: Callable[..., list[Diagnostic]], code: str, label: str, edit: Edit, severity: Severity
) -> None:
    found = [d for d in evolve(edit) if d.code == code]
    assert found, f"{label}: expected {code}"
    assert {d.severity for d in found} == {severity}, [d.message for d in found]


@pytest.mark.parametrize(("code", "label", "edit"), NEGATIVE, ids=[f"{c[0]}-{c[1]}" for c in NEGATIVE])
def test_near_miss_is_not_reported(evolve: Callable[..., list[Diagnostic]], code: str, label: str, edit: Edit) -> None:
    found = [d for d in evolve(edit) if d.code == code]
    assert not found, f"{label}: unexpected {[d.message for d in found]}"


def test_unchanged_tools_report_nothing(evolve: Callable[..., list[Diagnostic]]) -> None:
    assert evolve(lambda t: None) == []


def test_widening_says_it_is_not_breaking(evolve: Callable[..., list[Diagnostic]]) -> None:
    [finding] = evolve(lambda t: props(t)["per_page"].update(type="number"))
    assert "not breaking" in finding.message
    assert finding.data["old"] == "integer" and finding.data["new"] == "number"
    [nullable] = evolve(lambda t: props(t)["owner"].update(type=["string", "null"]))
    assert nullable.severity is Severity.INFO and "not breaking" in nullable.message


def test_output_enum_added_is_a_warning(evolve: Callable[..., list[Diagnostic]]) -> None:
    def with_status(tools: Tools) -> None:
        tools[0]["outputSchema"]["properties"]["status"] = {"type": "string", "enum": ["ok"]}

    assert evolve(lambda t: None, before=with_status) == []
    [finding] = evolve(lambda t: t[0]["outputSchema"]["properties"]["status"]["enum"].append("x"), before=with_status)
    assert (finding.code, finding.severity) == ("SL915", Severity.WARNING)


def test_removed_parameter_says_rejected_or_ignored(evolve: Callable[..., list[Diagnostic]]) -> None:
    def closed(tools: Tools) -> None:
        props(tools).pop("labels")
        schema(tools)["additionalProperties"] = False

    [ignored] = [d for d in evolve(lambda t: props(t).pop("labels")) if d.code == "SL906"]
    [rejected] = [d for d in evolve(closed) if d.code == "SL906"]
    assert "silently ignored" in ignored.message and ignored.data["rejected"] is False
    assert "rejected" in rejected.message and rejected.data["rejected"] is True


def test_findings_carry_old_and_new_values(evolve: Callable[..., list[Diagnostic]]) -> None:
    [finding] = evolve(lambda t: props(t)["per_page"].update(maximum=50))
    assert (finding.data["old"], finding.data["new"], finding.data["keyword"]) == (100, 50, "maximum")
    assert finding.data["parameter"] == "per_page" and finding.tool == "list_issues"
    assert finding.path == "new.json" and finding.pointer == "/0/inputSchema/properties/per_page/maximum"


def test_change_behind_ref_points_at_the_definition(evolve: Callable[..., list[Diagnostic]]) -> None:
    [finding] = evolve(lambda t: filter_def(t)["properties"]["milestone"].update(type="string"))
    assert finding.pointer == "/0/inputSchema/$defs/Filter/properties/milestone/type"
    assert finding.data["parameter"] == "filter.milestone"


def test_annotation_error_explains_why(evolve: Callable[..., list[Diagnostic]]) -> None:
    [finding] = evolve(lambda t: t[0].update(annotations={"readOnlyHint": False}))
    assert "stopped being read-only" in finding.message
    assert finding.data["changed"] == ["readOnlyHint"]


def test_recursive_ref_terminates(evolve: Callable[..., list[Diagnostic]]) -> None:
    def recursive(tools: Tools) -> None:
        filter_def(tools)["properties"]["children"] = {"type": "array", "items": {"$ref": "#/$defs/Filter"}}

    def recursive_and_changed(tools: Tools) -> None:
        recursive(tools)
        filter_def(tools)["properties"]["author"]["maxLength"] = 5

    assert [d.code for d in evolve(recursive)] == ["SL911"]
    assert "SL908" in [d.code for d in evolve(recursive_and_changed)]


def test_select_and_ignore_apply(evolve: Callable[..., list[Diagnostic]]) -> None:
    def many(tools: Tools) -> None:
        tools.pop(2)
        props(tools)["owner"]["description"] = "Owner login"

    assert {d.code for d in evolve(many)} == {"SL901", "SL909"}
    assert {d.code for d in evolve(many, select=("SL901",))} == {"SL901"}


def test_composition_changes(evolve: Callable[..., list[Diagnostic]]) -> None:
    def union(tools: Tools) -> None:
        props(tools)["target"] = {"anyOf": [{"type": "string"}, {"type": "integer"}]}
        schema(tools)["allOf"] = [{"required": ["owner"]}]

    def add_alternative(tools: Tools) -> None:
        props(tools)["target"]["anyOf"].append({"type": "boolean"})

    def drop_alternative(tools: Tools) -> None:
        props(tools)["target"]["anyOf"].pop()

    def add_constraint(tools: Tools) -> None:
        schema(tools)["allOf"].append({"required": ["state"]})

    def drop_constraint(tools: Tools) -> None:
        schema(tools)["allOf"].clear()

    assert evolve(add_alternative, before=union) == []
    assert [d.code for d in evolve(drop_alternative, before=union)] == ["SL904"]
    assert [d.code for d in evolve(add_constraint, before=union)] == ["SL908"]
    assert evolve(drop_constraint, before=union) == []


def test_map_values_are_compared(evolve: Callable[..., list[Diagnostic]]) -> None:
    def with_map(tools: Tools) -> None:
        props(tools)["headers"] = {"type": "object", "additionalProperties": {"type": "string"}}

    [finding] = evolve(lambda t: props(t)["headers"]["additionalProperties"].update(maxLength=10), before=with_map)
    assert (finding.code, finding.data["parameter"]) == ("SL908", "headers.*")


def test_required_order_is_not_a_change(evolve: Callable[..., list[Diagnostic]]) -> None:
    def two_required(tools: Tools) -> None:
        schema(tools)["required"] = ["owner", "state"]

    assert evolve(lambda t: schema(t)["required"].reverse(), before=two_required) == []


def test_tool_inserted_first_warns_about_the_prompt_cache(evolve: Callable[..., list[Diagnostic]]) -> None:
    [appended] = evolve(lambda t: t.append(mcp_tool("get_me")))
    [inserted] = evolve(lambda t: t.insert(0, mcp_tool("get_me")))
    assert "prompt cache" not in appended.message and "before_existing" not in appended.data
    assert "prompt cache" in inserted.message and inserted.data["before_existing"] is True


def test_enum_without_type_implies_its_values_types(evolve: Callable[..., list[Diagnostic]]) -> None:
    def untyped(tools: Tools) -> None:
        props(tools)["state"].pop("type")

    assert evolve(lambda t: props(t)["state"].update(type="string"), before=untyped) == []
    found = evolve(lambda t: props(t)["state"].update(type="integer", enum=[1, 2, 3]), before=untyped)
    [retyped] = [d for d in found if d.code == "SL904"]
    assert retyped.severity is Severity.ERROR and retyped.data["old"] == "string"


def test_gemini_nullable_flag_is_a_nullable_type(evolve: Callable[..., list[Diagnostic]]) -> None:
    def nullable(tools: Tools) -> None:
        props(tools)["owner"]["nullable"] = True

    [finding] = evolve(lambda t: props(t)["owner"].pop("nullable"), before=nullable)
    assert (finding.code, finding.data["old"], finding.data["new"]) == ("SL904", "null | string", "string")
