"""Every output format, validated against its schema or parsed by a parser for it."""

from __future__ import annotations

import importlib
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from schemalint.cli import main
from schemalint.diagnostics import Diagnostic
from schemalint.docs_site import rule_url
from schemalint.model import Severity, Span
from schemalint.reporters import OutputError, OutputTarget, github, junit, parse_output_targets
from schemalint.reporters import text as text_reporter
from schemalint.reporters.github import escape_data, escape_property

from .conftest import REPO

DATA = Path(__file__).parent / "data"
TOOL = {
    "type": "function",
    "function": {
        "name": "search_orders",
        "description": "Search orders by customer.",
        "parameters": {
            "type": "object",
            "properties": {
                "customer": {"type": "string", "description": "Customer id"},
                "filters": {"type": "object", "properties": {"status": {"type": "string", "description": "s"}}},
                "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "Free text"},
            },
            "required": ["customer", "missing"],
        },
    },
}
# the documented syntax of a workflow command: ::cmd key=value,key=value::message, no raw newlines
GITHUB_COMMAND = re.compile(
    r"^::(error|warning|notice) file=[^,:\n]+,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=SL\d{3}::[^\r\n]*$"
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "orders.json").write_text(json.dumps([TOOL], indent=2), encoding="utf-8")
    (tmp_path / "tools" / "clean.json").write_text(
        json.dumps(
            [
                {
                    "name": "check_service_health",
                    "description": "Check that the order service is up and answering requests.",
                    "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
                }
            ]
        ),
        encoding="utf-8",
    )
    return tmp_path


