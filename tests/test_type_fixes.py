"""The fixes of SL309 (type spellings), SL312 (a type the default makes certain) and SL306 (`maxItems`,
unsafe), and `--show-fixes`: each through the command line on real files, JSON and YAML."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from schemalint.cli import main
from schemalint.engine import LintOptions, lint_source


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def fixes_of(data: Any, code: str, name: str = "tools.json") -> list[Any]:
    """The fix of each `code` finding on the tools in `data` (None where the finding has none)."""
    result = lint_source(json.dumps(data), name, LintOptions(no_config=True, select=(code,)))
    return [d.fix for d in result.diagnostics if d.code == code]


def tool(properties: dict[str, Any], root_type: Any = "object") -> list[dict[str, Any]]:
    return [
        {
            "name": "find_restaurant",
            "description": "Find restaurants near a point.",
            "parameters": {"type": root_type, "properties": properties, "additionalProperties": False},
        }
    ]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --------------------------------------------------------------------------------------------------
# SL309


@pytest.mark.parametrize(
    ("spelt", "right"),
    [
        ("OBJECT", "object"),
        ("String", "string"),
        ("dict", "object"),
        ("map", "object"),
        ("float", "number"),
        ("double", "number"),
        ("int", "integer"),
        ("long", "integer"),
        ("str", "string"),
        ("bool", "boolean"),
        ("list", "array"),
        ("tuple", "array"),
        ("None", "null"),
    ],
)
def test_type_spellings_get_a_safe_fix(spelt: str, right: str) -> None:
    (fix,) = fixes_of(tool({"size": {"type": spelt, "description": "Size."}}), "SL309")
    assert fix is not None and fix.safe
    assert [(op.op, op.path, op.value) for op in fix.operations] == [
        ("replace", "/0/parameters/properties/size/type", right)
    ]


def test_any_and_unknown_names_get_no_fix() -> None:
    found = fixes_of(tool({"a": {"type": "any"}, "b": {"type": "varchar"}}), "SL309")
    assert found == [None, None]


def test_other_invalid_schema_findings_get_no_fix() -> None:
    found = fixes_of(tool({"n": {"type": "integer", "default": "ten", "minimum": "1"}}), "SL309")
    assert len(found) == 2 and found == [None, None]


def test_gemini_upper_case_types_are_not_findings() -> None:
    gemini = {
        "function_declarations": [
            {
                "name": "find_restaurant",
                "description": "Find restaurants near a point.",
                "parameters": {"type": "OBJECT", "properties": {"city": {"type": "STRING"}}},
            }
        ]
    }
    assert fixes_of(gemini, "SL309", "gemini_tools.json") == []


def test_a_list_of_types_is_respelt_whole_without_repeats(project: Path) -> None:
    path = project / "tools.json"
    path.write_text(
        json.dumps(tool({"tags": {"type": ["str", "null", "String"], "description": "Tags."}}), indent=2) + "\n"
    )
    code, _, err = run("check", "tools.json", "--fix", "--select", "SL309", "--no-config")
    assert code == 0, err
    fixed = json.loads(path.read_text())[0]["parameters"]["properties"]["tags"]
    assert fixed["type"] == ["string", "null"]


JSON_TOOLS = """\
[
\t{
\t\t"name": "find_restaurant",
\t\t"description": "Find restaurants near a point.",
\t\t"parameters": {
\t\t\t"type": "OBJECT",
\t\t\t"properties": {
\t\t\t\t"lat":   {"type": "float", "description": "Latitude, degrees."},
\t\t\t\t"open": {"type": "bool", "description": "Only open ones."}
\t\t\t},
\t\t\t"additionalProperties": false
\t\t}
\t}
]
"""


def test_json_type_fixes_touch_only_the_type_values(project: Path) -> None:
    path = project / "tools.json"
    path.write_text(JSON_TOOLS)
    code, _, err = run("check", "tools.json", "--fix", "--select", "SL309", "--no-config")
    assert code == 0, err
    assert "Fixed 3 finding(s) in 1 file(s)." in err
    expected = JSON_TOOLS.replace('"OBJECT"', '"object"').replace('"float"', '"number"').replace('"bool"', '"boolean"')
    assert path.read_text() == expected


YAML_TOOLS = """\
# restaurant tools (comment kept)
tools:
  - name: find_restaurant   # trailing comment kept
    description: 'Find restaurants near a point.'
    inputSchema:
      type: object
      additionalProperties: false
      properties:
        lat: {type: float, description: "Latitude, degrees."}
        cuisine:
          type: str   # respelt
          description: Cuisine name.
        mode:
          description: How hard to search.
          default: fast
