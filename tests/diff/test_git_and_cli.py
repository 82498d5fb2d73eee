"""`schemalint diff` and `check --against` on a real (temporary) git repository, through the CLI."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from schemalint.cli import main

from .conftest import base_tools

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository whose first commit holds tools.json (v1) and a README."""
    monkeypatch.chdir(tmp_path)
    for key in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        monkeypatch.delenv(key, raising=False)
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "config", "user.email", "dev@example.com")
    git(tmp_path, "config", "user.name", "Dev")
    git(tmp_path, "config", "commit.gpgsign", "false")
    write(tmp_path / "tools.json", base_tools())
    (tmp_path / "README.md").write_text("tools\n", encoding="utf-8")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "v1")
    return tmp_path


def remove_last_tool(repo: Path) -> None:
    write(repo / "tools.json", base_tools()[:2])


def test_diff_git_ref_against_work_tree(repo: Path) -> None:
    remove_last_tool(repo)
    code, out = run("diff", "HEAD:tools.json", "tools.json")
    assert code == 1, out
    assert "HEAD:tools.json:" in out and "SL901 [error] tool `delete_branch` was removed" in out


def test_diff_between_two_revisions_and_folders(repo: Path) -> None:
    remove_last_tool(repo)
    git(repo, "commit", "-q", "-am", "v2")
    code, out = run("diff", "HEAD~1:", "main:", "--output-format", "json")
    assert code == 1, out
    [finding] = json.loads(out)
    assert finding["code"] == "SL901" and finding["path"] == "HEAD~1:tools.json"
    assert finding["data"] == {"tool": "delete_branch", "old": "delete_branch", "new": None}
    assert run("diff", "HEAD:tools.json", "tools.json")[0] == 0


def test_fail_on_and_select(repo: Path) -> None:
    tools = base_tools()
    tools[0]["description"] = "Lists issues; prefer search_issues for text queries."
    write(repo / "tools.json", tools)
    assert run("diff", "HEAD:tools.json", "tools.json")[0] == 0  # a warning, below the default fail-on
    assert run("diff", "HEAD:tools.json", "tools.json", "--fail-on", "warning")[0] == 1
    code, out = run("diff", "HEAD:tools.json", "tools.json", "--ignore", "SL909", "--fail-on", "info")
    assert code == 0 and "All clear" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("nosuchref:tools.json", "tools.json"), "unknown git revision `nosuchref`"),
        (("HEAD:missing.json", "tools.json"), "HEAD:missing.json: no such file or folder"),
        (("missing.json", "tools.json"), "no such file or directory: missing.json"),
    ],
)
def test_bad_inputs_are_one_line_errors(repo: Path, args: tuple[str, str], message: str) -> None:
    code, out = run("diff", *args)
    assert code == 2
    assert message in out and "Traceback" not in out


def test_outside_a_repository_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    write(tmp_path / "tools.json", base_tools())
    code, out = run("diff", "HEAD:tools.json", "tools.json")
    assert code == 2 and "not a git repository" in out
    code, out = run("check", "--against", "HEAD")
    assert code == 2 and "not a git repository" in out


def test_check_against_lints_changed_files_and_adds_breaking_changes(repo: Path) -> None:
    remove_last_tool(repo)
    write(repo / "extra" / "new_tools.json", [base_tools()[2]])  # untracked: its tool is not new overall
    # the base tools' `#/$defs/Filter` dangles on purpose (diff tests add the definition): SL308 would be an error
    code, out = run("check", "--against", "HEAD", "--ignore", "SL308", "--output-format", "json")
    assert code == 0, out  # only warnings
    findings = json.loads(out)
    codes = {f["code"] for f in findings}
    assert not codes & {"SL901", "SL916"}  # delete_branch moved to an untracked file: neither removed nor added
    assert any(f["code"] == "SL303" for f in findings)  # the changed files are linted as well
    assert {f["path"] for f in findings} <= {"tools.json", "extra/new_tools.json"}


def test_check_against_reports_removals_in_the_old_version(repo: Path) -> None:
    remove_last_tool(repo)
    code, out = run("check", "--against", "HEAD", "--select", "SL9", "--output-format", "json")
    assert code == 1
    [finding] = json.loads(out)
    assert (finding["code"], finding["path"]) == ("SL901", "HEAD:tools.json")


def test_check_against_with_no_changed_tool_files_is_clean(repo: Path) -> None:
    (repo / "README.md").write_text("changed\n", encoding="utf-8")
    code, out = run("check", "--against", "HEAD")
    assert code == 0, out
    assert "All clear: 0 file(s)" in out


def test_check_against_staged_reads_the_index(repo: Path) -> None:
    remove_last_tool(repo)
    git(repo, "add", "tools.json")
    write(repo / "tools.json", base_tools())  # unstaged: restores the tool in the work tree only
    staged = json.loads(run("check", "--against", "HEAD", "--staged", "--select", "SL9", "--output-format", "json")[1])
    work_tree = run("check", "--against", "HEAD", "--select", "SL9")
    assert [f["code"] for f in staged] == ["SL901"]
    assert work_tree[0] == 0
    assert run("check", "--staged")[0] == 2


def test_rule_docs_are_available() -> None:
    code, out = run("rule", "SL903")
    assert code == 0 and "[error, change]" in out and "## Why is this bad?" in out
    code, out = run("rule", "tool-order-changed")
    assert code == 0 and "cache misses" in out


