"""`schemalint init` in real git repositories: the configuration it writes, what it keeps, the baseline,
the preset it chooses and the snippets it prints."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from schemalint.config import load_config

from .conftest import REPO
from .test_cli import run

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


def write(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) if not isinstance(data, str) else data, encoding="utf-8")
    return path


def openai_tool(name: str, strict: bool | None = None, described: bool = True) -> dict[str, object]:
    function: dict[str, object] = {
        "name": name,
        "parameters": {
            "type": "object",
            "properties": {"order_id": {"type": "string", "description": "The order's id, e.g. `ord_123`"}},
            "required": ["order_id"],
            "additionalProperties": False,
        },
    }
    if described:
        function["description"] = f"{name.replace('_', ' ').capitalize()}. Do not use it for refunds."
    if strict is not None:
        function["strict"] = strict
    return {"type": "function", "function": function}


MCP_SERVER = '''from mcp.server.fastmcp import FastMCP

mcp = FastMCP("orders")


@mcp.tool()
def cancel_order(order_id: str) -> str:
    """Cancel an order that has not shipped. Do not use it for refunds."""
    return order_id
'''

PYPROJECT = """# the demo project
[project]
name = "demo"   # keep this comment
version = "1.0"

[tool.ruff]
line-length = 100  # wide lines

[tool.ruff.lint]
select = ["E", "F"]
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = git_repo(tmp_path / "repo")
    monkeypatch.chdir(root)
    return root


def test_pyproject_keeps_every_other_table_and_comment(repo: Path) -> None:
    (repo / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    write(repo / "tools" / "orders.json", [openai_tool("get_order"), openai_tool("lookup_order")])
    code, out = run("init")
    assert code == 0, out
    text = (repo / "pyproject.toml").read_text(encoding="utf-8")
    assert text.startswith(PYPROJECT)  # the old file, byte for byte, then the new table
    assert "\n[tool.schemalint]\n# Written by `schemalint init`" in text
    # the comments point at what this repository has: the command, not schemalint's own docs/ folder
    assert "docs/" not in text and "`schemalint rule` lists the rules" in text
    config = load_config(repo / "pyproject.toml")
    assert config.extend == ("recommended",) and config.targets == ("openai",)
    assert not (repo / ".schemalint.toml").exists()
    assert "2 tool(s) in 1 file(s): tools/orders.json" in out
    assert "dialects: openai-chat 2; Python frameworks: none" in out and "sent strict: 0 of 2" in out
    assert "With it, `schemalint check`: All clear" in out


def test_without_pyproject_writes_schemalint_toml(repo: Path) -> None:
    write(repo / "server.py", MCP_SERVER)
    code, out = run("init")
    assert code == 0, out
    config = load_config(repo / ".schemalint.toml")
    assert config.extend == ("mcp",) and config.targets == ()
    assert "Python frameworks: fastmcp 1" in out or "Python frameworks: mcp 1" in out
    assert not (repo / "pyproject.toml").exists()


def test_existing_config_is_never_replaced_without_force(repo: Path) -> None:
    configured = PYPROJECT + '\n[tool.schemalint]\nignore = ["SL203"]  # ours\n'
    (repo / "pyproject.toml").write_text(configured, encoding="utf-8")
    write(repo / "tools.json", [openai_tool("cancel_order")])
    code, out = run("init")
    assert code == 2 and "already configures schemalint" in out and "--force" in out
    assert (repo / "pyproject.toml").read_text(encoding="utf-8") == configured
    (repo / ".schemalint.toml").write_text('select = ["SL3"]\n', encoding="utf-8")
    code, _ = run("init", "--baseline")
    assert code == 2 and (repo / ".schemalint.toml").read_text(encoding="utf-8") == 'select = ["SL3"]\n'
    assert not (repo / ".schemalint-baseline.json").exists()


def test_force_replaces_only_the_schemalint_table(repo: Path) -> None:
    old = PYPROJECT + '\n[tool.schemalint]\nselect = ["SL3"]\n\n[tool.schemalint.rules.SL301]\nmax-depth = 3\n'
    old += "\n[tool.black]\nline-length = 90  # after ours\n"
    (repo / "pyproject.toml").write_text(old, encoding="utf-8")
    write(repo / "tools.json", [openai_tool("cancel_order", strict=True)])
    code, out = run("init", "--force")
    assert code == 0, out
    text = (repo / "pyproject.toml").read_text(encoding="utf-8")
    assert text.startswith(PYPROJECT) and text.endswith("\n[tool.black]\nline-length = 90  # after ours\n")
    assert "max-depth" not in text and 'select = ["SL3"]' not in text
    config = load_config(repo / "pyproject.toml")
    assert config.extend == ("openai-strict",) and config.select is None and not config.rules


def test_baseline_records_today_and_only_new_findings_fail(repo: Path) -> None:
    write(repo / "tools" / "orders.json", [openai_tool("get_order", described=False)])
    code, out = run("init", "--baseline")
    assert code == 0, out
    assert "1 error." in out and "Wrote 1 finding(s) to the baseline" in out
    assert (
        "args: [--baseline, .schemalint-baseline.json]" in out and "args: --baseline .schemalint-baseline.json" in out
    )
    assert run("check")[0] == 1  # SL201 (an error) is still there
    assert run("check", "--baseline", ".schemalint-baseline.json")[0] == 0
    write(repo / "tools" / "more.json", [openai_tool("lookup_order", described=False)])
    code, out = run("check", "--baseline", ".schemalint-baseline.json")
    assert code == 1 and "tools/more.json" in out and "tools/orders.json" not in out
    assert run("init", "--baseline", "--force")[0] == 0
    assert run("check", "--baseline", ".schemalint-baseline.json")[0] == 0


@pytest.mark.parametrize(
    ("files", "preset", "targets"),
    [
        ({"a.json": [openai_tool("get_order", strict=True)]}, "openai-strict", ("openai-strict",)),
        ({"a.json": [openai_tool("get_order", strict=True), openai_tool("cancel_order")]}, "recommended", ("openai",)),
        (
            {"a.json": [{"name": "get_order", "description": "Get an order.", "input_schema": {"type": "object"}}]},
            "anthropic",
            ("anthropic",),
        ),
        ({"g.json": {"functionDeclarations": [{"name": "get_order", "description": "x"}]}}, "gemini", ("gemini",)),
        ({"a.json": [openai_tool("get_order")], "server.py": MCP_SERVER}, "recommended", ()),
        ({"README.md": "no tools"}, "recommended", ()),
    ],
)
def test_preset_follows_the_tools_found(
    repo: Path, files: dict[str, object], preset: str, targets: tuple[str, ...]
) -> None:
    for name, data in files.items():
        write(repo / name, data)
    code, out = run("init")
    assert code == 0, out
    config = load_config(repo / ".schemalint.toml")
    assert (config.extend, config.targets) == ((preset,), targets)


def test_run_from_a_subfolder_configures_the_repository_root(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo / "pkg" / "tools" / "a.json", [openai_tool("get_order")])
    monkeypatch.chdir(repo / "pkg")
    code, out = run("init", "--preset", "strict")
    assert code == 0, out
    assert load_config(repo / ".schemalint.toml").extend == ("strict",)
    assert "paths: pkg/" in out
    assert run("init", "--preset", "loose", "--force")[0] == 2


def test_outside_git_the_folder_is_the_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    write(tmp_path / "plain" / "a.json", [openai_tool("get_order")])
    code, out = run("init", str(tmp_path / "plain"))
    assert code == 0, out
    assert "folder (not a git repository)" in out and (tmp_path / "plain" / ".schemalint.toml").is_file()
    # the breaking-change hook diffs against HEAD: left out, and the snippet says why
    assert hook_ids(out) == {"schemalint"}
    assert "no schemalint-breaking: it compares with git's HEAD" in out


def hook_ids(out: str) -> set[str]:
    """The ids of the hooks in the pre-commit snippet `init` printed."""
    snippet = out.partition("pre-commit: add to .pre-commit-config.yaml\n\n")[2].partition("GitHub Actions:")[0]
    return {hook["id"] for hook in yaml.safe_load(snippet)["repos"][0]["hooks"]}


def test_snippets_name_real_hooks_and_action_inputs(repo: Path) -> None:
    write(repo / "tools" / "a.json", [openai_tool("get_order")])
    write(repo / "server.py", MCP_SERVER)
    code, out = run("init", "--baseline")
    assert code == 0, out
    workflow_text = out.partition("GitHub Actions:")[2].partition("\n\n")[2].partition("\nNext:")[0]
    hooks = {hook["id"] for hook in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    assert hook_ids(out) == {"schemalint", "schemalint-breaking"} <= hooks
    action_inputs = set(yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))["inputs"])
    workflow = yaml.safe_load(workflow_text)
    step = next(s for s in workflow["jobs"]["schemalint"]["steps"] if s["uses"].startswith("schemalint/"))
    assert set(step["with"]) <= action_inputs
    assert step["with"]["paths"].split() == ["server.py", "tools/"]
    args = step["with"]["args"].split()
    assert run("check", *step["with"]["paths"].split(), *args)[0] == 0


