"""Baselines: keyed by rule + file + tool + pointer below the tool + content hash, never by line or position."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from schemalint.cli import main


def tool(name: str, open_object: bool = True, extra: str = "") -> dict[str, object]:
    parameters: dict[str, object] = {
        "type": "object",
        "properties": {"city": {"type": "string", "description": f"City{extra}"}},
        "required": ["city"],
    }
    if not open_object:
        parameters["additionalProperties"] = False
    return {"type": "function", "function": {"name": name, "description": "Does a thing.", "parameters": parameters}}


def write(project: Path, tools: list[dict[str, object]], prefix: str = "") -> None:
    (project / "tools").mkdir(exist_ok=True)
    (project / "tools" / "a.json").write_text(prefix + json.dumps(tools, indent=2), encoding="utf-8")


def check(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["check", "--no-config", "--select", "SL303", "--fail-on", "warning", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, [tool("legacy_one"), tool("legacy_two")])
    code, _, err = check("tools", "--write-baseline", "ci/baseline.json")
    assert code == 0 and "Wrote 2 finding(s)" in err
    return tmp_path


def entries(project: Path) -> list[dict[str, object]]:
    data = json.loads((project / "ci" / "baseline.json").read_text(encoding="utf-8"))
    assert data["schemalint-baseline"] == 2
    return data["findings"]


def test_baseline_file_format(project: Path) -> None:
    found = entries(project)
    assert [(e["code"], e["path"], e["tool"], e["pointer"], e["count"]) for e in found] == [
        ("SL303", "../tools/a.json", "legacy_one", "/function/parameters", 1),
        ("SL303", "../tools/a.json", "legacy_two", "/function/parameters", 1),
    ]
    assert all(isinstance(e["hash"], str) and len(e["hash"]) == 16 for e in found)


def test_baselined_findings_are_hidden(project: Path) -> None:
    assert check("tools")[0] == 1
    code, out, err = check("tools", "--baseline", "ci/baseline.json")
    assert code == 0, out
    assert "All clear" in out and "2 finding(s) hidden" in err


def test_line_shifts_do_not_resurrect_findings(project: Path) -> None:
    write(project, [tool("legacy_one"), tool("legacy_two")], prefix="\n\n\n\n")
    (project / "tools" / "a.json").write_text(
        json.dumps([tool("legacy_one"), tool("legacy_two")], indent=4), encoding="utf-8"
    )
    assert check("tools", "--baseline", "ci/baseline.json")[0] == 0


def test_new_finding_is_reported_and_edited_content_resurrects(project: Path) -> None:
    write(project, [tool("legacy_one"), tool("legacy_two"), tool("brand_new")])
    code, out, _ = check("tools", "--baseline", "ci/baseline.json", "--output-format", "json")
    assert code == 1
    assert [d["tool"] for d in json.loads(out)] == ["brand_new"]
    write(project, [tool("legacy_one", extra=" name"), tool("legacy_two")])
    _, out, _ = check("tools", "--baseline", "ci/baseline.json", "--output-format", "json")
    # a nested schema changed, not the offending object's own keywords: still the same finding
    assert json.loads(out) == []
    changed = tool("legacy_one")
    changed["function"]["parameters"]["description"] = "Where"  # type: ignore[index]
    write(project, [changed, tool("legacy_two")])
    _, out, _ = check("tools", "--baseline", "ci/baseline.json", "--output-format", "json")
    assert [d["tool"] for d in json.loads(out)] == ["legacy_one"]


def new_tools(project: Path) -> list[str]:
    code, out, err = check("tools", "--baseline", "ci/baseline.json", "--output-format", "json")
    assert code in (0, 1) and "fixed" not in err, err
    return [d["tool"] for d in json.loads(out)]


def test_inserting_reordering_and_rewrapping_tools_keeps_baselined_findings(project: Path) -> None:
    write(project, [tool("brand_new"), tool("legacy_two"), tool("legacy_one")])
    assert new_tools(project) == ["brand_new"]
    (project / "tools" / "a.json").write_text(
        json.dumps({"model": "m", "tools": [tool("legacy_two"), tool("legacy_one")]}), encoding="utf-8"
    )
    assert new_tools(project) == []


def test_duplicate_tool_names_are_each_recorded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    described = tool("dup")
    described["function"]["parameters"]["description"] = "Where"  # type: ignore[index]
    write(tmp_path, [tool("dup"), tool("dup"), described])
    assert check("tools", "--write-baseline", "ci/baseline.json")[0] == 0
    assert sorted(e["count"] for e in entries(tmp_path)) == [1, 2]
    write(tmp_path, [tool("other"), described, tool("dup"), tool("dup")])
    assert new_tools(tmp_path) == ["other"]
    write(tmp_path, [tool("dup"), tool("dup"), tool("dup"), described])
    assert new_tools(tmp_path) == ["dup"]  # a third copy is a new finding


def test_a_file_without_tools_keeps_its_baselined_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, [tool("legacy_one")])
    (tmp_path / "tools" / "broken.json").write_text('[{"type": "function", ', encoding="utf-8")
    select = ["--select", "SL002,SL303"]
    assert check("tools", *select, "--write-baseline", "ci/baseline.json")[0] == 0
    assert {e["code"] for e in entries(tmp_path)} == {"SL002", "SL303"}
    write(tmp_path, [tool("brand_new"), tool("legacy_one")])
    code, out, _ = check("tools", *select, "--baseline", "ci/baseline.json", "--output-format", "json")
    assert code == 1
    assert [(d["code"], d["tool"]) for d in json.loads(out)] == [("SL303", "brand_new")]


def test_a_version_1_baseline_still_hides_what_it_recorded(project: Path) -> None:
    """Version 1 recorded the pointer from the file's root; its entries match as they were written."""
    version_1 = [{**e, "pointer": f"/{i}{e['pointer']}"} for i, e in enumerate(entries(project))]
    (project / "ci" / "baseline.json").write_text(json.dumps({"schemalint-baseline": 1, "findings": version_1}))
    code, _, err = check("tools", "--baseline", "ci/baseline.json")
    assert code == 0 and "2 finding(s) hidden" in err
    write(project, [tool("legacy_two"), tool("legacy_one")])  # positions were the key: both come back
    assert check("tools", "--baseline", "ci/baseline.json")[0] == 1
    write(project, [tool("legacy_one"), tool("legacy_two")])
    assert check("tools", "--write-baseline", "ci/baseline.json")[0] == 0
    assert [e["pointer"] for e in entries(project)] == ["/function/parameters"] * 2


