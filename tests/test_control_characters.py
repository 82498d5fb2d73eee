"""A file or tool name with a line feed or an escape sequence cannot forge finding lines or drive the
terminal: the text and github outputs, the fix diff and every message on stderr show such characters
escaped, one finding per line."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from schemalint.reporters.terminal import printable, printable_excerpt

FORGED = "\nforged.json:9:9: SL999 [error] forged"
#: `path:line:col: CODE [severity] message`, as the text format writes a finding
FINDING_LINE = re.compile(r"^.+?:\d+:\d+: SL\d{3} \[(?:error|warning|info)\] ")


def schemalint(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "schemalint", *args], cwd=cwd, capture_output=True, text=True, encoding="utf-8",
        timeout=120, check=False,
    )  # fmt: skip


@pytest.fixture
def crafted(tmp_path: Path) -> Path:
    tool = {"name": "get\x1b[2Jx\ry", "description": "", "parameters": {"type": "object", "properties": {}}}
    (tmp_path / f"tools.json{FORGED}").write_text(json.dumps([tool]), encoding="utf-8")
    return tmp_path


def test_text_output_keeps_one_line_per_finding(crafted: Path) -> None:
    done = schemalint(crafted, "check", "--no-config", f"tools.json{FORGED}")
    assert done.returncode == 1, done.stderr
    findings = [line for line in done.stdout.splitlines() if FINDING_LINE.match(line)]
    assert findings
    assert all(line.startswith("tools.json\\nforged.json:9:9: SL999 [error] forged:1:") for line in findings)
    assert "\x1b" not in done.stdout and "\r" not in done.stdout
    assert "get\\x1b[2Jx\\ry" in done.stdout


def test_github_output_escapes_every_control_character(crafted: Path) -> None:
    titled = "tools\x1b]0;title\x07.json"  # an escape sequence that sets the terminal's title
    (crafted / titled).write_text((crafted / f"tools.json{FORGED}").read_text(encoding="utf-8"), encoding="utf-8")
    done = schemalint(crafted, "check", "--no-config", "--output-format", "github", f"tools.json{FORGED}", titled)
    assert done.returncode == 1, done.stderr
    assert all(line.startswith("::") for line in done.stdout.splitlines())
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout
    assert "file=tools.json%0Aforged.json%3A9%3A9%3A SL999" in done.stdout
    assert "file=tools\\x1b]0;title\\x07.json," in done.stdout


def test_fix_diff_and_stderr_messages_escape_the_name(crafted: Path) -> None:
    diff = schemalint(crafted, "check", "--no-config", "--diff", f"tools.json{FORGED}")
    assert diff.returncode == 1, diff.stderr
    assert diff.stdout.startswith("--- a/tools.json\\nforged.json:9:9: SL999 [error] forged\n")
    python = crafted / "tool\x1b[31m.py"
    python.write_text("from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n\n@mcp.tool()\ndef f(a): ...\n")
    skipped = schemalint(crafted, "check", "--no-config", "--fix", python.name)
    assert "tool\\x1b[31m.py: not fixed: Python sources" in skipped.stderr
    missing = schemalint(crafted, "check", "--no-config", "gone\n.json")
    assert missing.returncode == 2
    assert missing.stderr == "schemalint: error: no such file or directory: gone\\n.json\n"


def test_excerpt_stand_ins_keep_the_caret_column() -> None:
    line = "a\x1bb\x7fc\x85d"
    assert len(printable_excerpt(line)) == len(line)
    assert printable_excerpt(line) == "a\u241bb\u2421c\ufffdd"
    assert printable("tab\tstays, newline\nand \x00 go") == "tab\tstays, newline\\nand \\x00 go"
