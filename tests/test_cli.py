"""The command line end to end: exit codes, formats, options, config errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from schemalint.cli import main

GOOD_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather for a city, in metric units.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string", "description": "City name"}},
            "required": ["city"],
            "additionalProperties": False,
        },
    },
}


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.output


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def test_clean_file_exits_zero(project: Path) -> None:
    write(project / "tools.json", [GOOD_TOOL])
    code, out = run("check", "tools.json", "--select", "SL2,SL3")
    assert code == 0, out
    assert "All clear" in out


def test_error_finding_exits_one_and_prints_location(project: Path) -> None:
    bad = json.loads(json.dumps(GOOD_TOOL))
    bad["function"]["parameters"]["required"] = ["town"]
    write(project / "tools.json", [bad])
    code, out = run("check", "tools.json")
    assert code == 1
    assert "tools.json:16:11: SL309 [error] `required` names `town`" in out
    assert "^~~~~~" in out


def test_fail_on_and_never(project: Path) -> None:
    tool = json.loads(json.dumps(GOOD_TOOL))
    del tool["function"]["parameters"]["additionalProperties"]
    write(project / "tools.json", [tool])
    assert run("check", "tools.json", "--select", "SL303")[0] == 0
    assert run("check", "tools.json", "--select", "SL303", "--fail-on", "warning")[0] == 1
    assert run("check", "tools.json", "--select", "SL303", "--fail-on", "never")[0] == 0


def test_json_output_fields(project: Path) -> None:
    tool = json.loads(json.dumps(GOOD_TOOL))
    del tool["function"]["parameters"]["additionalProperties"]
    write(project / "tools.json", [tool])
    _, out = run("check", "tools.json", "--select", "additional-properties-not-false", "--output-format", "json")
    (finding,) = json.loads(out)
    assert finding["code"] == "SL303" and finding["slug"] == "additional-properties-not-false"
    assert (finding["line"], finding["column"]) == (7, 21)
    assert finding["pointer"] == "/0/function/parameters"
    assert finding["tool"] == "get_weather"
    assert finding["fix"]["operations"] == [
        {"op": "add", "path": "/0/function/parameters/additionalProperties", "value": False}
    ]
    assert set(finding) == {
        "code", "slug", "severity", "message", "path", "line", "column", "end_line", "end_column",
        "pointer", "tool", "data", "fix",
    }  # fmt: skip


def test_parse_error_does_not_stop_other_files(project: Path) -> None:
    (project / "broken.json").write_text('{"tools": [{"name": "a", "parameters": ', encoding="utf-8")
    bad = json.loads(json.dumps(GOOD_TOOL))
    bad["function"]["description"] = ""
    write(project / "ok.json", [bad])
    code, out = run("check", ".", "--output-format", "json")
    codes = {(f["path"], f["code"]) for f in json.loads(out)}
    assert ("broken.json", "SL002") in codes and ("ok.json", "SL201") in codes
    assert code == 1


def test_walked_non_tool_files_are_silent_named_ones_are_sl003(project: Path) -> None:
    write(project / "package.json", {"name": "x", "description": "not a tool"})
    assert run("check", ".")[0] == 0
    code, out = run("check", "package.json", "--fail-on", "warning")
    assert code == 1 and "SL003" in out
    code, out = run("check", "package.json", "--skip-non-tool-files", "--fail-on", "warning")
    assert code == 0 and "SL003" not in out


def test_stdin_with_filename(project: Path) -> None:
    code, out = run(
        "check",
        "-",
        "--stdin-filename",
        "x.yaml",
        "--select",
        "SL201",
        input="- name: a\n  parameters: {type: object}\n",
    )
    assert code == 1 and "x.yaml:1:9: SL201" in out


def test_unknown_rule_and_config_key_exit_two(project: Path) -> None:
    write(project / "tools.json", [GOOD_TOOL])
    code, out = run("check", "--select", "SL999")
    assert code == 2 and "SL999" in out
    (project / ".schemalint.toml").write_text('selct = ["SL3"]\n', encoding="utf-8")
    code, out = run("check", "tools.json")
    assert code == 2 and "unknown key `selct`" in out
    (project / ".schemalint.toml").write_text("[rules.SL301]\nmax-depht = 3\n", encoding="utf-8")
    code, out = run("check", "tools.json")
    assert code == 2 and "unknown option `max-depht`" in out
    (project / ".schemalint.toml").write_text('[rules.SL301]\nmax-depth = "3"\n', encoding="utf-8")
    code, out = run("check", "tools.json")
    assert code == 2 and "max-depth" in out


def test_config_found_upward_applies_options_and_per_file_ignores(project: Path) -> None:
    deep = json.loads(json.dumps(GOOD_TOOL))
    deep["function"]["parameters"]["properties"]["a"] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {"b": {"type": "object", "additionalProperties": False, "properties": {"c": {"type": "string"}}}},
    }
    write(project / "pkg" / "tools" / "t.json", [deep])
    assert "SL301" in run("check", "pkg", "--select", "SL301")[1]
    (project / "pyproject.toml").write_text("[tool.schemalint.rules.nesting-too-deep]\nmax-depth = 3\n")
    assert "SL301" not in run("check", "pkg", "--select", "SL301")[1]
    (project / "pyproject.toml").write_text(
        '[tool.schemalint.per-file-ignores]\n"pkg/tools/t.json#/0/function/parameters/properties/a" = ["SL3"]\n'
    )
    assert "SL301" not in run("check", "pkg", "--select", "SL301")[1]
    (project / "pyproject.toml").write_text(
        '[tool.schemalint.per-file-ignores]\n"pkg/tools/t.json#/0/function/parameters/properties/zzz" = ["SL3"]\n'
    )
    assert "SL301" in run("check", "pkg", "--select", "SL301")[1]


def test_toolsets_group_files_for_cross_tool_rules(project: Path) -> None:
    write(project / "a.json", [GOOD_TOOL])
    write(project / "b.json", [GOOD_TOOL])
    assert "SL104" not in run("check", ".", "--select", "SL104")[1]
    (project / ".schemalint.toml").write_text('[toolsets]\nweather = ["*.json"]\n')
    out = run("check", ".", "--select", "SL104")[1]
    assert "b.json:5:15: SL104" in out


def test_statistics_and_quiet(project: Path) -> None:
    bad = json.loads(json.dumps(GOOD_TOOL))
    bad["function"]["description"] = ""
    write(project / "t.json", [bad, {**bad, "function": {**bad["function"], "name": "other"}}])
    _, out = run("check", "t.json", "--select", "SL201", "--statistics", "-q")
    assert out == "     2  SL201  missing-description\n"  # the counts only, as `ruff check --statistics`
    _, out = run("check", "t.json", "--select", "SL201", "--statistics")
    assert out.splitlines()[1].startswith("Found 2 finding(s) in 1 file(s)")
    _, out = run("check", "t.json", "--select", "SL201", "--statistics", "--output-format", "json")
    assert len(json.loads(out)) == 2  # other formats are written as they are


def test_rule_docs_and_table() -> None:
    code, out = run("rule", "SL301")
    assert code == 0 and "## What it does" in out and "max-depth" in out
    assert run("rule", "nesting-too-deep")[1] == out
    code, out = run("rule")
    assert code == 0 and "SL309  invalid-schema" in out
    assert run("rule", "nope")[0] == 2


def test_export_to_dialect(project: Path) -> None:
    write(project / "t.json", [GOOD_TOOL])
    code, out = run("export", "t.json", "--to", "anthropic")
    assert code == 0
    assert json.loads(out)[0]["input_schema"] == GOOD_TOOL["function"]["parameters"]


def test_missing_path_exits_two(project: Path) -> None:
    assert run("check", "nope.json")[0] == 2


def test_python_dash_m_and_version() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "schemalint", "--version"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and "schemalint" in done.stdout


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b'{"tools": [{"name": "a", "parameters": {"x": "\xff"}}]}', "invalid UTF-8"),
        (b"", "empty"),
        (b"\x00\x01\x02binary parameters\x00", "binary"),
        (b'[{"name": "a", "parameters": {"type": "object", "minimum": NaN}}]', "NaN"),
        (b'{"parameters": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nesting"),
    ],
)
def test_bad_input_is_one_sl002_line_and_other_files_still_lint(project: Path, content: bytes, expected: str) -> None:
    (project / "bad.json").write_bytes(content)
    bad = json.loads(json.dumps(GOOD_TOOL))
    bad["function"]["description"] = ""
    write(project / "ok.json", [bad])
    code, out = run("check", "bad.json", "ok.json", "--output-format", "json")
    findings = json.loads(out)
    (parse_error,) = [f for f in findings if f["path"] == "bad.json"]
    assert parse_error["code"] == "SL002" and expected in parse_error["message"]
    assert parse_error["line"] >= 1 and parse_error["column"] >= 1
    assert any(f["path"] == "ok.json" and f["code"] == "SL201" for f in findings)
    assert code == 1


def test_a_reader_that_stops_early_ends_the_run_quietly(tmp_path: Path) -> None:
    """`schemalint check . | head`: the closed pipe is neither an error message nor a traceback."""
    tools = [{"name": f"t{i}", "description": "x", "parameters": {"type": "object"}} for i in range(400)]
    (tmp_path / "tools.json").write_text(json.dumps(tools, indent=2), encoding="utf-8")
    command = [sys.executable, "-m", "schemalint", "check", "tools.json", "--no-config", "--select", "SL2,SL3"]
    process = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.read(10)
    process.stdout.close()
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=120) == 141, stderr  # 128 + SIGPIPE, as `cat` under `| head`
    assert stderr == ""


def test_stdin_without_a_file_name_detects_yaml(project: Path) -> None:
    yaml_tools = "tools:\n  - name: get_item\n    description: ''\n    input_schema: {type: object}\n"
    code, out = run("check", "-", "--no-config", "--output-format", "json", input=yaml_tools)
    found = json.loads(out)
    assert code == 1 and {f["code"] for f in found} >= {"SL201"}
    assert "SL002" not in {f["code"] for f in found}
    assert {f["path"] for f in found} == {"stdin.yaml"}
    code, out = run("check", "-", "--no-config", "--output-format", "json", input=json.dumps([GOOD_TOOL]))
    assert {f["path"] for f in json.loads(out)} <= {"stdin.json"}


def test_summary_does_not_offer_the_fixes_fix_declined(project: Path) -> None:
    python = "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n\n@mcp.tool()\ndef f(a: str) -> str: ...\n"
    (project / "tools.py").write_text(python, encoding="utf-8")
    open_tool = json.loads(json.dumps(GOOD_TOOL))
    del open_tool["function"]["parameters"]["additionalProperties"]
    write(project / "tools.json", [open_tool])  # one SL303 fix that --fix writes
    _, listed = run("check", "--no-config", "tools.py", "tools.json")
    # SL303 is offered on the Python tool too, but --fix never writes Python: only the JSON fix counts
    assert any(line.startswith("tools.py:") and "SL303" in line for line in listed.splitlines())
    assert " 1 fixable with --fix." in listed
    code, out = run("check", "--no-config", "--fix", "tools.py")
    assert code == 1 and "not fixed: Python sources" in out
    assert "fixable with --fix" not in out


def test_a_tool_table_in_schemalint_toml_says_keys_go_at_the_top(project: Path) -> None:
    write(project / "tools.json", [GOOD_TOOL])
    (project / ".schemalint.toml").write_text('[tool.schemalint]\nselect = ["SL3"]\n', encoding="utf-8")
    code, out = run("check", "tools.json")
    assert code == 2
    assert "unknown key `tool`" in out and "takes the keys at the top level" in out