"""


def test_yaml_fixes_keep_comments_and_quoting(project: Path) -> None:
    path = project / "tools.yaml"
    path.write_text(YAML_TOOLS)
    code, _, err = run("check", "tools.yaml", "--fix", "--select", "SL309,SL312", "--no-config")
    assert code == 0, err
    assert path.read_text() == YAML_TOOLS.replace("type: float", "type: number").replace(
        "type: str   # respelt",
        "type: string # respelt",  # the comment keeps its column
    ).replace("          default: fast\n", "          default: fast\n          type: string\n")
    assert run("check", "tools.yaml", "--select", "SL309,SL312", "--no-config")[0] == 0


# --------------------------------------------------------------------------------------------------
# SL312


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"default": "fast"}, "string"),
        ({"default": True}, "boolean"),
        ({"default": ["a"]}, "array"),
        ({"default": {"a": 1}}, "object"),
        ({"default": 0.5}, "number"),
        ({"default": "a", "examples": ["b", "c"]}, "string"),
    ],
)
def test_a_default_that_tells_the_type_gets_a_safe_fix(schema: dict[str, Any], expected: str) -> None:
    (fix,) = fixes_of(tool({"mode": {"description": "Mode.", **schema}}), "SL312")
    assert fix is not None and fix.safe
    assert [(op.op, op.path, op.value) for op in fix.operations] == [
        ("add", "/0/parameters/properties/mode/type", expected)
    ]


@pytest.mark.parametrize(
    "schema",
    [
        {},  # nothing to go by
        {"default": 10},  # integer or number?
        {"default": 2.0},
        {"default": None},
        {"default": "a", "examples": [1]},  # the values disagree
        {"examples": ["a"]},  # examples alone do not bind the owner
    ],
)
def test_a_default_that_leaves_a_choice_gets_no_fix(schema: dict[str, Any]) -> None:
    assert fixes_of(tool({"mode": {"description": "Mode.", **schema}}), "SL312") == [None]


# --------------------------------------------------------------------------------------------------
# SL306


def test_max_items_is_an_unsafe_fix(project: Path) -> None:
    path = project / "tools.json"
    data = tool(
        {
            "ids": {"type": "array", "items": {"type": "string"}, "description": "Order ids."},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 200, "description": "Tags."},
        }
    )
    path.write_text(json.dumps(data, indent=2) + "\n")
    before = path.read_text()
    code, _, err = run("check", "tools.json", "--fix", "--select", "SL306", "--no-config", "--fail-on", "info")
    assert code == 1 and path.read_text() == before  # unsafe: --fix alone leaves it
    code, _, err = run("check", "tools.json", "--fix", "--unsafe-fixes", "--select", "SL306", "--no-config")
    assert code == 0, err
    fixed = json.loads(path.read_text())[0]["parameters"]["properties"]
    assert fixed["ids"]["maxItems"] == 100
    assert fixed["tags"]["maxItems"] == 200  # never below minItems


def test_max_items_fix_takes_the_configured_bound(project: Path) -> None:
    (project / "tools.json").write_text(json.dumps(tool({"ids": {"type": "array", "description": "Ids."}})))
    (project / ".schemalint.toml").write_text("[rules.SL306]\nfix-max-items = 25\n")
    code, _, err = run("check", "tools.json", "--fix", "--unsafe-fixes", "--select", "SL306")
    assert code == 0, err
    assert json.loads((project / "tools.json").read_text())[0]["parameters"]["properties"]["ids"]["maxItems"] == 25


def test_a_result_count_gets_no_fix() -> None:
    assert fixes_of(tool({"limit": {"type": "integer", "description": "How many results to return."}}), "SL306") == [
        None
    ]


# --------------------------------------------------------------------------------------------------
# --show-fixes


def test_show_fixes_lists_per_rule_what_fix_would_do(project: Path) -> None:
    data = tool(
        {
            "lat": {"type": "float", "description": "Latitude."},
            "open": {"type": "bool", "description": "Only open ones."},
            "mode": {"description": "Mode.", "default": "fast"},
            "ids": {"type": "array", "items": {"type": "string"}, "description": "Ids."},
        }
    )
    path = project / "tools.json"
    path.write_text(json.dumps(data, indent=2))
    before = path.read_text()
    code, _, err = run("check", "tools.json", "--show-fixes", "--no-config", "--select", "SL306,SL309,SL312")
    assert code == 1
    assert path.read_text() == before
    lines = err.splitlines()
    assert lines[0] == "--fix would fix 3 finding(s):"
    assert lines[1].split() == ["2", "SL309", "invalid-schema", "safe"]
    assert lines[2].split() == ["1", "SL312", "missing-type", "safe"]
    assert "add --unsafe-fixes to list them" in err

    code, _, err = run("check", "tools.json", "--show-fixes", "--unsafe-fixes", "--no-config", "-q")
    assert "--fix --unsafe-fixes would fix" in err
    assert any(line.split() == ["1", "SL306", "unbounded-collection", "unsafe"] for line in err.splitlines())

    code, _, err = run("check", "tools.json", "--fix", "--show-fixes", "--no-config", "--select", "SL309,SL312")
    assert code == 0, err
    assert "Fixed 3 finding(s):" in err
    assert run("check", "tools.json", "--show-fixes", "--no-config", "--select", "SL309,SL312")[2].startswith(
        "--fix would fix 0 finding(s)."
    )


def test_show_fixes_refuses_against(project: Path) -> None:
    code, _, err = run("check", "--against", "HEAD", "--show-fixes")
    assert code == 2 and "--show-fixes" in err
