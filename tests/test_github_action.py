"""The GitHub Action (action.yml) run as GitHub runs its steps: the same env, the files GitHub provides."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from schemalint.diagnostics import Diagnostic
from schemalint.model import Severity, Span
from schemalint.reporters import markdown

REPO = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
BAD = [{"name": "search", "parameters": {"type": "object", "properties": {"q": {}}}}]
GOOD = [
    {
        "type": "function",
        "function": {
            "name": "get_invoice",
            "description": "Returns one invoice by its number. Do not use it to search invoices by customer.",
            "parameters": {
                "type": "object",
                "properties": {"invoice_id": {"type": "string", "description": "e.g. INV-2041", "pattern": "^INV-"}},
                "required": ["invoice_id"],
                "additionalProperties": False,
            },
        },
    }
]


def step(step_id: str) -> dict[str, Any]:
    by_name = {s.get("id") or s["name"]: s for s in ACTION["runs"]["steps"]}
    return by_name[step_id]


def run_step(step_id: str, inputs: dict[str, str], workspace: Path, runner: Path) -> subprocess.CompletedProcess[str]:
    """One `run:` step with its `env:` expressions filled in as GitHub fills them."""
    values = {name: spec.get("default", "") for name, spec in ACTION["inputs"].items()}
    values.update(inputs)
    context = {"github.action_path": str(REPO), **{f"inputs.{k}": v for k, v in values.items()}}

    def expand(text: str) -> str:
        return re.sub(r"\$\{\{\s*([\w.]+)\s*\}\}", lambda m: context[m.group(1)], text)

    spec = step(step_id)
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "GITHUB_ACTIONS": "true",
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_STEP_SUMMARY": str(runner / "step_summary.md"),
        "GITHUB_OUTPUT": str(runner / "output.txt"),
        "RUNNER_TEMP": str(runner),
        **{name: expand(str(value)) for name, value in spec.get("env", {}).items()},
    }
    assert spec["shell"] == "bash"
    return subprocess.run(
        ["bash", "-c", expand(spec["run"])], cwd=workspace, env=env, capture_output=True, text=True, timeout=120
    )


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path]:
    workspace, runner = tmp_path / "workspace", tmp_path / "runner"
    (workspace / "tools").mkdir(parents=True)
    runner.mkdir()
    (runner / "step_summary.md").write_text("earlier step\n")
    return workspace, runner


def test_the_action_declares_its_inputs_and_composite_steps() -> None:
    assert set(ACTION["inputs"]) == {"paths", "args", "version", "sarif", "against"}
    assert ACTION["runs"]["using"] == "composite"
    assert step("Upload SARIF")["if"] == "always() && inputs.sarif == 'true'"
    assert ACTION["outputs"]["exit-code"]["value"] == "${{ steps.check.outputs.exit-code }}"
    syntax = subprocess.run(["bash", "-n", str(REPO / "scripts" / "github_action.sh")], capture_output=True)
    assert syntax.returncode == 0


def test_findings_become_annotations_a_summary_and_the_exit_code(dirs: tuple[Path, Path]) -> None:
    workspace, runner = dirs
    (workspace / "tools" / "bad.json").write_text(json.dumps(BAD))
    (workspace / "tools" / "good.json").write_text(json.dumps(GOOD))
    done = run_step("check", {"paths": "tools", "args": "--fail-on warning"}, workspace, runner)
    assert done.returncode == 1, done.stderr
    assert re.search(r"^::error file=tools/bad\.json,line=1,col=\d+,.*title=SL201::", done.stdout, re.M)
    assert "::warning file=tools/bad.json" in done.stdout
    summary = (runner / "step_summary.md").read_text()
    assert summary.startswith("earlier step\n## schemalint\n")  # appended, not overwritten
    assert "in 1 of 2 files" in summary
    assert re.search(r"^\| SL201 missing\\-description \| error \| 1 \|$", summary, re.M)
    assert re.search(r"^\| tools/bad\.json \| [1-9]\d* \| [1-9]\d* \| \d+ \|$", summary, re.M)
    assert (runner / "output.txt").read_text() == "exit-code=1\n"
    assert not (workspace / "schemalint.sarif").exists()


def test_sarif_is_written_when_asked(dirs: tuple[Path, Path]) -> None:
    workspace, runner = dirs
    (workspace / "tools" / "bad.json").write_text(json.dumps(BAD))
    run_step("check", {"paths": "tools", "sarif": "true"}, workspace, runner)
    sarif = json.loads((workspace / "schemalint.sarif").read_text())
    assert sarif["version"] == "2.1.0"
    assert {r["ruleId"] for r in sarif["runs"][0]["results"]} >= {"SL201"}


def test_a_clean_repository_passes_with_a_clean_summary(dirs: tuple[Path, Path]) -> None:
    workspace, runner = dirs
    (workspace / "tools" / "good.json").write_text(json.dumps(GOOD))
    done = run_step("check", {"args": "--select SL201,SL303"}, workspace, runner)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No findings in 1 file." in (runner / "step_summary.md").read_text()
    assert (runner / "output.txt").read_text() == "exit-code=0\n"


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_against_a_ref_reports_breaking_changes(dirs: tuple[Path, Path]) -> None:
    workspace, runner = dirs
    tools = workspace / "tools" / "billing.json"
    tools.write_text(json.dumps(GOOD, indent=2))
    git = ["git", "-C", str(workspace), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q", "-b", "main"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "tools"], check=True)
    changed = json.loads(tools.read_text())
    changed[0]["function"]["parameters"]["required"].append("currency")
    changed[0]["function"]["parameters"]["properties"]["currency"] = {"type": "string", "enum": ["EUR"]}
    tools.write_text(json.dumps(changed, indent=2))
    done = run_step("check", {"paths": "tools", "against": "main"}, workspace, runner)
    assert done.returncode == 1
    assert "title=SL903::" in done.stdout
    assert "| SL903 required\\-parameter\\-added | error | 1 |" in (runner / "step_summary.md").read_text()


def test_the_summary_escapes_what_markdown_would_read() -> None:
    finding = Diagnostic("SL201", "missing-description", Severity.ERROR, "m", "a|b_*x*\n.json", Span(1, 1, 1, 2), "")
    text = markdown.render([finding], {}, False, files=1)
    assert "| a\\|b\\_\\*x\\*\\\\x0a.json | 1 | 0 | 0 |" in text.splitlines()  # shows `\x0a`
