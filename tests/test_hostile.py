"""Hostile inputs: each ends in a clear SL002 (or a normal result) in bounded time, and the other files
named in the same run are still linted. Time and memory are measured in benchmarks/hostile.py;
the bounds here are generous sanity limits so a hang or a blow-up fails the suite."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

GOOD = [{"name": "get_item", "description": "", "parameters": {"type": "object"}}]  # SL201 marks "linted"
TIME_LIMIT_S = 60


def lint_with_witness(tmp_path: Path, hostile: str, *extra: str) -> list[dict]:
    """Lint the hostile path beside a normal file; return JSON findings (exit code 0/1 only)."""
    (tmp_path / "witness.json").write_text(json.dumps(GOOD), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "schemalint", "check", hostile, "witness.json", "--no-config",
         "--output-format", "json", *extra],
        cwd=tmp_path, capture_output=True, text=True, timeout=TIME_LIMIT_S, check=False,
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr
    findings = json.loads(done.stdout)
    assert any(f["path"] == "witness.json" and f["code"] == "SL201" for f in findings), "other file not linted"
    return findings


def errors_for(findings: list[dict], path: str) -> list[str]:
    return [f["message"] for f in findings if f["path"] == path and f["code"] == "SL002"]


BILLION_LAUGHS = "\n".join(
    ["a: &a [parameters, parameters, parameters, parameters, parameters, parameters, parameters, parameters, x]"]
    + [f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]" for i in range(8)]
    + ["tools: [*i]"]
)


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("bomb.yaml", BILLION_LAUGHS, "alias"),
        ("tags.yaml", "tools:\n  - name: x\n    parameters: !!python/object/apply:os.system ['touch pwned']\n", "tag"),
        ("custom.yaml", "tools:\n  - !Tool {name: x, parameters: {}}\n", "tag"),
        ("deep.json", '{"parameters": ' + "[" * 100_000 + "]" * 100_000 + "}", "nesting"),
        ("deep.yaml", "parameters: " + "[" * 100_000 + "]" * 100_000 + "\n", "nesting"),
        (
            "deep-block.yaml",
            "".join("  " * i + "parameters:\n" for i in range(5_000)) + "  " * 5_000 + "x: 1\n",
            "nesting",
        ),
    ],
)
def test_hostile_text(tmp_path: Path, name: str, content: str, expected: str) -> None:
    (tmp_path / name).write_text(content, encoding="utf-8")
    assert not (tmp_path / "pwned").exists()
    messages = errors_for(lint_with_witness(tmp_path, name), name)
    assert messages and expected in messages[0].lower(), messages
    assert not (tmp_path / "pwned").exists()


FASTMCP_HEADER = "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('demo')\n\n\n@mcp.tool()\n"


@pytest.mark.parametrize(
    "body",
    [
        "def f(a: int) -> int:\n    return " + "[" * 100_000 + "]" * 100_000 + "\n",
        "def f(a: int) -> int:\n    return a" + ".b" * 20_000 + "\n",
        "def f(a: int) -> int:\n    return " + "-" * 50_000 + "1\n",
    ],
    ids=["brackets", "attribute-chain", "unary-chain"],
)
def test_deeply_nested_python_is_refused_before_libcst(tmp_path: Path, body: str) -> None:
    # libcst's native parser hangs or crashes the process on these; CPython's parser refuses them first
    (tmp_path / "deep.py").write_text(FASTMCP_HEADER + body, encoding="utf-8")
    messages = errors_for(lint_with_witness(tmp_path, "deep.py"), "deep.py")
    assert messages, "expected an SL002 for deep.py"


def test_python_deeper_than_the_limit_is_refused_on_every_python_version() -> None:
    # CPython 3.10 parses a 20,000-long attribute chain that 3.11 refuses; libcst never finishes it
    from schemalint.loaders import LoadError
    from schemalint.loaders.pyextract.source import MAX_PYTHON_NESTING, parse_module

    with pytest.raises(LoadError, match="nested too deeply"):
        parse_module("x = a" + ".b" * MAX_PYTHON_NESTING + "\n", "deep.py")
    assert parse_module("x = a" + ".b" * (MAX_PYTHON_NESTING - 5) + "\n", "ok.py") is not None


def test_python_file_is_never_imported(tmp_path: Path) -> None:
    code = (
        "import pathlib\n"
        "pathlib.Path(__file__).with_name('pwned.txt').write_text('imported')\n"
        + FASTMCP_HEADER
        + 'def get_item(item_id: str) -> str:\n    """Get one item by id."""\n    return item_id\n'
    )
    (tmp_path / "evil.py").write_text(code, encoding="utf-8")
    findings = lint_with_witness(tmp_path, "evil.py")
    assert any(f["path"] == "evil.py" and f["tool"] == "get_item" for f in findings)
    assert not (tmp_path / "pwned.txt").exists()


def test_utf16_with_bom_is_read(tmp_path: Path) -> None:
    (tmp_path / "utf16.json").write_bytes(json.dumps(GOOD).encode("utf-16"))
    findings = lint_with_witness(tmp_path, "utf16.json")
    assert any(f["path"] == "utf16.json" and f["code"] == "SL201" for f in findings)


def test_ref_cycles_and_remote_refs_do_not_hang_or_fetch(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "properties": {
            "self": {"$ref": "#"},
            "a": {"$ref": "#/$defs/a"},
            "remote": {"$ref": "http://127.0.0.1:9/schema.json"},
            "file": {"$ref": "other.json#/x"},
        },
        "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
    }
    (tmp_path / "refs.json").write_text(json.dumps([{**GOOD[0], "name": "refs", "parameters": schema}]))
    findings = lint_with_witness(tmp_path, "refs.json")
    assert not errors_for(findings, "refs.json")


def test_oversized_file_is_refused_without_reading(tmp_path: Path) -> None:
    with (tmp_path / "huge.json").open("wb") as handle:
        handle.truncate(300 * 2**20)  # sparse: nothing is written to disk
    messages = errors_for(lint_with_witness(tmp_path, "huge.json"), "huge.json")
    assert messages and "MiB" in messages[0]


def test_hundred_megabyte_file_is_linted_in_bounded_memory(tmp_path: Path) -> None:
    description = "x" * (100 * 2**20)
    (tmp_path / "big.json").write_text(json.dumps([{**GOOD[0], "name": "big", "description": description}]))
    findings = lint_with_witness(tmp_path, "big.json")
    assert not errors_for(findings, "big.json")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_is_never_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.json")
    messages = errors_for(lint_with_witness(tmp_path, "pipe.json"), "pipe.json")
    assert messages and "regular file" in messages[0]
    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "folder" / "pipe.json")
    lint_with_witness(tmp_path, "folder")  # walking past a FIFO must not block


def test_symlink_loops_in_a_walked_folder(tmp_path: Path) -> None:
    folder = tmp_path / "tools"
    folder.mkdir()
    (folder / "loop").symlink_to(folder, target_is_directory=True)
    (folder / "a.json").symlink_to(folder / "b.json")
    (folder / "b.json").symlink_to(folder / "a.json")
    (folder / "real.json").write_text(json.dumps(GOOD))
    findings = lint_with_witness(tmp_path, "tools")
    assert {f["path"] for f in findings if f["path"].startswith("tools/")} == {"tools/real.json"}


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root can read any file")
def test_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "secret.json"
    path.write_text(json.dumps(GOOD))
    path.chmod(0)
    messages = errors_for(lint_with_witness(tmp_path, "secret.json"), "secret.json")
    assert messages and "cannot read" in messages[0]


@pytest.mark.parametrize("odd", [["function", "null"], {"kind": "function"}, 7, None])
def test_request_tool_entries_of_odd_shape_are_linted(tmp_path: Path, odd: object) -> None:
    """A request body whose tool entries hold a list, object or number where a string belongs (in `type`,
    `name`, a namespace) is linted like any other file, with no internal error."""
    body = {
        "model": "gpt-4.1",
        "input": [],
        "tools": [
            {"type": odd, "name": "lookup", "parameters": {"type": "object"}},
            {"type": "namespace", "name": odd, "tools": [{"type": odd, "name": odd}]},
            {"type": "web_search", "defer_loading": odd},
            {"type": "function", "name": "get_order", "parameters": {"type": "object"}},
        ],
    }
    (tmp_path / "request.json").write_text(json.dumps(body), encoding="utf-8")
    findings = lint_with_witness(tmp_path, "request.json")
    assert any(f["path"] == "request.json" for f in findings)
