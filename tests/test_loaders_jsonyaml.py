"""JSON/YAML loaders: decoding, data, exact positions, and every kind of bad input as a LoadError."""

from __future__ import annotations

import codecs
import io
import json
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from schemalint.loaders import LoadError, jsonyaml
from schemalint.loaders.jsonyaml import (
    MAX_DEPTH,
    MAX_YAML_NODES,
    LineIndex,
    decode_source,
    load_json,
    load_yaml,
    parse_yaml_events,
)
from schemalint.model import Span


def span_text(text: str, span: Span) -> str:
    """The source text a span covers (lines split the way LineIndex splits them)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if span.line == span.end_line:
        return lines[span.line - 1][span.column - 1 : span.end_column - 1]
    parts = [lines[span.line - 1][span.column - 1 :]]
    parts += lines[span.line : span.end_line - 1]
    parts.append(lines[span.end_line - 1][: span.end_column - 1])
    return "\n".join(parts)


def load_error(load, text: str) -> LoadError:
    with pytest.raises(LoadError) as caught:
        load(text, "file")
    assert "\n" not in caught.value.message
    return caught.value


# -- decoding -----------------------------------------------------------------------------------


def test_decode_utf8_with_and_without_bom():
    assert decode_source('{"a": "é"}'.encode(), "f") == '{"a": "é"}'
    assert decode_source(codecs.BOM_UTF8 + '{"a": "é"}'.encode(), "f") == '{"a": "é"}'


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32", "utf-32-be"])
def test_decode_utf16_and_utf32_with_bom(encoding):
    text = '{"名前": "ツール"}\n'
    raw = text.encode(encoding)
    if not encoding.endswith("be") and encoding in ("utf-16", "utf-32"):
        assert raw[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)  # python adds the BOM
    else:
        bom = codecs.BOM_UTF16_BE if encoding == "utf-16-be" else codecs.BOM_UTF32_BE
        raw = bom + raw
    assert decode_source(raw, "f") == text


def test_invalid_utf8_reports_byte_and_position_in_code_points():
    raw = '{\n  "日本": "ok",\n  "x": "'.encode() + b"\xff" + b'"\n}'
    with pytest.raises(LoadError) as caught:
        decode_source(raw, "f")
    error = caught.value
    assert (error.line, error.column) == (3, 9)
    assert error.message == "invalid UTF-8 byte 0xff at line 3 column 9"


def test_invalid_utf8_after_bom_counts_from_the_text():
    with pytest.raises(LoadError) as caught:
        decode_source(codecs.BOM_UTF8 + b"ab\xc3", "f")  # truncated 2-byte sequence
    assert (caught.value.line, caught.value.column) == (1, 3)
    assert "0xc3" in caught.value.message


def test_invalid_utf16_is_a_load_error():
    with pytest.raises(LoadError, match="invalid UTF-16"):
        decode_source(codecs.BOM_UTF16_LE + b"a\x00\x00\xd8", "f")  # lone high surrogate


def test_binary_file():
    with pytest.raises(LoadError, match=r"^binary file$"):
        decode_source(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "f")


def test_binary_file_with_utf8_bom():
    with pytest.raises(LoadError, match=r"^binary file$"):
        decode_source(codecs.BOM_UTF8 + b"ab\x00cd", "f")


def test_nul_after_the_sniffed_prefix_is_not_binary():
    raw = b" " * 9000 + b"\x00"
    assert decode_source(raw, "f").endswith("\x00")


@pytest.mark.parametrize("raw", [b"", b"   \n\t\r\n", codecs.BOM_UTF8, codecs.BOM_UTF8 + b"\n"])
@pytest.mark.parametrize("load", [load_json, load_yaml])
def test_empty_file(raw, load):
    text = decode_source(raw, "f")  # an empty Python module is fine: emptiness is the data loaders' call
    assert not text.strip()
    with pytest.raises(LoadError, match=r"^empty file$"):
        load(text, "f")


def test_empty_files_found_by_walking_are_skipped_but_named_ones_are_errors(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from schemalint.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_bytes(b"")
    (tmp_path / "empty.json").write_bytes(b"")
    (tmp_path / "blank.yaml").write_bytes(b"\n")
    walked = CliRunner().invoke(main, ["check", ".", "--no-config", "--output-format", "json"])
    assert (walked.exit_code, json.loads(walked.output)) == (0, [])
    named = CliRunner().invoke(main, ["check", "empty.json", "--no-config", "--output-format", "json"])
    assert named.exit_code == 1
    assert [(f["code"], f["message"]) for f in json.loads(named.output)] == [("SL002", "empty file")]


# -- line index -----------------------------------------------------------------------------------


def test_line_index_on_a_long_text():
    text = "x" * 3000 + "\n" + "日本\r\n" * 700 + "y" * 2500 + "\n\nz"
    index = LineIndex(text)
    assert index.position(0) == (1, 1)
    assert index.position(2999) == (1, 3000)
    assert index.position(3000) == (1, 3001)  # the line feed itself
    assert index.position(3001) == (2, 1)
    assert index.position(3001 + 4 * 699 + 2) == (701, 3)  # the \r of the last CRLF
    tail = 3001 + 4 * 700
    assert index.position(tail + 2499) == (702, 2500)
    assert index.position(len(text) - 1) == (704, 1)
    assert index.position(len(text)) == (704, 2)
    assert index.span(10, tail + 5) == Span(1, 11, 702, 6)
    assert index.span(tail + 1, tail + 2400) == Span(702, 2, 702, 2401)


def test_line_index_counts_lf_crlf_and_cr():
    index = LineIndex("ab\r\ncd\ref\ngh")
    assert index.position(0) == (1, 1)
    assert index.position(2) == (1, 3)  # the \r of CRLF still belongs to line 1
    assert index.position(4) == (2, 1)
    assert index.position(7) == (3, 1)
    assert index.position(10) == (4, 1)
    assert index.span(4, 6) == Span(2, 1, 2, 3)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab\r\n日", max_size=30))
def test_line_index_agrees_with_a_naive_count(text):
    index = LineIndex(text)
    line, column = 1, 1
    for offset, character in enumerate(text + " "):
        assert index.position(offset) == (line, column), offset
        if character == "\n" or (character == "\r" and text[offset + 1 : offset + 2] != "\n"):
            line, column = line + 1, 1
        else:
            column += 1


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="ab\r\n日", max_size=20))
def test_line_index_span_agrees_with_two_positions(text):
    index = LineIndex(text)
    for start in range(len(text) + 1):
        for end in range(start, len(text) + 1):
            assert index.span(start, end) == Span(*index.position(start), *index.position(end)), (start, end)


# -- JSON positions ---------------------------------------------------------------------------------

JSON_TEXT = """{
  "tools": [
    {"type": "function",
     "function": {"name": "日本語ツール", "parameters": {
        "type": "object",
        "properties": {"a/b": {"type": "string"}, "m~n": {"enum": [1, 2.5, true, null]}},
        "required": []
     }}}
  ],
  "empty": {}
}
"""


def test_json_data_comes_back_unchanged():
    assert load_json(JSON_TEXT, "f.json").data == json.loads(JSON_TEXT)
    assert load_json(JSON_TEXT, "f.json").format == "json"


@pytest.mark.parametrize(
    ("pointer", "value", "key"),
    [
        ("", JSON_TEXT.rstrip("\n"), None),
        ("/tools", JSON_TEXT[JSON_TEXT.index("[") : JSON_TEXT.index("  ],") + 3], '"tools"'),
        ("/tools/0/type", '"function"', '"type"'),
        ("/tools/0/function/name", '"日本語ツール"', '"name"'),
        ("/tools/0/function/parameters/type", '"object"', '"type"'),
        ("/tools/0/function/parameters/properties/a~1b", '{"type": "string"}', '"a/b"'),
        ("/tools/0/function/parameters/properties/a~1b/type", '"string"', '"type"'),
        ("/tools/0/function/parameters/properties/m~0n/enum", "[1, 2.5, true, null]", '"enum"'),
        ("/tools/0/function/parameters/properties/m~0n/enum/0", "1", None),
        ("/tools/0/function/parameters/properties/m~0n/enum/1", "2.5", None),
        ("/tools/0/function/parameters/properties/m~0n/enum/3", "null", None),
        ("/tools/0/function/parameters/required", "[]", '"required"'),
        ("/empty", "{}", '"empty"'),
    ],
)
def test_json_positions(pointer, value, key):
    positions = load_json(JSON_TEXT, "f.json").positions
    value_span = positions.locate(pointer)
    assert value_span is not None
    assert span_text(JSON_TEXT, value_span) == value
    key_span = positions.locate(pointer, key=True)
    assert span_text(JSON_TEXT, key_span) == (key if key is not None else value)


def test_json_position_after_cjk_text_counts_code_points():
    text = '{"説明": "日本語の説明", "名前": "x"}'
    span = load_json(text, "f").positions.locate("/名前")
    assert span == Span(1, 24, 1, 27)
    assert load_json(text, "f").positions.locate("/名前", key=True) == Span(1, 18, 1, 22)


def test_json_crlf_and_bom():
    text = '\ufeff{\r\n  "a": {\r\n    "b": 1\r\n  }\r\n}\r\n'
    document = load_json(text, "f")
    assert document.data == {"a": {"b": 1}}
    assert document.positions.locate("/a/b") == Span(3, 10, 3, 11)
    assert document.positions.locate("/a/b", key=True) == Span(3, 5, 3, 8)
    assert document.positions.locate("/a") == Span(2, 8, 4, 4)


def test_json_escaped_keys_and_strings():
    text = r'{"a\"b": {"\u00e9": "x\\"}, "c\\/d": 1}'
    document = load_json(text, "f")
    assert document.data == {'a"b': {"é": "x\\"}, "c\\/d": 1}
    assert span_text(text, document.positions.locate('/a"b/é')) == r'"x\\"'
    assert span_text(text, document.positions.locate("/c\\~1d", key=True)) == r'"c\\/d"'


def test_json_missing_pointers_are_none():
    positions = load_json('{"a": [1], "b": "x"}', "f").positions
    assert positions.locate("/c") is None
    assert positions.locate("/a/1") is None
    assert positions.locate("/b/0") is None


def test_json_scalar_root():
    document = load_json('  "hello"  ', "f")
    assert document.data == "hello"
    assert document.positions.locate("") == Span(1, 3, 1, 10)


@pytest.mark.parametrize(
    "data",
    [
        {"a": [{"b": None, "c": [[], {}]}], "d~": {"e/": "f"}, "": {"": 1}, "g": '\\"[{'},
        [1, "two", [3.5e10, -0, True], {"k": {"l": [{"m": []}]}}],
        "scalar",
    ],
)
@pytest.mark.parametrize("indent", [None, 0, 2, "\t"])
def test_json_offsets_cover_every_value(data, indent):
    assert_offsets_cover_every_value(data, json.dumps(data, indent=indent, ensure_ascii=False))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=25,
)


@settings(max_examples=60, deadline=None)
@given(JSON_VALUES, st.sampled_from([None, 0, 1, "\t"]), st.booleans())
def test_json_offsets_cover_every_value_property(data, indent, ensure_ascii):
    text = json.dumps(data, indent=indent, ensure_ascii=ensure_ascii)
    assert load_json(text, "f").data == data
    assert_offsets_cover_every_value(data, text)


@settings(max_examples=60, deadline=None)
@given(JSON_VALUES.filter(lambda value: value is not None), st.sampled_from([False, True]))
def test_yaml_round_trip_and_every_value_located_property(data, flow):
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    dumper = YAML(typ="safe", pure=True)
    dumper.default_flow_style = flow
    stream = io.StringIO()
    dumper.dump(data, stream)
    try:  # ruamel's emitter writes some strings its own loader reads back differently or not at all
        assume(YAML(typ="safe", pure=True).load(stream.getvalue()) == data)  # `{:0: null}`, a raw NEL
    except YAMLError:
        assume(False)
    document = load_yaml(stream.getvalue(), "f")
    assert document.data == data
    pending: list[tuple[str, object]] = [("", data)]
    while pending:
        pointer, value = pending.pop()
        assert document.positions.locate(pointer) is not None, pointer
        pending += list(child_pointers(pointer, value))


def child_pointers(pointer: str, value: object):
    if isinstance(value, dict):
        for key, child in value.items():
            yield f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}", child
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield f"{pointer}/{index}", child


def assert_offsets_cover_every_value(data: object, text: str) -> None:
    """Every pointer of the data is located, its span parses back to the value, and a key span to the key."""
    positions = load_json(text, "f").positions
    pending: list[tuple[str, object]] = [("", data)]
    while pending:
        pointer, value = pending.pop()
        value_span = positions.locate(pointer)
        assert value_span is not None and json.loads(span_text(text, value_span)) == value, pointer
        if pointer:
            parent = pointer.rsplit("/", 1)[1].replace("~1", "/").replace("~0", "~")
            key_span = positions.locate(pointer, key=True)
            if key_span != value_span:
                assert key_span is not None and json.loads(span_text(text, key_span)) == parent
            else:  # an array element has no key
                assert parent.isdigit()
        pending += list(child_pointers(pointer, value))


#: JSON as people and other tools write it, not as json.dumps does: CRLF and tabs, no space or odd
#: space around colons and commas, escapes in keys and strings (quotes, backslashes, brackets,
#: \\u escapes), non-ASCII text, numbers with signs and exponents, empty and deeply nested containers
HAND_WRITTEN_JSON = (
    '{"tools":[{"name":"a\\"b","x\\u00e9\\\\":-0.5E+10 ,\r\n\t"日本":{"k\\"}:[" \r\n'
    '  : [ true,false , null,[],{}, [[[[{"deep":[1e5,-2,"\\u005d"]}]]]] ],"":{"":""}}},'
    '{"a/b~c":{"~1":[ "}" ,"\\\\" ]},"z" :1}],"n":0}'
)


@pytest.mark.parametrize("prefix", ["", "\ufeff", "\r\n \t"])
def test_json_offsets_on_hand_written_json(prefix):
    text = prefix + HAND_WRITTEN_JSON + "\r\n"
    document = load_json(text, "f")
    assert_offsets_cover_every_value(document.data, document.text)
    assert document.data["tools"][0]["x\u00e9\\"] == -0.5e10
    located = document.positions.locate('/tools/0/日本/k"}:[/5/0/0/0/0/deep/2')
    assert located is not None and span_text(document.text, located) == '"\\u005d"'
    key = document.positions.locate("/tools/1/a~1b~0c/~01", key=True)
    assert key is not None and span_text(document.text, key) == '"~1"'


def test_json_offsets_refuse_non_canonical_array_indexes():
    positions = load_json("[[10, 11]]", "f").positions
    assert positions.locate("/0/1") is not None
    assert positions.locate("/0/01") is None
    assert positions.locate("/0/-1") is None
    assert positions.locate("/0/²") is None
    assert positions.locate("/0/1/0") is None


def test_json_syntax_error_position():
    error = load_error(load_json, '{\n  "a": 1,\n  "b": [1, 2,]\n}')
    assert (error.line, error.column) == (3, 14)
    assert error.message == "Expecting value"


def test_json_duplicate_key_names_key_and_both_positions():
    error = load_error(load_json, '{"x": {"name": 1,\n       "name": 2}}')
    assert (error.line, error.column) == (2, 8)
    assert error.message == 'duplicate key "name" (first defined at line 1 column 8)'


def test_json_duplicate_container_key():
    error = load_error(load_json, '{"a": {"b": [1]}, "a": {}}')
    assert (error.line, error.column) == (1, 19)
    assert '"a"' in error.message


def test_json_same_key_in_different_objects_is_fine():
    assert load_json('[{"a": 1}, {"a": 2}]', "f").data == [{"a": 1}, {"a": 2}]


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_json_non_finite_constants(constant):
    error = load_error(load_json, f'{{"a": [1,\n  {constant}]}}')
    assert (error.line, error.column) == (2, 3)
    assert constant in error.message


def test_json_overflowing_and_oversized_numbers():
    error = load_error(load_json, '{"a": 1e400}')
    assert (error.line, error.column, error.message) == (1, 7, "number 1e400 is out of range")
    error = load_error(load_json, '{"a": %s}' % ("9" * 5000))
    assert (error.line, error.column) == (1, 7)
    assert "too many digits" in error.message


def test_json_string_with_brackets_does_not_count_as_nesting():
    text = json.dumps({"a": "[" * 5000 + "{" * 5000})
    assert load_json(text, "f").data["a"].startswith("[[[")


def test_json_depth_limit_is_exact():
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert load_json(ok, "f").data is not None
    error = load_error(load_json, "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert (error.line, error.column) == (1, MAX_DEPTH + 1)
    assert error.message == f"nesting deeper than {MAX_DEPTH} levels"


def test_json_depth_limit_with_objects_in_wide_document():
    inner = '{"a": ' * (MAX_DEPTH + 5) + "1" + "}" * (MAX_DEPTH + 5)
    text = "[" + ", ".join(["[1, 2]"] * 300) + ", " + inner + "]"
    error = load_error(load_json, text)
    assert f"deeper than {MAX_DEPTH}" in error.message


# -- duplicate keys and numbers out of range, anywhere in a text ------------------------------------


class _Members(list):
    """An object as the (key, value) pairs its text lists, duplicates included."""


class _OutOfRange(str):
    """A number too large for a float, written as it is (`1e400` decodes to infinity)."""


def _dump(value) -> str:
    """The JSON text, duplicate keys and numbers out of range included."""
    if isinstance(value, _Members):
        return "{" + ", ".join(f"{_dump(k)}: {_dump(v)}" for k, v in value) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_dump(v) for v in value) + "]"
    if isinstance(value, _OutOfRange):
        return str(value)
    return json.dumps(value)


def _refused(value) -> bool:
    """Whether the text holds a duplicate key or a number out of range."""
    if isinstance(value, _Members):
        keys = [k for k, _ in value]
        return len(set(keys)) < len(keys) or any(_refused(v) for _, v in value)
    if isinstance(value, list):
        return any(_refused(v) for v in value)
    return isinstance(value, _OutOfRange)


_TEXT = st.text(st.characters(exclude_categories=("Cs",)).filter(lambda c: c != "\\"), max_size=6)
_SCALARS = (
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.floats(allow_nan=False, allow_infinity=False)
)
_KEYS = st.sampled_from(["a", "b", "名"]) | _TEXT
_JSON_WITH_DUPLICATES = st.recursive(
    _SCALARS | _TEXT | st.sampled_from(["1e400", "-2e308", "1" * 400 + ".5"]).map(_OutOfRange),
    lambda inner: st.lists(inner, max_size=4) | st.lists(st.tuples(_KEYS, inner), max_size=5).map(_Members),
    max_leaves=30,
)


@settings(max_examples=100, deadline=None)
@given(_JSON_WITH_DUPLICATES)
def test_json_duplicate_keys_and_numbers_out_of_range_are_refused(value):
    text = _dump(value)
    if not _refused(value):
        assert load_json(text, "f").data == json.loads(text)
        return
    error = load_error(load_json, text)
    assert error.message.startswith(("duplicate key", "number"))


def test_json_100000_levels_are_refused_at_the_depth_limit():  # timed in benchmarks/bench_loaders.py
    error = load_error(load_json, "[" * 100_000 + "]" * 100_000)
    assert error.message == f"nesting deeper than {MAX_DEPTH} levels"
    error = load_error(load_json, '{"a":' * 100_000)
    assert "nesting" in error.message


# -- YAML -------------------------------------------------------------------------------------------

YAML_TEXT = """\
# tools
tools:
  - name: 日本語ツール
    description: |
      Looks things up.
      Twice.
    parameters:
      type: object
      properties:
        a/b: {type: string}
        "m~n":
          enum: [1, 2.5, true, null, 0x1F, 0o17, 2001-12-14, yes, ~]
      required: []
