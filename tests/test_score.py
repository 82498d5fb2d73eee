"""The score (docs/score.md): the formula, tool sets, unreadable files, the gate and where it is shown."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from schemalint.diagnostics import Diagnostic
from schemalint.model import Severity, Span
from schemalint.score import penalty

from .conftest import REPO
from .test_cli import run


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def finding(code: str, severity: Severity) -> Diagnostic:
    return Diagnostic(code, "slug", severity, "m", "t.json", Span(1, 1, 1, 2), "/0")


def tool(name: str, described: bool = True, undocumented: int = 0) -> dict[str, object]:
    properties: dict[str, object] = {"city": {"type": "string", "description": "City name"}}
    properties |= {f"p{i}": {"type": "string"} for i in range(undocumented)}
    function: dict[str, object] = {
        "name": name,
        "parameters": {"type": "object", "properties": properties, "additionalProperties": False},
    }
    if described:
        function["description"] = "Current weather for a city. Do not use it for forecasts."
    return {"type": "function", "function": function}


def write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")


def summary(*args: str) -> dict:
    code, out = run("check", *args, "-q", "--output-format", "json-summary", "--fail-on", "never")
    assert code == 0, out
    return json.loads(out)


def test_penalty_weighs_severity_rule_and_repeats() -> None:
    assert penalty([]) == 0
    assert penalty([finding("SL201", Severity.ERROR)]) == 25
    assert penalty([finding("SL204", Severity.WARNING), finding("SL202", Severity.WARNING)]) == 10
    assert penalty([finding("SL204", Severity.WARNING)] * 3) == 5 * 2  # the repeats cost half each
    assert penalty([finding("SL204", Severity.WARNING)] * 10) == 5 * 3  # ... four of them at most
    assert penalty([finding("SL306", Severity.INFO), finding("SL306", Severity.WARNING)]) == 5 * 1.5  # worst
    assert penalty([finding("SL605", Severity.WARNING)]) == 10  # security counts double
    assert penalty([finding("SL001", Severity.WARNING), finding("SL906", Severity.ERROR)]) == 0


def test_tool_set_and_run_scores(project: Path) -> None:
    write(project / "a.json", [tool("get_weather"), tool("get_forecast", described=False)])
    write(project / "b.json", [tool("get_wind", undocumented=10)])
    result = summary(".", "--select", "SL201,SL204")
    scores = {t["name"]: t["score"] for t in result["tools"]}
    assert scores == {"get_weather": 100, "get_forecast": 75, "get_wind": 85}
    sets = {s["name"]: s["score"] for s in result["toolsets"]}
    assert sets == {"a.json": 87, "b.json": 85}  # (100 + 75) / 2, rounded down
    assert result["score"] == 86  # (87 * 2 + 85) / 3
    assert result["findings"] == {"total": 11, "error": 1, "warning": 10, "info": 0}


def test_set_wide_findings_and_configured_toolsets(project: Path) -> None:
    (project / ".schemalint.toml").write_text(
        'toolsets = { weather = ["tools/*.json"] }\n[rules.SL501]\nmax-tools = 1\n', encoding="utf-8"
    )
    write(project / "tools" / "a.json", [tool("get_weather")])
    write(project / "tools" / "b.json", [tool("get_wind")])
    result = summary(".", "--select", "SL501")
    (toolset,) = result["toolsets"]
    assert toolset == {"name": "weather", "score": 95, "tools": 2, "set_penalty": 5.0}
    assert {t["score"] for t in result["tools"]} == {100}  # SL501 is the set's, not its first extra tool's


def test_an_unreadable_file_scores_zero(project: Path) -> None:
    write(project / "a.json", [tool("get_weather")])
    (project / "broken.json").write_text('{"tools": [{"parameters": ', encoding="utf-8")
    result = summary(".")
    assert {s["name"]: s["score"] for s in result["toolsets"]} == {"a.json": 100, "broken.json": 0}
    assert result["score"] == 50


def test_fail_under_is_a_gate_of_its_own(project: Path) -> None:
    write(project / "a.json", [tool("get_weather", undocumented=1)])  # one warning: 95
    assert run("check", "--fail-under", "95")[0] == 0
    code, out = run("check", "--fail-under", "96")
    assert code == 1 and "the score 95 is below --fail-under 96" in out
    assert run("check", "--fail-under", "101")[0] == 2
    assert run("check")[0] == 0  # the default gate is still the severities


def test_the_baseline_hides_findings_not_their_cost(project: Path) -> None:
    write(project / "a.json", [tool("get_weather", described=False)])
    assert run("check", "--write-baseline", "base.json")[0] == 0
    code, out = run("check", "--baseline", "base.json", "--fail-under", "90")
    assert code == 1 and "All clear" in out and "Score 75/100." in out


def test_text_summary_names_the_lowest_set(project: Path) -> None:
    write(project / "a.json", [tool("get_weather")])
    write(project / "b.json", [tool("get_wind", described=False)])
    code, out = run("check", "--select", "SL201")
    assert code == 1
    assert out.rstrip().endswith("1 error. Score 87/100 (lowest tool set: b.json 75).")
    write(project / "b.json", [tool("get_wind")])
    assert run("check")[1].rstrip().endswith("no findings. Score 100/100.")


def test_summary_validates_and_markdown_shows_the_scores(project: Path) -> None:
    write(project / "a.json", [tool("get_weather"), tool("get_forecast", described=False)])
    result = summary(".")
    schema = json.loads((REPO / "docs" / "json-output.schema.json").read_text(encoding="utf-8"))
    summary_schema = {"$defs": schema["$defs"], **schema["$defs"]["summary"]}
    jsonschema.validate(result, summary_schema, cls=jsonschema.Draft202012Validator)
    _, out = run("check", "-q", "--output-format", "markdown")
    assert "**Score 87/100**" in out and "| a.json | 2 | 87 |" in out
    assert "| get\\_forecast | a.json | 1 | 75 |" in out


def test_parallel_workers_give_the_same_scores(project: Path) -> None:
    for index in range(70):  # engine.PARALLEL_MIN_FILES: enough files for worker processes
        write(project / f"t{index:02}.json", [tool(f"get_weather_{index}", described=index % 3 != 0)])
    assert summary(".", "--jobs", "1") == summary(".", "--jobs", "2")
