"""Autofix: patch application, format-preserving rewrites, passes, atomic and stale-checked writes."""

from __future__ import annotations

import dataclasses
import difflib
import json
import os
import pickle
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from schemalint import fixes
from schemalint.cli import main
from schemalint.diagnostics import Diagnostic, Fix, PatchOperation
from schemalint.engine import LintOptions, lint, lint_source
from schemalint.fixes import (
    FixError,
    JsonRenderer,
    StaleFileError,
    apply_operations,
    choose_fixes,
    plan_file,
    write_atomically,
)
from schemalint.loaders import Document
from schemalint.loaders.discover import parse_document
from schemalint.model import Severity, Span, join_pointer

from .conftest import REPO

CATALOGUE = REPO / "rules"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def render(text: str, operations: list[PatchOperation], name: str = "t.json") -> str:
    document = parse_document(text, name)
    return JsonRenderer(document).render_document(document.data, apply_operations(document.data, operations))


def add(path: str, value: Any) -> PatchOperation:
    return PatchOperation("add", path, value)


def remove(path: str) -> PatchOperation:
    return PatchOperation("remove", path)


# --------------------------------------------------------------------------------------------------
# JSON rendering, exact bytes


PRETTY = '{\n  "a": 1,\n  "b": {"x": [1, 2]},\n  "c": {\n    "d": true\n  }\n}\n'


@pytest.mark.parametrize(
    ("operations", "expected"),
    [
        (
            [add("/c/e", False)],
            '{\n  "a": 1,\n  "b": {"x": [1, 2]},\n  "c": {\n    "d": true,\n    "e": false\n  }\n}\n',
        ),
        ([add("/b/y", None)], '{\n  "a": 1,\n  "b": {"x": [1, 2], "y": null},\n  "c": {\n    "d": true\n  }\n}\n'),
        ([add("/b/x/-", 3)], '{\n  "a": 1,\n  "b": {"x": [1, 2, 3]},\n  "c": {\n    "d": true\n  }\n}\n'),
        ([add("/b/x/0", 0)], '{\n  "a": 1,\n  "b": {"x": [0, 1, 2]},\n  "c": {\n    "d": true\n  }\n}\n'),
        ([remove("/b/x/0")], '{\n  "a": 1,\n  "b": {"x": [2]},\n  "c": {\n    "d": true\n  }\n}\n'),
        ([remove("/a")], '{\n  "b": {"x": [1, 2]},\n  "c": {\n    "d": true\n  }\n}\n'),
        ([remove("/b")], '{\n  "a": 1,\n  "c": {\n    "d": true\n  }\n}\n'),
        ([remove("/c")], '{\n  "a": 1,\n  "b": {"x": [1, 2]}\n}\n'),
        ([remove("/c/d")], '{\n  "a": 1,\n  "b": {"x": [1, 2]},\n  "c": {}\n}\n'),
        ([PatchOperation("replace", "/a", ["s", "null"])], PRETTY.replace('"a": 1', '"a": ["s", "null"]')),
        (
            [add("/c/f", {"g": {"h": 1}})],
            '{\n  "a": 1,\n  "b": {"x": [1, 2]},\n  "c": {\n    "d": true,\n    "f": {\n      "g": {\n'
            '        "h": 1\n      }\n    }\n  }\n}\n',
        ),
        # SL302's shape: remove the last member and add another in its place
        ([remove("/c"), add("/z", 1)], '{\n  "a": 1,\n  "b": {"x": [1, 2]},\n  "z": 1\n}\n'),
    ],
)
def test_json_edits_are_exact(operations: list[PatchOperation], expected: str) -> None:
    assert render(PRETTY, operations) == expected
    assert json.loads(expected) == apply_operations(json.loads(PRETTY), operations)


def test_json_keeps_crlf_tabs_unicode_and_minified_style() -> None:
    crlf = '{\r\n\t"name": "caf\u00e9",\r\n\t"o": {\r\n\t\t"k": 1\r\n\t}\r\n}'
    assert render(crlf, [add("/o/new", [{"a": 1}])]) == (
        '{\r\n\t"name": "caf\u00e9",\r\n\t"o": {\r\n\t\t"k": 1,\r\n\t\t"new": [\r\n\t\t\t{\r\n\t\t\t\t"a": 1\r\n'
        "\t\t\t}\r\n\t\t]\r\n\t}\r\n}"
    )
    minified = '[{"name":"a","p":{"type":"object"}}]'
    assert render(minified, [add("/0/p/additionalProperties", False)]) == (
        '[{"name":"a","p":{"type":"object", "additionalProperties": false}}]'
    )
    assert render('{"e": {}}', [add("/e/k", 1)]) == '{"e": {"k": 1}}'
    assert render('{\n  "e": {}\n}', [add("/e/k", 1)]) == '{\n  "e": {\n    "k": 1\n  }\n}'


