"""Rename detection, formatting-only changes, and where removals point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from schemalint.diff import diff
from schemalint.engine import LintOptions

from .conftest import base_tools, mcp_tool, with_defs

ALL = LintOptions(select=("SL9",), no_config=True)


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write_json(path: Path, data: object, **dump: object) -> str:
    path.write_text(json.dumps(data, **dump), encoding="utf-8")  # type: ignore[arg-type]
    return path.name


def test_json_and_yaml_of_the_same_content_differ_in_nothing(here: Path) -> None:
    tools = with_defs(base_tools())
    write_json(here / "tools.json", tools, indent=2)
    yaml = YAML(typ="safe")
    yaml.default_flow_style = False
    with (here / "tools.yaml").open("w", encoding="utf-8") as stream:
        yaml.dump(tools, stream)
    assert diff("tools.json", "tools.yaml", ALL) == []
    assert diff("tools.yaml", "tools.json", ALL) == []


def test_key_order_whitespace_and_quoting_differ_in_nothing(here: Path) -> None:
    tools = with_defs(base_tools())
    write_json(here / "a.json", tools, indent=2)
    write_json(here / "b.json", tools, sort_keys=True, separators=(",", ":"))
    (here / "c.yaml").write_text(
        "- name: 'delete_branch'\n  description: \"Does delete branch for the given repository.\"\n"
        "  inputSchema: {required: [branch], properties: {branch: {type: string}}, type: object}\n",
        encoding="utf-8",
    )
    write_json(here / "d.json", [tools[2]], indent=4, ensure_ascii=True)
    assert diff("a.json", "b.json", ALL) == []
    assert diff("c.yaml", "d.json", ALL) == []


def test_the_same_tools_in_another_dialect_differ_in_nothing(here: Path) -> None:
    tool = mcp_tool("get_me", {"verbose": {"type": "boolean"}}, ["verbose"])
    openai = {
        "type": "function",
        "function": {"name": tool["name"], "description": tool["description"], "parameters": tool["inputSchema"]},
    }
    write_json(here / "mcp.json", [tool])
    write_json(here / "openai.json", [openai])
    assert diff("mcp.json", "openai.json", ALL) == []


def test_rename_is_one_finding_not_a_removal_and_an_addition(here: Path) -> None:
    old = base_tools()
    new = base_tools()
    new[0]["name"] = "search_issues"
    new[0]["inputSchema"]["properties"]["per_page"]["maximum"] = 50  # a change that came with the rename
    write_json(here / "old.json", old, indent=2)
    write_json(here / "new.json", new, indent=2)
    found = diff("old.json", "new.json", ALL)
    assert [d.code for d in found] == ["SL902", "SL908"]
    rename = found[0]
    assert (rename.data["old"], rename.data["new"]) == ("list_issues", "search_issues")
    assert rename.path == "new.json" and rename.pointer == "/0/name"


def test_different_tools_are_not_a_rename(here: Path) -> None:
    old = [mcp_tool("get_me"), mcp_tool("delete_branch", {"branch": {"type": "string"}}, ["branch"])]
    new = [mcp_tool("get_me"), mcp_tool("list_tags", {"page": {"type": "integer"}, "per_page": {"type": "integer"}})]
    write_json(here / "old.json", old)
    write_json(here / "new.json", new)
    assert sorted(d.code for d in diff("old.json", "new.json", ALL)) == ["SL901", "SL916"]


def test_parameterless_tools_need_similar_descriptions_to_be_a_rename(here: Path) -> None:
    old = [mcp_tool("get_me")]
    renamed = [dict(mcp_tool("get_me"), name="whoami")]
    unrelated = [{**mcp_tool("list_gists"), "description": "Lists public gists, newest first."}]
    write_json(here / "old.json", old)
    write_json(here / "renamed.json", renamed)
    write_json(here / "unrelated.json", unrelated)
    assert [d.code for d in diff("old.json", "renamed.json", ALL)] == ["SL902"]
    assert sorted(d.code for d in diff("old.json", "unrelated.json", ALL)) == ["SL901", "SL916"]


def test_removals_point_into_the_old_file(here: Path) -> None:
    old = base_tools()
    new = base_tools()
    del new[2]
    del new[0]["inputSchema"]["properties"]["labels"]
    write_json(here / "old.json", old, indent=2)
    write_json(here / "new.json", new, indent=2)
    found = {d.code: d for d in diff("old.json", "new.json", ALL)}
    removed_tool, removed_parameter = found["SL901"], found["SL906"]
    old_lines = (here / "old.json").read_text(encoding="utf-8").splitlines()
    assert removed_tool.path == "old.json"
    assert '"name": "delete_branch"' in old_lines[removed_tool.span.line - 1]
    assert removed_parameter.path == "old.json"
    assert old_lines[removed_parameter.span.line - 1].strip().startswith('"labels"')
    assert old_lines[removed_parameter.span.line - 1][removed_parameter.span.column - 1 :].startswith('"labels"')


def test_folders_are_matched_by_tool_name_across_files(here: Path) -> None:
    for side in ("v1", "v2"):
        (here / side).mkdir()
    tools = base_tools()
    for tool in tools:
        write_json(here / "v1" / f"{tool['name']}.json", tool, indent=2)
    write_json(here / "v2" / "all.json", tools, indent=2)  # same tools, now in one file, same order
    assert diff("v1", "v2", ALL) == []
    write_json(here / "v2" / "all.json", tools[:2], indent=2)
    [removed] = diff("v1", "v2", ALL)
    assert removed.code == "SL901" and removed.path == "v1/delete_branch.json"


def test_a_side_that_does_not_parse_is_reported_not_raised(here: Path) -> None:
    write_json(here / "old.json", base_tools())
    (here / "new.json").write_text('[{"name": "x", "inputSchema": {', encoding="utf-8")
    found = diff("old.json", "new.json", LintOptions(no_config=True))
    assert [d.code for d in found if d.code == "SL002"] == ["SL002"]


PYTHON_TOOL = '''from mcp.server.fastmcp import FastMCP

mcp = FastMCP("weather")


@mcp.tool()
def get_weather({signature}) -> str:
    """Weather forecast for a city."""
    return ""
'''


def test_python_tool_files_diff_through_the_same_loaders(here: Path) -> None:
    (here / "old.py").write_text(PYTHON_TOOL.format(signature="city: str, days: int = 3"), encoding="utf-8")
    (here / "new.py").write_text(
        PYTHON_TOOL.format(signature="city: str, country: str, days: int = 5"), encoding="utf-8"
    )
    found = diff("old.py", "new.py", ALL)
    assert [(d.code, d.path, d.span.line) for d in found] == [("SL903", "new.py", 7), ("SL913", "new.py", 7)]
    assert diff("old.py", "old.py", ALL) == []


def test_disable_comments_and_per_file_ignores_apply(here: Path) -> None:
    old = "- name: get_me\n  description: Who am I.\n  inputSchema: {type: object}\n"
    new = "- name: get_me\n  description: Who I am.  # schemalint: disable=SL909\n  inputSchema: {type: object}\n"
    (here / "old.yaml").write_text(old, encoding="utf-8")
    (here / "new.yaml").write_text(new, encoding="utf-8")
    (here / "plain.yaml").write_text(new.replace("  # schemalint: disable=SL909", ""), encoding="utf-8")
    assert diff("old.yaml", "new.yaml", ALL) == []
    assert [d.code for d in diff("old.yaml", "plain.yaml", ALL)] == ["SL909"]
    (here / ".schemalint.toml").write_text('[per-file-ignores]\n"plain.yaml" = ["SL909"]\n', encoding="utf-8")
    assert diff("old.yaml", "plain.yaml", LintOptions(select=("SL9",))) == []
