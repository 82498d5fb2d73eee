"""A lone surrogate (`"\\ud800"` in JSON or YAML, `"\\udc00"` in Python) decodes to a string no UTF-8 can
write. It is reported (SL602, at its string) and printed as its escape in every output format; the other
files of the run are still reported."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from schemalint.reporters import FORMATS

WITNESS = [{"name": "get_item", "description": "", "parameters": {"type": "object"}}]  # SL201 marks "linted"

#: each holds one lone surrogate in a tool name and one in a description, written as the format escapes it
SOURCES = {
    "tools.json": '[{"name": "find_\\udbffrows", "description": "Find the rows \\ud800 that match a filter, '
    'newest first.", "parameters": {"type": "object"}}]',
    "tools.yaml": 'tools:\n  - name: "list_\\udfffitems"\n    description: "List the items \\udc01 of an order, '
    'oldest first."\n    input_schema: {type: object}\n',
    "tools.py": "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\n\n\n"
    "@mcp.tool(name='send_\\ud801mail')\ndef send(to: str) -> str:\n"
    "    '''Send one mail \\udc02 to the address given, and say when it left.'''\n    return to\n",
}


def schemalint(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # strict UTF-8 on both streams, as a terminal or a CI log has them
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "schemalint", *args], cwd=cwd, env=env, capture_output=True, text=True,
        encoding="utf-8", timeout=120, check=False,
    )  # fmt: skip


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for name, text in SOURCES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "witness.json").write_text(json.dumps(WITNESS), encoding="utf-8")
    return tmp_path


def _lone_surrogate_findings(findings: list[dict]) -> dict[str, list[tuple[int, int]]]:
    found: dict[str, list[tuple[int, int]]] = {}
    for finding in findings:
        if finding["code"] == "SL602" and "lone surrogate" in finding["message"]:
            found.setdefault(finding["path"], []).append((finding["line"], finding["column"]))
    return found


def test_each_loader_reports_the_surrogate_where_it_is(project: Path) -> None:
    done = schemalint(project, "check", "--no-config", "--output-format", "json", *SOURCES, "witness.json")
    assert done.returncode == 1, done.stderr
    findings = json.loads(done.stdout)
    assert _lone_surrogate_findings(findings) == {
        "tools.json": [(1, 11), (1, 45)],
        "tools.yaml": [(2, 11), (3, 18)],
        "tools.py": [(6, 16), (8, 5)],
    }
    names = {f["tool"] for f in findings if f["code"] == "SL602"}
    assert names == {"find_\udbffrows", "list_\udfffitems", "send_\ud801mail"}  # the JSON escape reads back
    assert any(f["path"] == "witness.json" and f["code"] == "SL201" for f in findings)


@pytest.mark.parametrize("output_format", FORMATS)
def test_every_output_format_escapes_it_and_keeps_the_other_files(project: Path, output_format: str) -> None:
    done = schemalint(project, "check", "--no-config", "--output-format", output_format, *SOURCES, "witness.json")
    assert done.returncode == 1, done.stderr
    if output_format != "markdown":  # a summary: counts per rule and per file, no tool names
        assert "find_\\udbffrows" in done.stdout
    assert "witness.json" in done.stdout
    if output_format in ("json", "sarif", "gitlab"):
        json.loads(done.stdout)
    if output_format == "junit":
        ElementTree.fromstring(done.stdout)


def test_a_report_file_and_the_baseline_escape_it(project: Path) -> None:
    done = schemalint(project, "check", "--no-config", "--output-format", "sarif:out.sarif", "tools.json")
    assert done.returncode == 1, done.stderr
    assert "find_\\udbffrows" in json.dumps(json.loads((project / "out.sarif").read_text(encoding="utf-8")))
    written = schemalint(project, "check", "--no-config", "--write-baseline", "baseline.json", "tools.json")
    assert written.returncode == 0, written.stderr
    hidden = schemalint(project, "check", "--no-config", "--baseline", "baseline.json", "tools.json")
    assert hidden.returncode == 0, hidden.stderr


def test_export_writes_the_json_escape(project: Path) -> None:
    done = schemalint(project, "export", "--to", "openai", "tools.json", "tools.yaml", "witness.json")
    assert done.returncode == 0, done.stderr
    names = [tool["function"]["name"] for tool in json.loads(done.stdout)]
    assert names == ["find_\udbffrows", "list_\udfffitems", "get_item"]


def test_diff_reports_a_tool_named_with_one(project: Path) -> None:
    (project / "old.json").write_text(json.dumps(WITNESS), encoding="utf-8")
    (project / "new.json").write_text(SOURCES["tools.json"], encoding="utf-8")
    for output_format in ("text", "sarif"):
        done = schemalint(project, "diff", "--no-config", "--output-format", output_format, "old.json", "new.json")
        assert done.returncode == 1, done.stderr
        assert "find_\\udbffrows" in done.stdout


def test_the_fix_removes_it_from_a_description_and_keeps_the_name(project: Path) -> None:
    done = schemalint(project, "check", "--no-config", "--select", "SL602", "--fix", "tools.json")
    assert done.returncode == 1, done.stderr  # the name is not renamed
    data = json.loads((project / "tools.json").read_text(encoding="utf-8"))
    assert data[0]["description"] == "Find the rows  that match a filter, newest first."
    assert data[0]["name"] == "find_\udbffrows"