"""


def test_yaml_data_core_schema():
    document = load_yaml(YAML_TEXT, "f.yaml")
    assert document.format == "yaml"
    tool = document.data["tools"][0]
    assert tool["description"] == "Looks things up.\nTwice.\n"
    enum = tool["parameters"]["properties"]["m~n"]["enum"]
    assert enum == [1, 2.5, True, None, 31, 15, "2001-12-14", "yes", None]
    assert [type(v) for v in enum[:2]] == [int, float]


@pytest.mark.parametrize(
    ("pointer", "value", "key"),
    [
        ("/tools", None, "tools"),
        ("/tools/0/name", "日本語ツール", "name"),
        ("/tools/0/description", "|\n      Looks things up.\n      Twice.", "description"),
        ("/tools/0/parameters/type", "object", "type"),
        ("/tools/0/parameters/properties/a~1b", "{type: string}", "a/b"),
        ("/tools/0/parameters/properties/a~1b/type", "string", "type"),
        ("/tools/0/parameters/properties/m~0n", None, '"m~n"'),
        ("/tools/0/parameters/properties/m~0n/enum/4", "0x1F", None),
        ("/tools/0/parameters/properties/m~0n/enum/6", "2001-12-14", None),
        ("/tools/0/parameters/required", "[]", "required"),
    ],
)
def test_yaml_positions(pointer, value, key):
    positions = load_yaml(YAML_TEXT, "f.yaml").positions
    value_span = positions.locate(pointer)
    assert value_span is not None
    if value is not None:
        assert span_text(YAML_TEXT, value_span) == value
    key_span = positions.locate(pointer, key=True)
    assert span_text(YAML_TEXT, key_span) == (key if key is not None else value)


def test_yaml_block_collection_spans_end_at_last_entry():
    positions = load_yaml(YAML_TEXT, "f.yaml").positions
    span = positions.locate("/tools/0/parameters/properties/m~0n")
    assert span_text(YAML_TEXT, span) == "enum: [1, 2.5, true, null, 0x1F, 0o17, 2001-12-14, yes, ~]"
    tools = positions.locate("/tools")
    assert (tools.line, tools.column) == (3, 3)
    assert (tools.end_line, tools.end_column) == (13, 19)


def test_yaml_crlf_bom_and_cjk():
    text = "\ufeff説明: 日本語\r\nname: x\r\nlist:\r\n  - 1\r\n"
    positions = load_yaml(text, "f").positions
    assert positions.locate("/name") == Span(2, 7, 2, 8)
    assert positions.locate("/説明") == Span(1, 5, 1, 8)
    assert positions.locate("/list/0") == Span(4, 5, 4, 6)


def test_yaml_non_string_keys_become_strings():
    assert load_yaml("1: a\ntrue: b\nnull: c\n2.5: d\n", "f").data == {"1": "a", "true": "b", "null": "c", "2.5": "d"}


def test_yaml_explicit_core_tags():
    data = load_yaml("a: !!str 12\nb: !!int '7'\nc: !!float 1\nd: ! 12\ne: !!map {x: 1}\n", "f").data
    assert data == {"a": "12", "b": 7, "c": 1.0, "d": "12", "e": {"x": 1}}
    assert isinstance(data["c"], float)


def test_yaml_explicit_tag_with_wrong_value():
    error = load_error(load_yaml, "a: !!int abc\n")
    assert (error.line, error.column) == (1, 4)
    assert "!!int" in error.message


@pytest.mark.parametrize(
    ("text", "tag", "column"),
    [
        ("a: !foo 1\n", "!foo", 4),
        ("a: !!python/object:os.system {}\n", "!!python/object:os.system", 4),
        ("a: !!python/name:os.system\n", "!!python/name:os.system", 4),
        ("a: !!binary aGk=\n", "!!binary", 4),
        ("a: !!set {x}\n", "!!set", 4),
        ("a:\n  - !Ref x\n", "!Ref", 5),
    ],
)
def test_yaml_custom_tags_refused(text, tag, column):
    error = load_error(load_yaml, text)
    assert tag in error.message
    assert error.column == column


def test_yaml_duplicate_key():
    error = load_error(load_yaml, "a: 1\nb:\n  c: 1\n  c: 2\n")
    assert (error.line, error.column) == (4, 3)
    assert error.message == 'duplicate key "c" (first defined at line 3 column 3)'


def test_yaml_duplicate_key_after_conversion():
    error = load_error(load_yaml, "1: a\n'1': b\n")
    assert (error.line, error.column) == (2, 1)


def test_yaml_complex_key_refused():
    assert "keys must be scalars" in load_error(load_yaml, "? [a, b]\n: c\n").message


@pytest.mark.parametrize("text", ["a: .nan\n", "a: -.inf\n", "a: 1e999\n"])
def test_yaml_non_finite_numbers_refused(text):
    error = load_error(load_yaml, text)
    assert error.column == 4


def test_yaml_aliases_and_merge_keys():
    text = "base: &b {type: string, description: d}\nx: *b\ny:\n  <<: *b\n  type: integer\n"
    document = load_yaml(text, "f")
    assert document.data["x"] == {"type": "string", "description": "d"}
    assert document.data["y"] == {"type": "integer", "description": "d"}
    assert span_text(text, document.positions.locate("/x")) == "*b"
    assert document.positions.locate("/x/type") is None  # inside an alias: the engine falls back to /x
    assert span_text(text, document.positions.locate("/y/description")) == "*b"
    assert span_text(text, document.positions.locate("/y/type")) == "integer"


def test_yaml_merge_precedence_and_inline_sources():
    text = "a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2}\nc:\n  <<: [*b, *a, {w: 3}]\n  z: 9\n"
    document = load_yaml(text, "f")
    assert document.data["c"] == {"y": 2, "x": 1, "w": 3, "z": 9}  # explicit keys win, then earlier sources
    assert document.positions.locate("/c/<<") is None
    assert span_text(text, document.positions.locate("/c/z")) == "9"


def test_yaml_merge_of_a_scalar_is_refused():
    error = load_error(load_yaml, "a: 1\nb:\n  <<: 5\n")
    assert (error.line, error.column) == (3, 7)
    assert "merge" in error.message


def test_yaml_quoted_merge_key_is_an_ordinary_key():
    assert load_yaml("'<<': 1\n", "f").data == {"<<": 1}


def test_yaml_recursive_and_undefined_alias():
    assert "recursive" in load_error(load_yaml, "a: &a [1, *a]\n").message
    error = load_error(load_yaml, "a: 1\nb: *nope\n")
    assert (error.line, error.column) == (2, 4)
    assert "*nope" in error.message


def test_yaml_billion_laughs_is_bounded():
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for previous, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{previous}"] * 9) + "]")
    error = load_error(load_yaml, "\n".join(lines) + "\n")
    assert f"{MAX_YAML_NODES:,}" in error.message
    assert error.line <= 9


def test_yaml_moderate_alias_use_is_fine():
    text = "a: &a [1, 2, 3]\nb: [*a, *a, *a]\n"
    assert load_yaml(text, "f").data["b"] == [[1, 2, 3]] * 3


def test_yaml_multi_document_takes_the_first():
    document = load_yaml("---\na: 1\n---\nb: [\n", "f")
    assert document.data == {"a": 1}


def test_yaml_comments_only_is_empty():
    assert "empty file" in load_error(load_yaml, "# nothing here\n").message


def test_yaml_parse_error_position():
    error = load_error(load_yaml, "a: 1\nb: c: d\n")
    assert (error.line, error.column) == (2, 5)
    assert "mapping values are not allowed" in error.message
    error = load_error(load_yaml, "a: [1, 2\n")
    assert error.line == 2
    assert "flow sequence" in error.message


@pytest.mark.parametrize(
    ("text", "expected"),
    [("%YAML 1.3\n---\na: 1\n", "version"), ("%YAML 2.0\n---\na: 1\n", "version"), ("...\n", "document end")],
)
def test_yaml_odd_streams_are_load_errors(text, expected):
    assert expected in load_error(load_yaml, text).message


def test_yaml_unknown_directive_and_version_11_still_use_the_core_schema():
    assert load_yaml("%FOO bar\n---\na: 1\n", "f").data == {"a": 1}
    assert load_yaml("%YAML 1.1\n---\na: yes\n", "f").data == {"a": "yes"}


def test_yaml_control_character():
    error = load_error(load_yaml, "a: b\x01\n")
    assert (error.line, error.column) == (1, 5)


def test_yaml_depth_limit_is_exact():
    assert load_yaml("[" * MAX_DEPTH + "]" * MAX_DEPTH, "f").data is not None
    error = load_error(load_yaml, "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert (error.line, error.column) == (1, MAX_DEPTH + 1)
    assert error.message == f"nesting deeper than {MAX_DEPTH} levels"


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, "{a: " * 100_000, "- " * 100_000 + "x\n"])
def test_yaml_100000_levels_are_refused_at_the_depth_limit(text):  # timed in benchmarks/bench_loaders.py
    error = load_error(load_yaml, text)
    assert "nesting" in error.message


# -- the linear scanner must behave exactly like ruamel's own ------------------------------------------

SCANNER_SAMPLES = [
    YAML_TEXT,
    "a: 1\nb: [1, {c: d, e: [f, g]}, 'h: i']\n? complex\n: value\n",
    "a\nb: c\n",  # a required simple key that is never completed: ScannerError
    "{" + "k" * 1100 + ": v}\n",  # a simple key longer than 1024 characters
    "x: {" + ", ".join(f"k{i}: [{i}, {{z: {i}}}]" for i in range(300)) + "}\n",
    "- - - a\n  - b\n- {x: [y, {z: w}]}\n",
    "a: &a {b: [1, 2]}\nc: *a\nd: !!str 5\n---\nsecond: doc\n",
    "[a, [b, [c, {d: [e, f: g]}]]]\n",
    "key: 'multi\n  line'\nother: \"x\"\n",
    "a: b: c\n",
    "[1, 2\n",
    "[" * 400 + "]" * 400,  # hundreds of pending simple keys at once
]


def _events(text: str, linear: bool) -> list[tuple]:
    from ruamel.yaml.error import MarkedYAMLError

    result: list[tuple] = []
    try:
        for event in parse_yaml_events(text, linear=linear):
            result.append(
                (
                    type(event).__name__,
                    getattr(event, "value", None),
                    getattr(event, "anchor", None),
                    getattr(event, "tag", None),
                    event.start_mark.index,
                    event.end_mark.index,
                )
            )
    except MarkedYAMLError as error:
        mark = error.problem_mark
        result.append(("error", error.problem, error.context, mark.index if mark else None))
    return result


@pytest.mark.parametrize("text", SCANNER_SAMPLES)
def test_linear_scanner_matches_ruamel(text):
    assert _events(text, linear=True) == _events(text, linear=False)


def test_linear_scanner_matches_ruamel_on_corpus_as_yaml():
    corpus = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
    corpus = corpus if corpus.is_dir() else Path("/work/shared/corpus")
    small = [file for file in sorted(corpus.rglob("*.json")) if file.stat().st_size < 8000] if corpus.is_dir() else []
    files = small[:: max(1, len(small) // 10)]  # ruamel's stock scanner is slow: a spread of small files
    if not files:
        pytest.skip("corpus not available")
    from ruamel.yaml import YAML

    dumper = YAML(typ="safe", pure=True)
    for file in files:
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError):
            continue
        for flow in (False, None):
            dumper.default_flow_style = flow
            stream = io.StringIO()
            dumper.dump(data, stream)
            text = stream.getvalue()
            assert _events(text, linear=True) == _events(text, linear=False), file
            assert load_yaml(text, str(file)).data == data


# -- libyaml fast path: the same data, spans and errors as ruamel.yaml ---------------------------------


def _loaded(text: str) -> tuple:
    """Everything load_yaml gives: data (with types), every span, or the error and its position."""
    try:
        document = load_yaml(text, "f")
    except LoadError as error:
        return ("error", error.message, error.line, error.column)
    spans = document.positions._spans  # type: ignore[attr-defined]  # the YAML span table
    return ("ok", json.dumps(document.data), sorted(spans.items()))


def _loaded_by_ruamel(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple:
    def unsure(text: str):
        raise jsonyaml._NotSureToMatch

    with monkeypatch.context() as patch:
        patch.setattr(jsonyaml, "_libyaml_events", unsure)
        return _loaded(text)


def _mutations(seed: int, count: int) -> list[str]:
    """Small random edits of YAML tool files in every style: mostly valid, many subtly broken."""
    import random

    from ruamel.yaml import YAML

    rng = random.Random(seed)
    tools = [
        {
            "type": "function",
            "function": {
                "name": f"find_order_{i}",
                "description": "Find an order by id: 'quoted', \"double\", #hash, é, 🙂.\nSecond line.",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "pattern": "^[A-Z]{2}-[0-9]+$", "description": "the order id"},
                        "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10},
                        "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b: c", "- d"]}},
                        "ratio": {"type": ["number", "null"], "multipleOf": 0.5},
                        "flags": {"type": "object", "additionalProperties": False, "properties": {}},
                    },
                    "required": ["id"],
                },
            },
        }
        for i in range(2)
    ]
    seeds = [YAML_TEXT, *SCANNER_SAMPLES[:-1], "a: >-\n  folded\n  text\nb: |\n  lit\n\n  eral\nc: 'q''s'\n"]
    for flow in (False, None, True):
        dumper = YAML(typ="safe", pure=True)
        dumper.default_flow_style = flow
        dumper.allow_unicode = True
        stream = io.StringIO()
        dumper.dump(tools, stream)
        seeds.append(stream.getvalue())
    pieces = [
        *":-[]{},#&*!|>'\" \n?%@`~.\\0a1é",
        "\n  ",
        "- ",
        ": ",
        "\n- ",
        "---\n",
        "&a ",
        "*a",
        "!!str ",
        "<<: ",
        " \n",
    ]
    texts = []
    for _ in range(count):
        text = list(rng.choice(seeds))
        for _ in range(rng.randint(0, 3)):
            at = rng.randrange(len(text) + 1)
            if rng.random() < 0.5:
                text.insert(at, rng.choice(pieces))
            elif text:
                del text[min(at, len(text) - 1)]
        texts.append("".join(text))
    return texts


def test_libyaml_loads_what_ruamel_loads(monkeypatch):
    texts = _mutations(seed=11, count=600)
    fallbacks = 0
    for text in texts:
        fast = _loaded(text)
        slow = _loaded_by_ruamel(text, monkeypatch)
        assert fast == slow, text
        try:
            list(jsonyaml._libyaml_events(text))
        except Exception:
            fallbacks += 1
    assert fallbacks < len(texts) * 0.8  # most inputs really took the libyaml path


@pytest.mark.parametrize(
    "text",
    [
        "a:\tb\n",  # a tab as separation: libyaml accepts, ruamel refuses
        "a: b\x85c: d\n",  # NEL is a line break only in YAML 1.1
        "a: |#x\n  y\n",  # a comment glued to a block scalar header
        "a: |\n \n  y\n",  # a leading whitespace-only line indented less than the text
        "a:\nb: 1\n",  # an empty value: libyaml places it after the colon, ruamel at the next key
        "&type: object\n",  # an anchor followed by a colon
    ],
)
def test_libyaml_is_not_used_where_it_reads_differently(text, monkeypatch):
    with pytest.raises(jsonyaml._NotSureToMatch):
        list(jsonyaml._libyaml_events(text))
    assert _loaded(text) == _loaded_by_ruamel(text, monkeypatch)


def test_ordinary_yaml_takes_the_libyaml_path(monkeypatch):
    def no_ruamel(*args):
        raise AssertionError("ruamel.yaml was used")

    monkeypatch.setattr(jsonyaml, "_build_with_ruamel", no_ruamel)
    document = load_yaml(YAML_TEXT, "f")
    assert document.data


# -- never a traceback ------------------------------------------------------------------------------

FUZZ_ALPHABET = "{}[]:,\"\\ \n\r\t-0123456789.eE+abtrufnlsNIy&*!|>%@`#?~'<=\x00\x85\u2028日\ufeff\x01"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=FUZZ_ALPHABET, max_size=40))
def test_any_text_loads_or_fails_with_a_one_line_load_error(text):
    for load in (load_json, load_yaml):
        try:
            document = load(text, "f")
        except LoadError as error:
            assert "\n" not in error.message
            assert error.line >= 1 and error.column >= 1
        else:
            document.positions.locate("")
            document.positions.locate("/0", key=True)
            document.positions.locate("/a/0")


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=40))
def test_any_bytes_decode_or_fail_with_a_load_error(raw):
    try:
        decode_source(raw, "f")
    except LoadError as error:
        assert "\n" not in error.message