def test_eval_fixtures_are_listed_linked_and_linted_in_ci(repo: Path) -> None:
    write(repo / "tools" / "orders.json", [openai_tool("get_order"), openai_tool("cancel_order")])
    write(repo / "tools" / "weather.json", [openai_tool("get_weather")])
    fixture = {
        "name": "orders",
        "tools": ["get_order", "cancel_order"],
        "cases": [
            {"input": "Where is 7?", "expect": {"tool": "get_ordr", "args": {"order_id": "7"}}},
            {"input": "Cancel 7", "expect": {"tool": "cancel_order", "args": {"order_id": 7}}},
        ],
    }
    write(repo / "evals" / "orders.json", fixture)
    write(
        repo / "evals" / "unknown.json",
        {"tools": ["nothing_here"], "cases": [{"input": "x", "expect": {"tool": None}}]},
    )
    write(repo / "pyproject.toml", PYPROJECT)
    code, out = run("init")
    assert code == 0, out
    assert "eval fixtures: evals/orders.json, evals/unknown.json" in out
    # linked by config, so that pre-commit and editors, which lint the fixture alone, check its arguments
    assert load_config(repo / "pyproject.toml").fixtures == {"evals/orders.json": ("tools/orders.json",)}
    code, alone = run("check", "--skip-non-tool-files", "evals/orders.json")
    assert code == 1 and "SL812" in alone and "SL811" in alone
    workflow = yaml.safe_load(out.partition("GitHub Actions:")[2].partition("\n\n")[2].partition("\nNext:")[0])
    step = next(s for s in workflow["jobs"]["schemalint"]["steps"] if s["uses"].startswith("schemalint/"))
    assert step["with"]["paths"].split() == ["evals/", "tools/"]
    # what CI runs finds the fixture's unknown tool, as `schemalint check` at the root does
    code, out = run("check", *step["with"]["paths"].split())
    assert code == 1 and "evals/orders.json" in out and "SL811" in out