def test_patch_errors() -> None:
    with pytest.raises(FixError):
        apply_operations({"a": 1}, [remove("/b")])
    with pytest.raises(FixError):
        apply_operations({"a": [1]}, [PatchOperation("replace", "/a/5", 1)])
    with pytest.raises(FixError):
        apply_operations({"a": 1}, [add("/a/b", 1)])


def test_a_failing_fix_changes_nothing() -> None:
    data = {"a": 1, "b": [1, 2], "c": {"d": 1}}
    operations = [remove("/a"), add("/b/0", 0), PatchOperation("replace", "/c/d", 2), add("/missing/x", 1)]
    with pytest.raises(FixError):
        apply_operations(data, operations)
    assert data == {"a": 1, "b": [1, 2], "c": {"d": 1}} and list(data) == ["a", "b", "c"]


def test_overlapping_fixes_wait_for_the_next_pass() -> None:
    data = {"p": {"properties": {"a": {}, "b": {}}, "required": ["x"]}}
    first = Fix("a", (add("/p/required/-", "a"),))
    second = Fix("b", (add("/p/required/-", "b"),))
    wrap = Fix("wrap", (PatchOperation("replace", "/p/properties/a", {"anyOf": []}),))
    inner = Fix("inner", (add("/p/properties/a/additionalProperties", False),))
    other = Fix("other", (add("/p/properties/b/additionalProperties", False),))
    create = Fix("create", (add("/p/required", ["a"]),))
    create_too = Fix("create too", (add("/p/required", ["b"]),))
    insert = Fix("insert", (add("/p/required/0", "c"),))
    # appends commute; creating one array twice, or inserting before elements, does not
    assert choose_fixes([first, second, wrap, inner, other], data) == [first, second, wrap, other]
    assert choose_fixes([create, create_too], data) == [create]
    assert choose_fixes([first, insert], data) == [first]


# --------------------------------------------------------------------------------------------------
# The catalogue: every YAML and JSON input, fixed with every fix schemalint has


def _catalogue_inputs() -> list[Path]:
    return sorted(p for p in CATALOGUE.glob("*/*") if p.suffix in {".json", ".yaml", ".yml"} and p.stem != "expected")


def _changed_regions(document: Document, new_data: Any) -> list[tuple[int, int]]:
    """Line ranges (in the old text) of the innermost containers whose content differs."""
    regions: list[tuple[int, int]] = []

    def walk(old: Any, new: Any, pointer: str) -> None:
        if fixes.same(old, new):
            return
        if isinstance(old, dict) and isinstance(new, dict) and list(old) == list(new):
            for key in old:
                walk(old[key], new[key], join_pointer(pointer, key))
            return
        if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
            for index, (a, b) in enumerate(zip(old, new, strict=True)):
                walk(a, b, f"{pointer}/{index}")
            return
        span = document.positions.locate(pointer, True) or document.positions.locate(pointer)
        end = document.positions.locate(pointer)
        assert span is not None and end is not None
        regions.append((span.line, end.end_line))

    walk(document.data, new_data, "")
    return regions


