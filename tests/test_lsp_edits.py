"""The editor helpers that need no LSP library: client positions, fixes as text edits, disable comments."""

from __future__ import annotations

import json

import pytest

from schemalint.diagnostics import Fix, PatchOperation
from schemalint.loaders.jsonyaml import load_json, load_yaml
from schemalint.lsp.edits import SourceLines, apply_patch, disable_comment_edit, fix_edits
from schemalint.model import Span

ADD_FALSE = Fix("add `additionalProperties: false`", (PatchOperation("add", "/p/additionalProperties", False),))


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


@pytest.mark.parametrize(
    "text",
    [
        '{"p": {"type": "object"}}',
        '{"p": {}}',
        '{\n  "p": {\n    "type": "object"\n  }\n}\n',
        '{"p": { }}',
    ],
)
def test_json_add_of_a_key_is_a_minimal_insertion(text: str) -> None:
    document = load_json(text, "t.json")
    edits = fix_edits(document, ADD_FALSE)
    assert edits is not None and len(edits) == 1
    assert edits[0].start == edits[0].end  # an insertion, the rest of the file untouched
    edited = SourceLines(text).apply(edits)
    assert json.loads(edited)["p"]["additionalProperties"] is False


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("p:\n  type: object\n", "p:\n  additionalProperties: false\n  type: object\n"),
        ("- p:\n    type: object\n", None),
        ("p: {type: object}\n", "p: {additionalProperties: false, type: object}\n"),
        ("p: {}\n", "p: {additionalProperties: false}\n"),
    ],
)
def test_yaml_add_of_a_key_keeps_the_layout(text: str, expected: str | None) -> None:
    document = load_yaml(text, "t.yaml")
    if expected is None:  # the fix points at /p, which is not there: nothing is offered
        assert fix_edits(document, ADD_FALSE) is None
        return
    edits = fix_edits(document, ADD_FALSE)
    assert edits is not None
    assert SourceLines(text).apply(edits) == expected


def test_replace_and_unsupported_operations() -> None:
    document = load_json('{"p": {"type": "integer"}}', "t.json")
    replace = Fix("t", (PatchOperation("replace", "/p/type", "string"),))
    edits = fix_edits(document, replace)
    assert edits is not None
    assert SourceLines(document.text).apply(edits) == '{"p": {"type": "string"}}'
    assert fix_edits(document, Fix("t", (PatchOperation("remove", "/p/type"),))) is None
    assert fix_edits(document, Fix("t", (PatchOperation("add", "/missing/x", 1),))) is None


def test_apply_patch_follows_rfc6902() -> None:
    data = {"a": [1, 2], "b": {"c": 1}}
    operations = (
        PatchOperation("add", "/a/-", 3),
        PatchOperation("add", "/a/0", 0),
        PatchOperation("replace", "/b/c", 2),
        PatchOperation("remove", "/b/c"),
    )
    assert apply_patch(data, operations) == {"a": [0, 1, 2, 3], "b": {}}
    assert data == {"a": [1, 2], "b": {"c": 1}}
    assert apply_patch(data, (PatchOperation("replace", "/b/zz", 1),)) is None


def test_disable_comment_goes_on_the_line_before_with_its_indentation() -> None:
    text = "tools:\n  - name: x\n    description: y\n"
    edit = disable_comment_edit(text, "yaml", 3, "SL201")
    assert (
        SourceLines(text).apply([edit]) == "tools:\n  - name: x\n    # schemalint: disable=SL201\n    description: y\n"
    )


def test_disable_comment_extends_an_existing_one() -> None:
    text = "a:\n  # schemalint: disable=SL301\n  b: 1\n"
    edit = disable_comment_edit(text, "yaml", 3, "SL303")
    assert SourceLines(text).apply([edit]) == "a:\n  # schemalint: disable=SL301,SL303\n  b: 1\n"


def test_disable_comment_in_python_never_lands_inside_a_string() -> None:
    text = 'def f():\n    """Line one.\n\n    Line two.\n    """\n'
    edit = disable_comment_edit(text, "python", 4, "SL201")
    assert edit.start == (2, 1)
    assert SourceLines(text).apply([edit]).splitlines()[1] == "    # schemalint: disable=SL201"
