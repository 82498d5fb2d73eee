"""`schemalint mcp`: real MCP servers (tests/data/mcp_servers) started as subprocesses of this Python."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

pytest.importorskip("mcp.server.mcpserver")

from schemalint.cli import main

SERVERS = Path(__file__).parent / "data" / "mcp_servers"


def run_mcp(*args: str, server: str, server_args: tuple[str, ...] = ()) -> tuple[int, Any, str]:
    """Exit code, parsed JSON findings (or the raw stdout when it is not JSON), stderr."""
    command = [sys.executable, str(SERVERS / server), *server_args]
    result = CliRunner().invoke(main, ["mcp", "--output-format", "json", *args, "--", *command])
    try:
        findings: Any = json.loads(result.stdout)
    except json.JSONDecodeError:
        findings = result.stdout
    return result.exit_code, findings, result.stderr


def by_code(findings: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for finding in findings:
        out.setdefault(finding["code"], []).append(finding)
    return out


@pytest.fixture(scope="module")
def pinned(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """orders v1, linted once with a snapshot and a new lock file."""
    folder = tmp_path_factory.mktemp("pinned")
    snapshot, lock = folder / "orders.json", folder / "orders.lock.json"
    code, findings, stderr = run_mcp(
        "--save", str(snapshot), "--lock", str(lock), "--select", "SL201,SL303", server="orders_v1.py"
    )
    return {"code": code, "findings": findings, "stderr": stderr, "snapshot": snapshot, "lock": lock}


def test_findings_name_the_tool_and_point_into_the_snapshot(pinned: dict[str, Any]) -> None:
    assert pinned["code"] == 1, pinned["stderr"]
    codes = by_code(pinned["findings"])
    assert sorted(codes) == ["SL201", "SL303"]
    missing = codes["SL201"][0]
    assert missing["tool"] == "refund"
    assert missing["data"]["server"] == "orders"
    assert missing["path"].endswith("orders.json")
    lines = pinned["snapshot"].read_text(encoding="utf-8").splitlines()
    assert lines[missing["line"] - 1][missing["column"] - 1 :].startswith('""')  # the empty description
    assert {f["tool"] for f in codes["SL303"]} == {"get_order", "refund"}


def test_without_save_findings_carry_pointers(tmp_path: Path) -> None:
    code, findings, _ = run_mcp("--select", "SL201", server="orders_v1.py")
    assert code == 1
    [finding] = findings
    assert finding["path"] == "mcp:orders"
    assert finding["pointer"] == "/tools/1/description"
    assert "tool `refund`" in finding["message"]


def test_lock_pins_canonical_definitions(pinned: dict[str, Any]) -> None:
    assert "wrote lock file" in pinned["stderr"]
    lock = json.loads(pinned["lock"].read_text(encoding="utf-8"))
    assert [t["name"] for t in lock["tools"]] == ["get_order", "refund"]
    assert set(lock["hashes"]) == {"get_order", "refund"}
    assert all(h.startswith("sha256:") and len(h) == 71 for h in lock["hashes"].values())
    assert set(lock["tools"][0]) <= {"name", "description", "inputSchema", "outputSchema", "annotations"}


def lock_codes(findings: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    return {code: found for code, found in by_code(findings).items() if code.startswith("SL9")}


def test_unchanged_server_reports_nothing_new_against_its_lock(pinned: dict[str, Any]) -> None:
    code, findings, _ = run_mcp("--lock", str(pinned["lock"]), server="orders_v1.py")
    assert code == 1
    assert "SL201" in by_code(findings)
    assert lock_codes(findings) == {}


def test_changed_server_reports_the_rug_pull_and_update_lock_accepts_it(pinned: dict[str, Any], tmp_path: Path) -> None:
    lock = tmp_path / "orders.lock.json"
    lock.write_bytes(pinned["lock"].read_bytes())
    code, findings, stderr = run_mcp("--lock", str(lock), server="orders_v2.py")
    assert code == 1, stderr
    assert by_code(findings)["SL201"][0]["tool"] == "refund"  # linted as usual besides
    codes = lock_codes(findings)
    [rug_pull] = codes["SL909"]
    assert rug_pull["tool"] == "get_order"
    assert rug_pull["severity"] == "error"
    assert "changed since the lock" in rug_pull["message"]
    assert [f["tool"] for f in codes["SL916"]] == ["cancel_order"]
    assert [f["tool"] for f in codes["SL903"]] == ["refund"]  # the new required `reason`

    _, _, stderr = run_mcp("--lock", str(lock), "--update-lock", server="orders_v2.py")
    assert "change(s) accepted" in stderr
    _, findings, _ = run_mcp("--lock", str(lock), server="orders_v2.py")
    assert lock_codes(findings) == {}


def test_tools_list_pages_are_all_read() -> None:
    code, findings, stderr = run_mcp("--select", "SL303", server="raw.py", server_args=("paged",))
    assert code == 0, stderr
    assert [f["tool"] for f in findings] == ["tool_0", "tool_1", "tool_2"]
    assert {f["path"] for f in findings} == {"mcp:raw-paged"}


def one_line_error(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert lines[0].startswith("schemalint: error: MCP server `")
    return lines[0]


def test_server_that_crashes_on_start() -> None:
    code, findings, stderr = run_mcp(server="crash.py")
    assert code == 2
    assert findings == ""
    message = one_line_error(stderr)
    assert "exited or closed the connection" in message
    assert "DATABASE_URL is not set" in message  # its stderr says why


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("malformed", "malformed tools/list answer: `tools` is not a list of objects"),
        (
            "garbage",
            "no JSON-RPC answer within 3 s (--timeout); the server wrote 1 other line(s) to stdout, "
            "first: 'this is not JSON-RPC'",
        ),
    ],
)
def test_malformed_answers(mode: str, expected: str) -> None:
    started = time.monotonic()
    code, _, stderr = run_mcp("--timeout", "3", server="raw.py", server_args=(mode,))
    assert code == 2
    assert expected in one_line_error(stderr)
    assert time.monotonic() - started < 20


def test_a_tool_that_breaks_the_spec_is_linted_not_refused() -> None:
    code, findings, stderr = run_mcp("--select", "SL311", server="raw.py", server_args=("untyped",))
    assert code == 1, stderr
    assert [(finding["code"], finding["tool"]) for finding in findings] == [("SL311", "tool_0")]


def test_log_lines_on_stdout_are_skipped_and_said() -> None:
    code, findings, stderr = run_mcp("--select", "SL201", "--timeout", "20", server="raw.py", server_args=("logs",))
    assert code == 0 and findings == []
    assert "skipped 4 line(s) the server wrote to stdout that are not JSON-RPC (first: '[info] handling" in stderr


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    return not (status.exists() and "State:\tZ" in status.read_text())


def test_hanging_server_times_out_and_leaves_no_process(tmp_path: Path) -> None:
    pids_file = tmp_path / "pids"
    started = time.monotonic()
    code, _, stderr = run_mcp("--timeout", "3", server="hang.py", server_args=(str(pids_file),))
    assert code == 2
    assert "no answer within 3 s" in one_line_error(stderr)
    assert time.monotonic() - started < 20
    pids = [int(p) for p in pids_file.read_text().split()]
    assert len(pids) == 2  # the server and the child it started, which ignores nothing
    assert not any(alive(pid) for pid in pids)


def test_a_grandchild_that_left_the_process_group_is_stopped_too(tmp_path: Path) -> None:
    pids_file = tmp_path / "pids"
    code, _, _ = run_mcp("--timeout", "3", server="hang_setsid.py", server_args=(str(pids_file),))
    assert code == 2
    pids = [int(p) for p in pids_file.read_text().split()]
    assert len(pids) == 2  # the server and its grandchild in a session of its own
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in pids)


def test_command_that_does_not_exist(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["mcp", "--", str(tmp_path / "no-such-server")])
    assert result.exit_code == 2
    assert "cannot start: No such file or directory" in result.stderr


@pytest.mark.parametrize(
    "args",
    [["mcp"], ["mcp", "--url", "http://127.0.0.1:9/mcp", "--", "x"], ["mcp", "--update-lock", "--", "x"]],
)
def test_usage_errors(args: list[str]) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert result.stderr.startswith("schemalint: error: ")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_streamable_http_url() -> None:
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, str(SERVERS / "orders_v1.py"), "--http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.2)
        url = f"http://127.0.0.1:{port}/mcp"
        result = CliRunner().invoke(main, ["mcp", "--url", url, "--output-format", "json", "--select", "SL201"])
        assert result.exit_code == 1, result.stderr
        [finding] = json.loads(result.stdout)
        assert (finding["path"], finding["tool"]) == ("mcp:orders", "refund")
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_url_where_nothing_listens() -> None:
    result = CliRunner().invoke(main, ["mcp", "--url", f"http://127.0.0.1:{free_port()}/mcp", "--timeout", "20"])
    assert result.exit_code == 2
    assert "cannot connect" in one_line_error(result.stderr)


def test_the_server_gets_the_callers_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A token exported in the shell reaches the server, as with any command the user runs."""
    monkeypatch.setenv("RAW_TOOL_NAME", "lookup_order_from_env")
    snapshot = tmp_path / "tools.json"
    code, _findings, stderr = run_mcp(
        "--save", str(snapshot), "--select", "SL201", server="raw.py", server_args=("env",)
    )
    assert code == 0, stderr
    assert [tool["name"] for tool in json.loads(snapshot.read_text())["tools"]] == ["lookup_order_from_env"]
    monkeypatch.delenv("RAW_TOOL_NAME")
    code, _findings, stderr = run_mcp(server="raw.py", server_args=("env",))
    assert code == 2
    assert "RAW_TOOL_NAME is not set" in stderr
