"""The editor helpers that need no LSP library: client positions, fixes as text edits, disable comments."""

from __future__ import annotations

import json

import pytest

from schemalint.diagnostics import Diagnostic
from schemalint.engine import LintOptions, lint_source
from schemalint.loaders import Document
from schemalint.loaders.jsonyaml import load_yaml
from schemalint.lsp.edits import SourceLines, TextEdit, difference, disable_comment_edit, fix_edits
from schemalint.model import Span


def applied(text: str, edits: list[TextEdit]) -> str:
    """The text after the edits (non-overlapping; edits at the same place keep their order)."""
    starts = SourceLines(text).starts

    def offset(point: tuple[int, int]) -> int:
        line = min(max(point[0], 1), len(starts))
        return min(starts[line - 1] + point[1] - 1, len(text))

    for _, edit in sorted(enumerate(edits), key=lambda item: (offset(item[1].start), item[0]), reverse=True):
        text = text[: offset(edit.start)] + edit.new_text + text[offset(edit.end) :]
    return text


@pytest.mark.parametrize(
    ("encoding", "expected"),
    [("utf-16", (1, 3)), ("utf-32", (1, 2)), ("utf-8", (1, 5))],
)
def test_client_columns_count_in_the_negotiated_encoding(encoding: str, expected: tuple[int, int]) -> None:
    lines = SourceLines('{}\r\n"😀x": 1\n')  # the key `x` is the 3rd code point of line 2
    assert lines.client_position(2, 3, encoding) == expected


def test_positions_past_the_end_are_clamped() -> None:
    lines = SourceLines("ab\ncd")
    assert lines.client_position(9, 1) == (1, 2)
    assert lines.client_range(Span(1, 2, 2, 3)) == ((0, 1), (1, 2))


def linted(text: str, name: str, code: str) -> tuple[Document, Diagnostic]:
    result = lint_source(text, name, LintOptions(no_config=True, select=(code,)))
    document = result.files[0].document
    assert document is not None and result.diagnostics, result.diagnostics
    return document, result.diagnostics[0]


TOOL = {"name": "get_order", "description": "Look up one order by id. Use for order status only."}


@pytest.mark.parametrize(
    "schema",
    ['{"type": "object", "properties": {}}', '{ "type": "object" }', '{\n    "type": "object"\n  }'],
)
def test_json_fix_is_one_minimal_edit(schema: str) -> None:
    text = '[{"name": "get_order", "description": "Look up one order by id.", "inputSchema": ' + schema + "}]\n"
    document, diagnostic = linted(text, "tools.json", "SL303")
    edits = fix_edits(document, diagnostic)
    assert edits is not None and len(edits) == 1
    edited = applied(text, edits)
    assert json.loads(edited)[0]["inputSchema"]["additionalProperties"] is False
    assert edited.startswith(text[: text.index("inputSchema")])  # nothing before the edit moved


def test_fix_with_a_remove_operation_in_yaml() -> None:
    text = """tools:
  - type: function
    function:
      name: get_order
      description: Look up one order by id. Use for order status only.  # kept
      parameters:
        type: object
        additionalProperties: false
        properties:
          note:
            anyOf:
              - type: string
              - type: "null"
"""
    document, diagnostic = linted(text, "tools.yaml", "SL302")
    edits = fix_edits(document, diagnostic)
    assert edits is not None
    edited = applied(text, edits)
    assert "# kept" in edited
    assert load_yaml(edited, "t.yaml").data["tools"][0]["function"]["parameters"]["properties"]["note"] == {
        "type": ["string", "null"]
    }


def test_no_fix_for_python_sources() -> None:
    text = 'TOOLS = [{"name": "get_order", "description": "Look up one order.", "parameters": {"type": "object"}}]\n'
    result = lint_source(text, "tools.py", LintOptions(no_config=True, select=("SL303",)))
    document = result.files[0].document
    for diagnostic in result.diagnostics:
        assert document is not None and fix_edits(document, diagnostic) is None


@pytest.mark.parametrize(("old", "new"), [("abc", "abXc"), ("a\nb\n", "a\nb\nc\n"), ("xyz", "y"), ("same", "same")])
def test_difference_is_the_changed_middle(old: str, new: str) -> None:
    assert applied(old, [difference(old, new)]) == new


def test_disable_comment_goes_on_the_line_before_with_its_indentation() -> None:
    text = "tools:\n  - name: x\n    description: y\n"
    edit = disable_comment_edit(text, "yaml", 3, "SL201")
    assert applied(text, [edit]) == "tools:\n  - name: x\n    # schemalint: disable=SL201\n    description: y\n"


def test_disable_comment_extends_an_existing_one() -> None:
    text = "a:\n  # schemalint: disable=SL301\n  b: 1\n"
    edit = disable_comment_edit(text, "yaml", 3, "SL303")
    assert applied(text, [edit]) == "a:\n  # schemalint: disable=SL301,SL303\n  b: 1\n"


def test_disable_comment_in_python_never_lands_inside_a_string() -> None:
    text = 'def f():\n    """Line one.\n\n    Line two.\n    """\n'
    edit = disable_comment_edit(text, "python", 4, "SL201")
    assert edit.start == (2, 1)
    assert applied(text, [edit]).splitlines()[1] == "    # schemalint: disable=SL201"