def test_fixed_findings_are_counted_and_drop_out_on_rewrite(project: Path) -> None:
    write(project, [tool("legacy_one", open_object=False), tool("legacy_two")])
    code, _, err = check("tools", "--baseline", "ci/baseline.json")
    assert code == 0 and "1 baseline entry is fixed" in err
    check("tools", "--write-baseline", "ci/baseline.json")
    assert [e["tool"] for e in entries(project)] == ["legacy_two"]


def test_baseline_works_from_another_directory(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project / "tools")
    assert check("a.json", "--baseline", "../ci/baseline.json")[0] == 0


def test_a_repeated_identical_finding_is_new(project: Path) -> None:
    data = entries(project)
    data[0]["count"] = 0
    (project / "ci" / "baseline.json").write_text(json.dumps({"schemalint-baseline": 2, "findings": data}))
    assert check("tools", "--baseline", "ci/baseline.json")[0] == 1


@pytest.mark.parametrize("content", ["", "{", '{"findings": []}', '{"schemalint-baseline": 1, "findings": [{}]}'])
def test_bad_baseline_is_a_usage_error(project: Path, content: str) -> None:
    (project / "bad.json").write_text(content, encoding="utf-8")
    code, _, err = check("tools", "--baseline", "bad.json")
    assert code == 2 and "bad.json" in err
    assert check("tools", "--baseline", "missing.json")[0] == 2


def test_a_walked_baseline_is_not_a_checked_file(project: Path) -> None:
    """Recognised by its format key under any name (ci/baseline.json), keys in any order."""
    recorded = json.loads((project / "ci" / "baseline.json").read_text(encoding="utf-8"))
    reordered = {"findings": recorded["findings"], "schemalint-baseline": 2}
    (project / ".schemalint-baseline.json").write_text(json.dumps(reordered), encoding="utf-8")
    (project / "notes.json").write_text('{"schemalint-baseline": "not a version", "parameters": []}', encoding="utf-8")
    code, out, err = check(".", "--baseline", "ci/baseline.json")
    assert code == 0 and "2 finding(s) hidden" in err
    assert "All clear: 1 file(s) checked" in out  # tools/a.json; neither notes.json nor a baseline holds tools
