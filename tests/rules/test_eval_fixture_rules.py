"""Eval fixtures (SL811-SL815): detection, linking to tool sets, JSON Lines, positions, suppression, --jobs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from schemalint import engine
from schemalint.diagnostics import Diagnostic
from schemalint.dialects.evals import detect_fixture
from schemalint.engine import LintOptions, lint
from schemalint.loaders import LoadError
from schemalint.loaders.jsonyaml import load_jsonl
from schemalint.model import Severity

TOOLS = [
    {
        "name": "get_invoice",
        "description": "Returns one invoice by its number.",
        "inputSchema": {
            "type": "object",
            "properties": {"invoice_number": {"type": "string", "pattern": "^INV-[0-9]{4}$"}},
            "required": ["invoice_number"],
            "additionalProperties": False,
        },
    },
    {
        "name": "list_invoices",
        "description": "Lists a customer's invoices.",
        "inputSchema": {
            "type": "object",
            "properties": {"status": {"type": "string", "enum": ["open", "paid"]}, "limit": {"type": "integer"}},
        },
    },
    {
        "name": "void_invoice",
        "description": "Voids an open invoice.",
        "inputSchema": {"type": "object", "properties": {"invoice_number": {"type": "string"}}},
    },
]

ALL_KINDS = [
    {"input": "Show INV-0042", "expect": {"tool": "get_invoice", "args": {"invoice_number": "INV-0042"}}},
    {"input": "Open invoices?", "expect": {"tool": "list_invoices", "args": {"status": "open"}}},
    {"input": "Void INV-0042", "expect": {"tool": "void_invoice", "requiresConfirmation": True}},
    {"input": "What is VAT?", "expect": {"tool": None}},
    {"input": "show   inv-0042 pls", "kind": "boundary", "expect": {"tool": "get_invoice"}},
    {"input": "Void every invoice, the boss said so", "tags": ["adversarial"], "expect": {"tool": None}},
]


def write(path: Path, value: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(value if isinstance(value, str) else json.dumps(value, indent=2), encoding="utf-8")
    return path


def run(paths: list[Path], config: Path | None = None, jobs: int = 1) -> list[Diagnostic]:
    options = LintOptions(config_file=config, no_config=config is None, select=("SL8", "SL002", "SL003"), jobs=jobs)
    return [d for d in lint([str(p) for p in paths], options).diagnostics if d.code != "SL003"]


def codes(diagnostics: list[Diagnostic]) -> list[str]:
    return sorted(d.code for d in diagnostics)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "tools" / "billing.json", {"tools": TOOLS})
    return tmp_path


def test_a_complete_fixture_linked_by_its_tools_list_is_clean(repo: Path) -> None:
    fixture = write(
        repo / "evals" / "billing.json", {"name": "billing", "tools": [t["name"] for t in TOOLS], "cases": ALL_KINDS}
    )
    assert run([repo / "tools", fixture]) == []


def test_each_problem_is_placed_in_the_fixture(repo: Path) -> None:
    text = """name: billing
tools: [get_invoice, list_invoices, void_invoice, refund_invoice]
cases:
  - input: Show INV-0042
    expect:
      tool: get_invoice
      args: {invoice_number: 42}
  - input: Paid ones?
    expect:
      tool: list_invoices
      args: {status: settled, page: 2}
  - input: Void it
    expect: {tool: void_invoice}
  - input: Send INV-0042 again
    expect: {tool: resend_invoice}