def test_first_commit_has_nothing_to_compare_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    git(tmp_path, "init", "-q")
    write(tmp_path / "tools.json", base_tools())
    git(tmp_path, "add", "tools.json")
    code, out = run("check", "--against", "HEAD", "--staged", "--select", "SL9", "--output-format", "json")
    assert code == 0, out
    assert {f["code"] for f in json.loads(out)} == {"SL916"}
    assert run("check", "--against", "main~3")[0] == 2


def test_pre_commit_hook_compares_staged_files_with_head() -> None:
    from ruamel.yaml import YAML

    hooks = YAML(typ="safe").load((Path(__file__).resolve().parents[2] / ".pre-commit-hooks.yaml").read_text())
    [hook] = [h for h in hooks if h["id"] == "schemalint-breaking"]
    assert hook["pass_filenames"] is False
    assert hook["entry"].split()[1:] == ["check", "--against", "HEAD", "--staged", "--select", "SL9"]


@pytest.mark.parametrize("output_format", ["text", "json", "sarif", "github", "gitlab", "junit"])
def test_every_output_format_of_check_works_for_diff(repo: Path, output_format: str) -> None:
    remove_last_tool(repo)
    code, out = run("diff", "HEAD:tools.json", "tools.json", "--output-format", output_format)
    assert code == 1, out
    assert "delete_branch" in out


def test_output_file(repo: Path) -> None:
    remove_last_tool(repo)
    code, _ = run("diff", "HEAD:tools.json", "tools.json", "--output-format", "json:changes.json")
    assert code == 1
    assert [f["code"] for f in json.loads((repo / "changes.json").read_text(encoding="utf-8"))] == ["SL901"]


def test_git_folders_and_paths_relative_to_a_subfolder(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo / "tools" / "github.json", base_tools())
    (repo / "tools" / "notes.txt").write_text("not a tool file\n", encoding="utf-8")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "tools folder")
    write(repo / "tools" / "github.json", base_tools()[1:])
    code, out = run("diff", "HEAD:tools/", "tools/", "--output-format", "json")
    assert code == 1
    assert [(f["code"], f["path"]) for f in json.loads(out)] == [("SL901", "HEAD:tools/github.json")]
    monkeypatch.chdir(repo / "tools")
    code, out = run("diff", "HEAD:github.json", "github.json", "--output-format", "json")
    assert [(f["code"], f["path"]) for f in json.loads(out)] == [("SL901", "HEAD:github.json")]


def test_sarif_places_a_removed_tool_in_the_working_tree_file(repo: Path) -> None:
    import jsonschema

    remove_last_tool(repo)
    code, out = run("check", "--against", "HEAD", "--select", "SL9", "--output-format", "sarif")
    assert code == 1
    log = json.loads(out)
    schema = json.loads((Path(__file__).parents[1] / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.validate(log, schema, cls=jsonschema.Draft7Validator)
    [result] = log["runs"][0]["results"]
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "tools.json", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 1}
    assert result["properties"]["ref"] == "HEAD" and result["properties"]["refLine"] > 1
    assert result["message"]["text"].endswith(f"(at HEAD:tools.json line {result['properties']['refLine']})")


def test_gitlab_places_a_removed_tool_in_the_working_tree_file(repo: Path) -> None:
    remove_last_tool(repo)
    code, out = run("check", "--against", "HEAD", "--select", "SL9", "--output-format", "gitlab")
    assert code == 1
    [issue] = json.loads(out)
    assert issue["location"] == {"path": "tools.json", "lines": {"begin": 1, "end": 1}}
    assert re.search(r"\(at HEAD:tools\.json line ([2-9]|\d\d+)\)$", issue["description"])


def require_assignee(tools: list[dict[str, object]]) -> list[dict[str, object]]:
    """create_issue gains a required parameter: a break (SL903) in whatever file it is in."""
    schema = tools[1]["inputSchema"]
    schema["properties"]["assignee"] = {"type": "string"}  # type: ignore[index]
    schema["required"] = ["title", "assignee"]  # type: ignore[index]
    return tools


def changes_by_file(*extra: str) -> dict[str, set[str]]:
    code, out = run("check", "--against", "HEAD", "--select", "SL9", "--output-format", "json", *extra)
    assert code in (0, 1), out
    found: dict[str, set[str]] = {}
    for finding in json.loads(out):
        found.setdefault(finding["path"], set()).add(f"{finding['code']} {finding['tool']}")
    return found


def test_check_against_pairs_tools_within_their_file_before_across_files(repo: Path) -> None:
    write(repo / "a_copy.json", base_tools())  # untracked copy of the old file: every tool in it is new
    write(repo / "tools.json", require_assignee(base_tools()))
    found = changes_by_file()
    assert "SL903 create_issue" in found["tools.json"]
    assert not any(code.startswith("SL916") for code in found["tools.json"])
    assert found["a_copy.json"] == {"SL916 list_issues", "SL916 create_issue", "SL916 delete_branch"}


def test_check_against_follows_git_renames(repo: Path) -> None:
    git(repo, "mv", "tools.json", "z_renamed.json")
    write(repo / "z_renamed.json", require_assignee(base_tools()))
    write(repo / "a_copy.json", base_tools())
    found = changes_by_file()
    assert "SL903 create_issue" in found["z_renamed.json"]
    assert not any(code.startswith(("SL916", "SL901")) for code in found["z_renamed.json"])
    assert found["a_copy.json"] == {"SL916 list_issues", "SL916 create_issue", "SL916 delete_branch"}
    assert "HEAD:tools.json" not in found


def test_a_tool_moved_to_another_file_is_neither_removed_nor_new(repo: Path) -> None:
    write(repo / "tools.json", base_tools()[:2])
    write(repo / "branches.json", [base_tools()[2]])
    assert changes_by_file() == {}
