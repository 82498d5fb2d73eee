"""Extraction over the real Python corpus (skipped when shared/corpus is not beside the checkout)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from schemalint.dialects import detect_tools
from schemalint.loaders.python import load_python, might_contain_tools

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from bench_python_corpus import default_corpus, expected_counts

CORPUS = default_corpus()

#: files whose tools are not (only) decorated, with the count a reader finds by hand
BEYOND_DECORATORS = {
    # FunctionTool.from_function(...) inside mcp.add_tool(...)
    "keboola__mcp-server__src__keboola_mcp_server__tools__components__tools.py": 10,
    # self.tool(find_foo, name="qdrant-find", ...) and qdrant-store, through run-time wrappers
    "qdrant__mcp-server-qdrant__src__mcp_server_qdrant__mcp_server.py": 2,
    # 26 decorated plus mcp.add_tool(_dynamic_tool, name="test_dynamic_tool")
    "modelcontextprotocol__python-sdk__examples__servers__everything-server__mcp_everything_server__server.py": 27,
    # low-level Server: literal Tool(name=..., inputSchema=Model.model_json_schema()) / inputSchema={...}
    "modelcontextprotocol__servers__src__git__src__mcp_server_git__server.py": 12,
    "modelcontextprotocol__servers__src__time__src__mcp_server_time__server.py": 2,
}


@pytest.mark.skipif(not CORPUS.is_dir(), reason="shared corpus not present")
def test_corpus_counts_and_positions() -> None:
    expected = expected_counts(CORPUS)
    assert expected, "SOURCES.txt has no decorated= counts"
    for path in sorted(CORPUS.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert might_contain_tools(text), path.name
        document = load_python(text, path.name)
        tools = detect_tools(document)
        want = BEYOND_DECORATORS.get(path.name, expected.get(path.name))
        if want is not None and want > 0:
            assert len(tools) == want, path.name
        for tool in tools:
            assert tool.name, path.name
            assert tool.parameters.get("type") == "object", (path.name, tool.name)
            for node in tool.schema_nodes():
                assert document.positions.locate(node.pointer) is not None, (path.name, node.pointer)
        for _, finding in document.notes:
            assert document.positions.locate(finding.pointer, key=finding.key) is not None