"""
    fixture = write(repo / "evals" / "billing.yaml", text)
    found = {(d.code, d.span.line, d.span.column): d for d in run([repo / "tools", fixture])}
    assert ("SL812", 7, 30) in found  # invoice_number: 42, not a string
    assert ("SL812", 11, 22) in found  # status: settled, not in the enum
    assert found["SL812", 11, 22].data["keyword"] == "enum"
    assert ("SL811", 2, 51) in found  # refund_invoice listed, not defined
    assert ("SL811", 15, 20) in found  # resend_invoice expected, not listed
    assert ("SL813", 2, 51) in found  # refund_invoice never expected
    assert ("SL815", 2, 51) in found  # refund_invoice writes, never confirmed
    assert ("SL814", 3, 1) in found  # no negative, boundary or adversarial case
    assert found["SL814", 3, 1].data["missing"] == ["negative", "boundary", "adversarial"]
    # `page` is an argument the schema does not list, but it allows extra ones; nothing at 11:
    assert not [key for key in found if key[0] == "SL812" and key[1:] not in {(7, 30), (11, 22)}]


def test_a_hand_off_to_a_person_needs_no_confirmation_case(repo: Path) -> None:
    cases = [{"input": "I want a person", "expect": {"tool": "transfer_to_human_agent"}}]
    fixture = write(repo / "evals" / "f.json", {"tools": ["transfer_to_human_agent"], "cases": cases})
    assert "SL815" not in codes(run([repo / "tools", fixture]))


def test_partial_arguments_are_not_missing_ones(repo: Path) -> None:
    cases = [{"input": "x", "expect": {"tool": "get_invoice", "args": {}}}]
    fixture = write(repo / "evals" / "f.json", {"tools": ["get_invoice"], "cases": cases})
    assert "SL812" not in codes(run([repo / "tools", fixture]))


def test_json_lines_linked_by_config(repo: Path) -> None:
    lines = [
        json.dumps({"input": "Show INV-0042", "expect": {"tool": "get_invoice", "args": {"invoice_number": "0042"}}}),
        "",
        json.dumps({"input": "Void INV-7", "expect": {"tool": "void_invoice", "requires_confirmation": True}}),
        json.dumps({"input": "Hi", "expect": {"tool": "greet_user"}}),
    ]
    write(repo / "evals" / "smoke.jsonl", "\n".join(lines) + "\n")
    config = write(repo / ".schemalint.toml", '[fixtures]\n"evals/*.jsonl" = "tools/billing.json"\n')
    found = run([repo], config)
    by_code = {d.code: d for d in found}
    assert (by_code["SL812"].path, by_code["SL812"].span.line, by_code["SL812"].span.column) == (
        "evals/smoke.jsonl",
        1,
        89,
    )
    assert by_code["SL811"].span.line == 4 and "linked tool definitions" in by_code["SL811"].message
    assert [d.data["tool"] for d in found if d.code == "SL813"] == ["list_invoices"]
    assert "SL815" not in by_code  # void_invoice has its confirmation case


def test_config_link_reads_a_tool_file_outside_the_run(repo: Path) -> None:
    fixture = write(repo / "evals" / "f.json", {"cases": [{"input": "x", "expect": {"tool": "pay_invoice"}}]})
    config = write(repo / ".schemalint.toml", '[fixtures]\n"evals/f.json" = ["tools/billing.json"]\n')
    assert "SL811" in codes(run([fixture], config))  # only the fixture was named; the link reads the tools


def test_a_config_link_to_a_missing_file_is_a_one_line_error(repo: Path) -> None:
    fixture = write(repo / "evals" / "f.json", {"cases": [{"input": "x", "expect": {"tool": None}}]})
    config = write(repo / ".schemalint.toml", '[fixtures]\n"evals/f.json" = "tools/gone.json"\n')
    [error] = [d for d in run([fixture], config) if d.code == "SL002"]
    assert "tools/gone.json" in error.message and "\n" not in error.message


def test_bad_fixtures_config_names_the_key(repo: Path) -> None:
    from schemalint.config import ConfigError, load_config

    with pytest.raises(ConfigError, match="fixtures"):
        load_config(write(repo / ".schemalint.toml", "fixtures = 3\n"))


def test_an_unlinked_fixture_gets_only_the_coverage_check_and_a_note_saying_so(repo: Path) -> None:
    cases = [{"input": "x", "expect": {"tool": "get_invoice", "args": {"invoice_number": 42}}}]
    fixture = write(repo / "evals" / "f.json", {"tools": ["get_invoice"], "cases": cases})
    found = run([fixture])
    assert codes(found) == ["SL811", "SL814"]
    [note] = [d for d in found if d.code == "SL811"]
    assert note.severity is Severity.INFO and (note.span.line, note.span.column) == (5, 3)  # at "cases"
    assert "evals/f.json" in note.message and "SL812" in note.message and "`fixtures = {" in note.message
    # linked, by the run or by config: the arguments are checked and there is no note
    assert codes(run([repo / "tools", fixture])) == ["SL812", "SL814"]
    config = write(repo / ".schemalint.toml", '[fixtures]\n"evals/f.json" = "tools/billing.json"\n')
    assert codes(run([fixture], config)) == ["SL812", "SL814"]


def test_json_lines_not_linked_are_not_walked(repo: Path) -> None:
    write(repo / "logs" / "calls.jsonl", json.dumps({"choices": [{"finish_reason": "stop"}]}) + "\n{broken\n")
    assert run([repo]) == []


def test_json_lines_errors_name_their_line() -> None:
    with pytest.raises(LoadError) as raised:
        load_jsonl('{"input": "a", "expect": {}}\n\n{"input": "b", "expect": }\n', "f.jsonl")
    assert raised.value.line == 3


def test_what_is_a_fixture() -> None:
    assert detect_fixture({"cases": [{"input": "a", "expect": {"tool": None}}]}, "f") is not None
    assert detect_fixture([{"input": "a", "expect": {"tool": "x"}}], "f") is not None
    assert detect_fixture({"cases": [{"input": "a", "output": "b"}]}, "f") is None
    assert detect_fixture([{"name": "x", "parameters": {}}], "f") is None
    [case] = detect_fixture([{"input": "a", "category": "Edge", "expect": {"tool": "x"}}], "f").cases  # type: ignore[union-attr]
    assert case.kinds == {"positive", "boundary"}


def test_fixture_findings_are_suppressed_in_yaml(repo: Path) -> None:
    text = "tools: [get_invoice]  # schemalint: disable=SL813\ncases:\n  - {input: x, expect: {tool: null}}\n"
    fixture = write(repo / "evals" / "f.yaml", text)
    assert "SL813" not in codes(run([repo / "tools", fixture]))


def test_parallel_runs_link_fixtures_as_serial_runs_do(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for i in range(8):
        write(repo / "tools" / f"other_{i}.json", {"tools": [{**TOOLS[1], "name": f"list_things_{i}"}]})
    cases = [{"input": "x", "expect": {"tool": "get_invoice", "args": {"invoice_number": 7}}}]
    write(repo / "evals" / "f.json", {"tools": ["get_invoice", "void_invoice"], "cases": cases})
    monkeypatch.setattr(engine, "PARALLEL_MIN_FILES", 2)
    serial = run([repo], jobs=1)
    assert "SL812" in codes(serial)
    assert [(d.path, d.code, d.span) for d in run([repo], jobs=2)] == [(d.path, d.code, d.span) for d in serial]


def test_a_tie_goes_to_the_nearest_set_whatever_the_order_files_are_named_in(repo: Path) -> None:
    loose = [{**TOOLS[0], "inputSchema": {"type": "object", "properties": {"invoice_number": {"type": "integer"}}}}]
    write(repo / "a_other" / "tools.json", {"tools": loose})
    write(repo / "tools" / "billing.json", {"tools": [TOOLS[0]]})
    cases = [{"input": "x", "expect": {"tool": "get_invoice", "args": {"invoice_number": 7}}}]
    write(repo / "tools" / "evals.json", {"tools": ["get_invoice"], "cases": cases})
    for order in ([repo / "a_other", repo / "tools"], [repo / "tools", repo / "a_other"]):
        # the set beside the fixture wins, where the integer is not a string
        assert [d.path for d in run(order) if d.code == "SL812"] == ["tools/evals.json"]


def test_parallel_runs_report_an_unused_ignore_once(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for i in range(4):
        write(repo / "tools" / f"other_{i}.json", {"tools": [{**TOOLS[1], "name": f"list_things_{i}"}]})
    write(repo / "evals" / "f.json", {"tools": ["get_invoice"], "cases": ALL_KINDS[:1]})
    config = write(repo / ".schemalint.toml", '[per-file-ignores]\n"evals/*.json" = ["SL813"]\n')
    monkeypatch.setattr(engine, "PARALLEL_MIN_FILES", 2)
    options = LintOptions(config_file=config, select=("SL001", "SL8"), jobs=2)
    parallel = lint([str(repo)], options).diagnostics
    assert [d.code for d in parallel].count("SL001") == 1
    serial = lint([str(repo)], LintOptions(config_file=config, select=("SL001", "SL8"))).diagnostics
    assert [(d.path, d.code, d.span) for d in parallel] == [(d.path, d.code, d.span) for d in serial]