def check(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", "tools", "--no-config", *args])
    return result.exit_code, result.output


def test_sarif_validates_against_the_sarif_2_1_0_schema(project: Path) -> None:
    code, out = check("--output-format", "sarif")
    assert code == 1
    log = json.loads(out)
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.validate(log, schema, cls=jsonschema.Draft7Validator)
    run = log["runs"][0]
    assert log["version"] == "2.1.0"
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == project.resolve().as_uri() + "/"
    rule_ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    for result in run["results"]:
        assert rule_ids[result["ruleIndex"]] == result["ruleId"]
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"] == {"uri": "tools/orders.json", "uriBaseId": "%SRCROOT%"}
        assert location["region"]["startLine"] >= 1
    sl303 = next(r for r in run["tool"]["driver"]["rules"] if r["id"] == "SL303")
    assert sl303["helpUri"] == rule_url("SL303", "additional-properties-not-false")
    assert sl303["help"]["markdown"].startswith("## What it does")
    assert sl303["name"] == "additional-properties-not-false"


def _fingerprints(project: Path) -> dict[tuple[str, str], str]:
    """(rule, pointer below the tool) -> fingerprint of the SL303 findings of search_orders."""
    _, out = check("--output-format", "sarif", "--select", "SL303")
    results = json.loads(out)["runs"][0]["results"]
    return {
        (r["ruleId"], r["properties"]["pointer"].partition("/function")[2]): r["partialFingerprints"][
            "schemalintFingerprint/v2"
        ]
        for r in results
        if r["properties"]["tool"] == "search_orders"
    }


def _all_fingerprints(output: str) -> list[str]:
    _, out = check("--output-format", output, "--select", "SL303")
    if output == "gitlab":
        return [issue["fingerprint"] for issue in json.loads(out)]
    return [r["partialFingerprints"]["schemalintFingerprint/v2"] for r in json.loads(out)["runs"][0]["results"]]


def test_sarif_fingerprints_survive_line_shifts_and_change_with_content(project: Path) -> None:
    before = _fingerprints(project)
    assert len(set(before.values())) == len(before) == 2
    path = project / "tools" / "orders.json"
    path.write_text("\n\n\n" + json.dumps([TOOL], indent=4), encoding="utf-8")  # every line moves
    assert _fingerprints(project) == before
    changed = json.loads(json.dumps(TOOL))
    changed["function"]["parameters"]["properties"]["filters"]["description"] = "Filters"
    path.write_text(json.dumps([changed], indent=2), encoding="utf-8")
    after = _fingerprints(project)
    filters = ("SL303", "/parameters/properties/filters")
    assert after[filters] != before[filters]


@pytest.mark.parametrize("output", ["sarif", "gitlab"])
def test_fingerprints_survive_inserting_and_rewrapping_tools(project: Path, output: str) -> None:
    before = _all_fingerprints(output)
    assert len(before) == 2
    other = json.loads(json.dumps(TOOL))
    other["function"]["name"] = "list_orders"
    path = project / "tools" / "orders.json"
    path.write_text(json.dumps([other, TOOL], indent=2), encoding="utf-8")
    inserted = _all_fingerprints(output)
    assert len(inserted) == 4 and set(before) < set(inserted)
    path.write_text(json.dumps({"model": "m", "tools": [TOOL, other]}), encoding="utf-8")
    assert sorted(_all_fingerprints(output)) == sorted(inserted)


def test_fingerprints_are_unique_and_name_each_finding() -> None:
    from schemalint.fingerprints import fingerprints
    from schemalint.loaders.jsonyaml import load_json

    renamed = json.loads(json.dumps(TOOL))
    renamed["function"]["name"] = "find_orders"
    orders = load_json(json.dumps([TOOL]), "orders.json")
    moved = load_json(json.dumps([renamed, TOOL, TOOL]), "moved.json")

    def diagnostic(path: str, pointer: str, tool: str | None = "search_orders") -> Diagnostic:
        return Diagnostic("SL303", "slug", Severity.WARNING, "m", path, Span(1, 1, 1, 2), pointer, tool)

    diagnostics = [
        diagnostic("orders.json", "/0/function/parameters"),
        diagnostic("moved.json", "/1/function/parameters"),
        diagnostic("moved.json", "/2/function/parameters"),  # the same name twice: numbered
        diagnostic("moved.json", "/0/function/parameters", "find_orders"),
        diagnostic("moved.json", "/0/function/parameters", None),  # outside a named tool: the whole pointer
        diagnostic("missing.json", "/0/function/parameters"),
    ]
    prints = fingerprints(diagnostics, {"orders.json": orders, "moved.json": moved})
    assert len(set(prints)) == len(prints)
    assert prints[2] == f"{prints[1]}-2"
    files_swapped = fingerprints([diagnostics[1], diagnostics[0]], {"orders.json": orders, "moved.json": moved})
    assert files_swapped == [prints[1], prints[0]]


def test_github_commands_follow_the_documented_syntax(project: Path) -> None:
    code, out = check("--output-format", "github")
    assert code == 1
    lines = out.splitlines()
    assert lines
    for line in lines:
        assert GITHUB_COMMAND.match(line), line
    assert any(line.startswith("::error ") for line in lines)
    assert any(line.startswith("::warning ") for line in lines)


def test_github_escaping() -> None:
    assert escape_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert escape_property("a:b,c%") == "a%3Ab%2Cc%25"
    diagnostic = Diagnostic(
        "SL301", "nesting-too-deep", Severity.INFO, "two\nlines", "a,b:c.json", Span(1, 2, 3, 4), ""
    )
    (line,) = github.render([diagnostic], {}, False).splitlines()
    assert (
        line
        == "::notice file=a%2Cb%3Ac.json,line=1,col=2,endLine=3,endColumn=4,title=SL301::two%0Alines (nesting-too-deep)"
    )


def test_gitlab_code_quality_structure(project: Path) -> None:
    _, out = check("--output-format", "gitlab")
    issues = json.loads(out)
    assert issues
    fingerprints = [i["fingerprint"] for i in issues]
    assert len(set(fingerprints)) == len(fingerprints)
    for issue in issues:
        assert set(issue) >= {"description", "check_name", "fingerprint", "severity", "location"}
        assert issue["severity"] in {"info", "minor", "major", "critical", "blocker"}
        assert issue["location"]["path"] == "tools/orders.json"
        assert isinstance(issue["location"]["lines"]["begin"], int)


def test_junit_parses_and_counts(project: Path) -> None:
    _, out = check("--output-format", "junit")
    root = ET.fromstring(out.encode("utf-8"))
    assert root.tag == "testsuites"
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert set(suites) == {"tools/clean.json", "tools/orders.json"}
    failures = suites["tools/orders.json"].findall("testcase/failure")
    assert len(failures) == int(suites["tools/orders.json"].get("failures", "0")) > 0
    assert suites["tools/clean.json"].get("failures") == "0"
    assert len(suites["tools/clean.json"].findall("testcase")) == 1
    assert int(root.get("failures", "0")) == len(list(root.iter("failure")))


def test_junit_survives_control_characters() -> None:
    diagnostic = Diagnostic("SL301", "x", Severity.ERROR, "bad \x01 char", "a.json", Span(1, 1, 1, 2), "")
    root = ET.fromstring(junit.render([diagnostic], {}, False))
    assert "\\x01" in root.find("testsuite/testcase/failure").get("message", "")  # type: ignore[union-attr]


def test_junit_escapes_as_elementtree_does() -> None:
    messages = ["a&b<c>\"d'e\tf\rg\nh", "bad \x01\x00\ufffe char é", "plain"]
    diagnostics = [
        Diagnostic(f"SL30{i}", "slug-x", severity, messages[i % 3], path, Span(i + 1, 2, i + 3, 4), "/p", None)
        for i, (severity, path) in enumerate([(Severity.ERROR, 'p a&"<>\t.json'), (Severity.INFO, "q.yaml")] * 2)
    ][:3]
    assert junit.render(diagnostics, {"clean.json": None, 'b&<"c>.yaml': None}, False) == (
        DATA / "junit_expected.xml"
    ).read_bytes().decode("utf-8")
    assert junit.render([], {}, False).endswith('<testsuites name="schemalint" tests="0" failures="0" errors="0" />\n')


def test_json_output_validates_against_the_published_schema(project: Path) -> None:
    _, out = check("--output-format", "json", "--target", "openai-strict")
    findings = json.loads(out)
    assert any(f["fix"] for f in findings) and any(f["fix"] is None for f in findings)
    schema = json.loads((REPO / "docs" / "json-output.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(findings, schema, cls=jsonschema.Draft202012Validator)


def test_several_formats_in_one_run(project: Path) -> None:
    code, out = check(
        "--output-format", "text", "--output-format", "sarif:reports/out.sarif", "--output-format", "junit:x.xml"
    )
    assert code == 1
    assert "tools/orders.json:" in out and "Found" in out  # text on the terminal, with the summary
    assert json.loads((project / "reports" / "out.sarif").read_text(encoding="utf-8"))["version"] == "2.1.0"
    ET.fromstring((project / "x.xml").read_bytes())


def test_output_file_alone_takes_the_single_format(project: Path) -> None:
    code, out = check("--output-format", "json", "--output-file", "out.json")
    assert code == 1 and out == ""
    assert json.loads((project / "out.json").read_text(encoding="utf-8"))


def test_output_target_parsing() -> None:
    assert parse_output_targets(()) == [OutputTarget("text")]
    assert parse_output_targets(("sarif",), "a.sarif") == [OutputTarget("sarif", Path("a.sarif"))]
    assert parse_output_targets(("text", "sarif:b.sarif")) == [
        OutputTarget("text"),
        OutputTarget("sarif", Path("b.sarif")),
    ]
    for bad in (("text", "json"), ("xml",), ("sarif:",), ("json:a", "sarif:a")):
        with pytest.raises(OutputError):
            parse_output_targets(bad)


def test_clashing_formats_exit_two(project: Path) -> None:
    code, out = check("--output-format", "text", "--output-format", "json")
    assert code == 2 and "standard output" in out


def test_text_excerpt_of_a_crlf_file_shows_the_line_without_its_cr() -> None:
    from schemalint.loaders.jsonyaml import load_json

    text = '{\r\n  "tools": [\r\n\t{"name": "x"}\r\n  ]\r\n}\r\n'
    document = load_json(text, "f.json")
    span = document.positions.locate("/tools/0/name", key=True)
    assert span == Span(3, 3, 3, 9)
    diagnostic = Diagnostic("SL204", "slug", Severity.WARNING, "message", "f.json", span, "/tools/0/name")
    rendered = text_reporter.render([diagnostic], {"f.json": document}, False)
    assert rendered == 'f.json:3:3: SL204 [warning] message\n    3 |  {"name": "x"}\n          ^~~~~~\n'


@pytest.mark.parametrize("padding", [60, 300])
def test_the_caret_of_a_cut_long_line_underlines_the_whole_token(padding: int) -> None:
    from schemalint.loaders.jsonyaml import load_json

    # minified JSON: the line is cut around the finding and starts with an ellipsis
    text = '{"tools": [{"pad": "' + "x" * padding + '", "name": "lookup_order"}]}'
    document = load_json(text, "f.json")
    span = document.positions.locate("/tools/0/name")
    diagnostic = Diagnostic("SL101", "slug", Severity.WARNING, "message", "f.json", span, "/tools/0/name")
    shown, caret = text_reporter.render([diagnostic], {"f.json": document}, False).splitlines()[1:]
    start = caret.index("^")
    assert shown[start : len(caret)] == '"lookup_order"'


def test_a_long_line_is_cut_before_its_stand_ins_are_made(monkeypatch: pytest.MonkeyPatch) -> None:
    """Minified JSON is one line, shown once per finding: only the part shown is processed."""
    from schemalint.loaders.jsonyaml import load_json
    from schemalint.reporters import text

    # tabs (JSON whitespace, shown as spaces) on both sides of each cut
    tools = ",\t".join(f'{{"pad":\t"{"x" * (i % 7)}",\t"name": "tool_{i}"}}' for i in range(200))
    document = load_json('{"tools": [' + tools + "]}", "f.json")
    spans = [document.positions.locate(f"/tools/{i}/name") for i in range(200)]
    diagnostics = [Diagnostic("SL101", "s", Severity.INFO, "m", "f.json", span, "") for span in spans]
    lengths: list[int] = []
    stand_ins = text.printable_excerpt
    monkeypatch.setattr(text, "printable_excerpt", lambda line: lengths.append(len(line)) or stand_ins(line))
    rendered = text.render(diagnostics, {"f.json": document}).splitlines()
    assert len(lengths) == 200 and max(lengths) <= text._MAX_EXCERPT
    for i, (shown, caret) in enumerate(zip(rendered[1::3], rendered[2::3], strict=True)):
        assert "\t" not in shown
        assert shown[caret.index("^") : len(caret)] == f'"tool_{i}"'


@pytest.mark.parametrize("output_format", ["json", "sarif", "gitlab"])
def test_a_report_written_as_bytes_is_the_text_render_gives(project: Path, output_format: str) -> None:
    from schemalint.engine import LintOptions, lint

    result = lint(["tools"], LintOptions(no_config=True))
    reporter = importlib.import_module(f"schemalint.reporters.{output_format}")
    encoded = reporter.render(result.diagnostics, result.documents(), False)
    assert isinstance(encoded, bytes)  # on Linux, the bytes are written
    text = encoded.decode()
    assert check("--output-format", output_format) == (1, text)
    assert check("--output-format", f"{output_format}:reports/out") == (1, "")
    assert (project / "reports" / "out").read_bytes() == encoded


def test_a_report_in_bytes_reaches_a_standard_output_without_a_binary_stream(project: Path) -> None:
    import contextlib
    import io

    captured = io.StringIO()
    with contextlib.redirect_stdout(captured), pytest.raises(SystemExit):
        main(["check", "tools", "--no-config", "--output-format", "json"])
    assert captured.getvalue() == check("--output-format", "json")[1]
    assert json.loads(captured.getvalue())


def test_check_help_names_every_output_format() -> None:
    from schemalint.reporters import FORMATS

    result = CliRunner().invoke(main, ["check", "--help"], terminal_width=200)
    help_line = next(line for line in result.output.splitlines() if "--output-format" in line)
    assert all(f" {name}" in help_line for name in FORMATS), help_line