@pytest.mark.parametrize("source", _catalogue_inputs(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_catalogue_fix_round_trip(source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / source.name
    shutil.copyfile(source, target)
    config = source.parent / "schemalint.toml"
    if config.is_file():
        shutil.copyfile(config, tmp_path / ".schemalint.toml")
    monkeypatch.chdir(tmp_path)
    options = LintOptions(targets=() if config.is_file() else ("openai-strict",))
    before = lint([source.name], options)
    fixable = [d for d in before.diagnostics if d.fix is not None]
    original = target.read_bytes()
    code, _, err = run(
        "check",
        source.name,
        "--fix",
        "--unsafe-fixes",
        "--fail-on",
        "never",
        *(() if config.is_file() else ("--target", "openai-strict")),
    )
    assert code == 0, err
    after_bytes = target.read_bytes()
    if not fixable:
        assert after_bytes == original
        return
    if "not fixed" in err:
        assert after_bytes == original
        pytest.skip(err.strip())
    after = lint([source.name], options)
    assert not [d for d in after.diagnostics if d.code == "SL002"], "the fixed file no longer parses"
    assert not [d for d in after.diagnostics if d.fix is not None], "fixable findings are left after --fix"
    # nothing changed outside the containers the fixes edited, byte for byte
    regions = _changed_regions(before.documents()[source.name], after.documents()[source.name].data)
    assert regions
    old_lines = original.decode("utf-8").splitlines(keepends=True)
    new_lines = after_bytes.decode("utf-8").splitlines(keepends=True)
    for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        first, last = i1 + 1, max(i2, i1 + 1)  # 1-based old lines the change touches
        assert any(start - 1 <= first and last <= end + 1 for start, end in regions), (
            f"lines {first}-{last} changed outside the edited values {regions}"
        )
    # a second --fix changes nothing
    assert run("check", source.name, "--fix", "--unsafe-fixes", "--fail-on", "never")[0] == 0
    assert target.read_bytes() == after_bytes


# --------------------------------------------------------------------------------------------------
# YAML


YAML_TOOLS = """\
# weather tools (comment kept)
tools:
    - name: get_weather   # trailing comment kept
      description: 'Current weather for a city.'
      inputSchema:
          type: object
          properties:
              city: {type: string, description: "City name"}
              note:
                  anyOf:
                      - type: string
                      - type: 'null'
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_yaml_fix_keeps_comments_quotes_and_indentation(project: Path) -> None:
    (project / "tools.yaml").write_text(YAML_TOOLS, encoding="utf-8")
    code, _, err = run("check", "tools.yaml", "--fix", "--select", "SL302,SL303", "--target", "openai", "--no-config")
    assert code == 0, err
    assert "Fixed 2 finding(s) in 1 file(s)." in err
    assert (project / "tools.yaml").read_text(encoding="utf-8") == YAML_TOOLS.replace(
        "              note:\n                  anyOf:\n"
        "                      - type: string\n                      - type: 'null'\n",
        "              note:\n                  type: [string, 'null']\n          additionalProperties: false\n",
    )


@pytest.mark.parametrize(
    "text",
    [
        "tools:\n  - name:    odd_spacing\n    description: Weather.\n    inputSchema: {type: object}\n",
        # ruamel.yaml writes `[{type: string}]` back as `[type: string]`
        "tools:\n  - name: f\n    description: F.\n"
        "    inputSchema: {type: object, properties: {a: {anyOf: [{type: string}]}}}\n",
    ],
)
def test_yaml_that_does_not_round_trip_is_left_alone(project: Path, text: str) -> None:
    (project / "tools.yaml").write_text(text, encoding="utf-8")
    code, _, err = run("check", "tools.yaml", "--fix", "--select", "SL303", "--no-config")
    assert "not fixed" in err and "round-trip" in err
    assert (project / "tools.yaml").read_text(encoding="utf-8") == text
    assert code == 0  # SL303 is a warning


# --------------------------------------------------------------------------------------------------
# The command line: --diff, --fix, Python, stale files, atomic writes

OPEN_TOOL = [{"name": "ping", "description": "Check the service.", "input_schema": {"type": "object"}}]


def write_json(project: Path, data: Any = OPEN_TOOL, name: str = "tools.json") -> Path:
    path = project / name
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path


def test_diff_writes_nothing_and_exits_one(project: Path) -> None:
    path = write_json(project)
    before = path.read_bytes()
    code, out, err = run("check", "tools.json", "--diff", "--no-config")
    assert code == 1
    assert out.startswith("--- a/tools.json\n+++ b/tools.json\n")
    assert '+      "type": "object",\n' in out or '+    "additionalProperties": false' in out
    assert "Would fix 1 finding(s) in 1 file(s)." in err
    assert path.read_bytes() == before
    run("check", "tools.json", "--fix", "--no-config")
    assert run("check", "tools.json", "--diff", "--no-config")[0] == 0


def test_unsafe_fixes_need_the_flag(project: Path) -> None:
    tool = {
        "type": "function",
        "function": {
            "name": "f",
            "description": "Does f.",
            "parameters": {
                "type": "object",
                "properties": {"a": {"type": "string", "description": "A"}},
                "additionalProperties": False,
            },
        },
    }
    path = write_json(project, [tool])
    assert run("check", "tools.json", "--fix", "--target", "openai-strict", "--no-config")[0] == 1  # SL401 stays
    assert "required" not in path.read_text(encoding="utf-8")
    code, _, err = run("check", "tools.json", "--fix", "--unsafe-fixes", "--target", "openai-strict", "--no-config")
    assert code == 0, err
    fixed = json.loads(path.read_text(encoding="utf-8"))
    assert fixed[0]["function"]["parameters"]["required"] == ["a"]
    assert fixed[0]["function"]["parameters"]["properties"]["a"]["type"] == ["string", "null"]


def test_python_sources_are_never_modified() -> None:
    document = Document("tools.py", "x = 1\n", [{"input_schema": {"type": "object"}}], "python")
    diagnostic = Diagnostic(
        "SL303",
        "additional-properties-not-false",
        Severity.WARNING,
        "m",
        "tools.py",
        Span(1, 1, 1, 2),
        "/0/input_schema",
        fix=Fix("t", (add("/0/input_schema/additionalProperties", False),)),
    )
    plan = plan_file(document, [diagnostic], True, lambda text, path: (None, []))
    assert plan.skipped and "never modified" in plan.skipped and not plan.changed


def test_stale_file_is_not_written(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_json(project)
    original_plan = fixes.plan_file

    def edit_while_planning(*args: Any) -> Any:
        plan = original_plan(*args)
        path.write_text(path.read_text(encoding="utf-8") + " ", encoding="utf-8")  # someone saves the file
        return plan

    monkeypatch.setattr(fixes, "plan_file", edit_while_planning)
    edited = path.read_text(encoding="utf-8") + " "
    _, _, err = run("check", "tools.json", "--fix", "--no-config")
    assert "changed on disk since it was linted; not written" in err
    assert path.read_text(encoding="utf-8") == edited


def test_write_atomically_refuses_changed_bytes(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_bytes(b"new")
    with pytest.raises(StaleFileError):
        write_atomically(path, b"old", b"fixed")
    assert path.read_bytes() == b"new"


@pytest.mark.parametrize("crash_in", ["fsync", "replace"])
def test_crash_mid_write_keeps_the_original(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, crash_in: str) -> None:
    path = tmp_path / "a.json"
    path.write_bytes(b"original")

    def crash(*args: Any) -> None:
        raise KeyboardInterrupt("power cut")

    monkeypatch.setattr(fixes.os, crash_in, crash)
    with pytest.raises(KeyboardInterrupt):
        write_atomically(path, b"original", b"fixed content")
    assert path.read_bytes() == b"original"
    assert os.listdir(tmp_path) == ["a.json"]  # no temporary file left behind


def test_fix_keeps_the_file_mode_and_byte_order_mark(project: Path) -> None:
    path = project / "tools.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(OPEN_TOOL, indent=2).encode("utf-8"))
    path.chmod(0o640)
    assert run("check", "tools.json", "--fix", "--no-config")[0] == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    assert json.loads(raw[3:])[0]["input_schema"]["additionalProperties"] is False


def test_fix_twice_is_a_no_op_and_reports_what_is_left(project: Path) -> None:
    path = write_json(project, [*OPEN_TOOL, {"name": "ping", "input_schema": {"type": "object"}}])
    code, out, err = run("check", "tools.json", "--fix", "--no-config")
    assert "Fixed 2 finding(s)" in err
    assert code == 1 and "SL104" in out and "SL303" not in out  # duplicate name and no description remain
    once = path.read_bytes()
    _, _, err = run("check", "tools.json", "--fix", "--no-config")
    assert "Fixed" not in err and path.read_bytes() == once


def test_fix_refuses_stdin() -> None:
    result = CliRunner().invoke(main, ["check", "-", "--fix"], input=json.dumps(OPEN_TOOL))
    assert result.exit_code == 2


def test_relint_uses_the_same_options(project: Path) -> None:
    write_json(project)
    relinted = lint_source(json.dumps(OPEN_TOOL), "tools.json", LintOptions(select=("SL303",), no_config=True))
    assert [d.code for d in relinted.diagnostics] == ["SL303"]


def test_yaml_fix_reuses_moved_subtrees_and_the_files_quote_style(project: Path) -> None:
    shutil.copyfile(CATALOGUE / "SL302-composition-keyword" / "bad.yaml", project / "tools.yaml")
    run("check", "tools.yaml", "--fix", "--unsafe-fixes", "--target", "openai-strict", "--no-config")
    fixed = (project / "tools.yaml").read_text(encoding="utf-8")
    assert 'type: [string, "null"]' in fixed  # the file writes "null" in double quotes
    # SL401 wraps `target` in anyOf: its flow-style branches move over as they were written
    assert "- {type: string, description: contact id}" in fixed
    assert "- {type: integer, description: row number}" in fixed


def test_hidden_characters_fix_keeps_yaml_quoting(project: Path) -> None:
    text = (
        'tools:\n  - name: get_weather\n    description: "Get the\u200b weather."  # note\n'
        "    inputSchema: {type: object}\n"
    )
    (project / "tools.yaml").write_text(text, encoding="utf-8")
    assert run("check", "tools.yaml", "--fix", "--select", "SL602", "--no-config")[0] == 0
    fixed = (project / "tools.yaml").read_text(encoding="utf-8")
    assert '    description: "Get the weather."   # note\n' in fixed  # still double-quoted, comment column kept


def test_diff_marks_a_missing_final_newline(project: Path) -> None:
    (project / "tools.json").write_text(json.dumps(OPEN_TOOL), encoding="utf-8")
    _, out, _ = run("check", "tools.json", "--diff", "--no-config")
    assert out.endswith("\n\\ No newline at end of file\n")


def test_fix_after_a_parallel_lint(project: Path) -> None:
    for index in range(70):  # enough files for worker processes
        write_json(project, [{**OPEN_TOOL[0], "name": f"t{index}"}], name=f"t{index:02}.json")
    code, _, err = run("check", ".", "--fix", "--jobs", "2", "--no-config")
    assert code == 0, err
    assert "Fixed 70 finding(s) in 70 file(s)." in err
    assert (
        json.loads((project / "t69.json").read_text(encoding="utf-8"))[0]["input_schema"]["additionalProperties"]
        is False
    )


def _as_dataclass_writes_it(cls: type) -> type:
    """The same frozen dataclass with the `__init__` dataclass writes itself."""
    fields = [(f.name, f.type, dataclasses.field(default=f.default)) for f in dataclasses.fields(cls)]
    return dataclasses.make_dataclass(cls.__name__, fields, frozen=True)


@pytest.mark.parametrize(
    ("cls", "args"),
    [
        (PatchOperation, ("add", "/a/b", False)),
        (PatchOperation, ("remove", "/a")),
        (PatchOperation, ("replace", "/x", {"type": ["string", "null"]})),
        (Fix, ("add it", (PatchOperation("add", "/a", 1),))),
        (Fix, ("rename", (PatchOperation("replace", "/n", "x"), PatchOperation("remove", "/m")), False)),
    ],
)
def test_fix_objects_are_the_frozen_dataclasses_they_declare(cls: type, args: tuple[Any, ...]) -> None:
    made, reference = cls(*args), _as_dataclass_writes_it(cls)(*args)
    assert dataclasses.astuple(made) == dataclasses.astuple(reference) and repr(made) == repr(reference)
    assert vars(made) == vars(reference)
    assert made == cls(*args)
    if cls is Fix or not isinstance(made.value, dict):
        assert hash(made) == hash(reference)
    assert dataclasses.replace(made) == made and pickle.loads(pickle.dumps(made)) == made
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.path = "/elsewhere"  # type: ignore[misc]


def _fix_cli(folder: Path, name: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "schemalint", "check", "--no-config", "--select", "SL303", "--fix", name],
        cwd=folder, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


UNFIXED = json.dumps([{"name": "get_item", "description": "Get one item by id.", "parameters": {"type": "object"}}])


def test_fix_refuses_a_hard_linked_file_and_keeps_both_names(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(UNFIXED, encoding="utf-8")
    os.link(tmp_path / "tools.json", tmp_path / "other.json")
    done = _fix_cli(tmp_path, "tools.json")
    assert "hard links" in done.stderr and "not written" in done.stderr
    assert (tmp_path / "tools.json").stat().st_ino == (tmp_path / "other.json").stat().st_ino
    assert (tmp_path / "other.json").read_text(encoding="utf-8") == UNFIXED


def test_fix_removes_the_temporary_file_a_killed_run_left(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(UNFIXED, encoding="utf-8")
    stale = tmp_path / ".tools.json.k3j2x.schemalint-tmp"
    stale.write_text("[", encoding="utf-8")
    unrelated = tmp_path / ".other.json.k3j2x.schemalint-tmp"
    unrelated.write_text("[", encoding="utf-8")
    done = _fix_cli(tmp_path, "tools.json")
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "tools.json").read_text(encoding="utf-8"))[0]["parameters"] == {
        "type": "object",
        "additionalProperties": False,
    }
    assert not stale.exists() and unrelated.exists()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file to a user needs root")
def test_fix_keeps_the_files_owner(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text(UNFIXED, encoding="utf-8")
    os.chown(path, 4242, 4343)
    done = _fix_cli(tmp_path, "tools.json")
    assert done.returncode == 0, done.stderr
    assert "additionalProperties" in path.read_text(encoding="utf-8")
    assert (path.stat().st_uid, path.stat().st_gid) == (4242, 4343)
