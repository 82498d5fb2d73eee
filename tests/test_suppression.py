"""Inline `# schemalint: disable` comments, per-file-ignores, and SL001 for the ones that silence nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from schemalint.engine import LintOptions, lint
from schemalint.suppression import python_comments, yaml_comments

OPEN_OBJECT_TOOL = """\
tools:
  - name: get_weather
    description: Current weather for a city.
    inputSchema:{comment}
      type: object
      properties:
        city: {{type: string, description: City name}}
      required: [city]
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def codes(paths: list[str] | None = None, **options: object) -> list[tuple[str, int]]:
    result = lint(paths or ["."], LintOptions(**options))  # type: ignore[arg-type]
    return [(d.code, d.span.line) for d in result.diagnostics]


def test_yaml_comments_skip_hashes_inside_scalars() -> None:
    text = (
        'a: "x # not"  # real 1\n'
        "b: 'it''s # not'\n"
        "c: plain#not # real 2\n"
        'd: "multi\n  line # not\n  end"  # real 3\n'
        "e: |\n  # schemalint: disable=SL301 is text\n  more\n"
        "# real 4\n"
        "f: [x, '#not'] # real 5\n"
        "g: don't # real 6\n"
    )
    found = [(c.line, c.text, c.standalone) for c in yaml_comments(text)]
    assert found == [
        (1, "# real 1", False),
        (3, "# real 2", False),
        (6, "# real 3", False),
        (10, "# real 4", True),
        (11, "# real 5", False),
        (12, "# real 6", False),
    ]


def test_python_comments_come_from_the_tokenizer() -> None:
    text = 'x = "# schemalint: disable=SL301"  # real\n# alone\ny = """\n# in a docstring\n"""\n'
    assert [(c.line, c.text, c.standalone) for c in python_comments(text)] == [
        (1, "# real", False),
        (2, "# alone", True),
    ]
    assert list(python_comments("x = (\n")) == []  # broken source: no comments, no exception


@pytest.mark.parametrize(
    ("comment", "before", "expected"),
    [
        ("", "", [("SL303", 5)]),
        ("  # schemalint: disable=SL303", "", []),
        ("  # schemalint: disable=additional-properties-not-false", "", []),
        ("  # schemalint: disable=SL3", "", []),
        ("  # schemalint: disable", "", []),
        ("", "    # schemalint: disable=SL303\n", []),
        ("", "# schemalint: disable-file=SL303\n", []),
        ("", "# schemalint: disable-file\n", []),
        ("  # schemalint: disable=SL201", "", [("SL001", 4), ("SL303", 5)]),
    ],
)
def test_inline_comments(project: Path, comment: str, before: str, expected: list[tuple[str, int]]) -> None:
    text = OPEN_OBJECT_TOOL.format(comment=comment)
    if before.startswith("    "):  # alone on the line before the finding's key
        text = text.replace("    inputSchema:", before + "    inputSchema:")
        expected = [(code, line + 1) for code, line in expected]
    else:
        text = before + text
        expected = [(code, line + before.count("\n")) for code, line in expected]
    (project / "tools.yaml").write_text(text, encoding="utf-8")
    assert codes(select=("SL303", "SL201", "SL001"), no_config=True) == expected


def test_comment_before_skips_other_comments_and_blank_lines(project: Path) -> None:
    text = OPEN_OBJECT_TOOL.format(comment="").replace(
        "    inputSchema:", "    # schemalint: disable=SL303\n    # why: legacy client\n\n    inputSchema:"
    )
    (project / "tools.yaml").write_text(text, encoding="utf-8")
    assert codes(select=("SL303", "SL001"), no_config=True) == []


def test_unused_comment_for_a_rule_that_did_not_run_is_not_reported(project: Path) -> None:
    text = OPEN_OBJECT_TOOL.format(comment="  # schemalint: disable=SL301")
    (project / "tools.yaml").write_text(text, encoding="utf-8")
    assert codes(select=("SL303", "SL001"), no_config=True) == [("SL303", 5)]
    assert codes(select=("SL303", "SL301", "SL001"), no_config=True) == [("SL001", 4), ("SL303", 5)]


def test_string_that_looks_like_a_directive_silences_nothing(project: Path) -> None:
    text = OPEN_OBJECT_TOOL.format(comment="").replace(
        "Current weather for a city.", "'Current weather # schemalint: disable-file'"
    )
    (project / "tools.yaml").write_text(text, encoding="utf-8")
    assert codes(select=("SL303",), no_config=True) == [("SL303", 5)]


OPEN_JSON_TOOL = {
    "name": "get_weather",
    "description": "Current weather for a city.",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string", "description": "City"}}},
}


def _pyproject(project: Path, ignores: dict[str, list[str]], select: str = '["SL303", "SL001"]') -> None:
    lines = ["[tool.schemalint]", f"select = {select}", "[tool.schemalint.per-file-ignores]"]
    lines += [f'"{pattern}" = {json.dumps(codes)}' for pattern, codes in ignores.items()]
    (project / "pyproject.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_per_file_ignore_with_pointer(project: Path) -> None:
    (project / "tools").mkdir()
    (project / "tools" / "a.json").write_text(json.dumps({"tools": [OPEN_JSON_TOOL, OPEN_JSON_TOOL | {"name": "b"}]}))
    _pyproject(project, {"tools/a.json#/tools/1": ["SL303"]})
    result = lint(["."], LintOptions())
    assert [(d.code, d.pointer) for d in result.diagnostics] == [("SL303", "/tools/0/input_schema")]


def test_unused_per_file_ignore_is_reported_in_the_config_file(project: Path) -> None:
    (project / "tools").mkdir()
    (project / "tools" / "a.json").write_text(json.dumps({"tools": [OPEN_JSON_TOOL]}))
    _pyproject(project, {"tools/*.json": ["SL303"], "tools/a.json#/tools/0/input_schema/properties": ["SL303"]})
    result = lint(["."], LintOptions())
    (unused,) = result.diagnostics
    assert (unused.code, unused.path, unused.span.line) == ("SL001", "pyproject.toml", 5)
    assert "tools/a.json#/tools/0/input_schema/properties" in unused.message
    # a run over named files may not see every file an entry covers: no verdict then
    assert lint(["tools/a.json"], LintOptions()).diagnostics == []
    # nor when the ignored rule did not run
    _pyproject(project, {"tools/*.json": ["SL303"], "other/*.json": ["SL303"]}, select='["SL201", "SL001"]')
    assert lint(["."], LintOptions()).diagnostics == []


def test_per_file_ignores_are_judged_across_parallel_workers(project: Path) -> None:
    (project / "tools").mkdir()
    for index in range(70):
        tool = OPEN_JSON_TOOL if index == 69 else OPEN_JSON_TOOL | {"input_schema": {"type": "object"}}
        (project / "tools" / f"t{index:02}.json").write_text(json.dumps({"tools": [tool | {"name": f"t{index}"}]}))
    _pyproject(project, {"tools/*.json": ["SL303"], "tools/t0*.json": ["SL303"]})
    # each entry silences findings in some workers' files and not in others': used, in both modes
    assert lint(["."], LintOptions()).diagnostics == []
    assert lint(["."], LintOptions(jobs=2)).diagnostics == []
    _pyproject(project, {"tools/*.json": ["SL303"], "tools/t0*.json": ["SL201"]}, select='["SL303", "SL201", "SL001"]')
    parallel = lint(["."], LintOptions(jobs=2))
    assert [(d.code, d.path) for d in parallel.diagnostics] == [("SL001", "pyproject.toml")]


def test_python_source_comments(project: Path) -> None:
    (project / "tools.py").write_text(
        "TOOLS = [\n"
        "    {  # schemalint: disable=SL303\n"
        '        "type": "function",\n'
        '        "function": {\n'
        '            "name": "get_weather",\n'
        '            "description": "Weather for a city. # schemalint: disable-file",\n'
        '            "parameters": {"type": "object", "properties": {}},  # schemalint: disable=SL303\n'
        "        },\n"
        "    }\n"
        "]\n",
        encoding="utf-8",
    )
    # the comment on the finding's line silences it; the one three lines above silences nothing
    assert codes(select=("SL303", "SL001"), no_config=True) == [("SL001", 2)]


def test_yaml_comments_after_a_quote_inside_a_plain_scalar() -> None:
    # a quote in the middle of a plain scalar opens nothing: the comments after it are still comments
    text = "a: sizes - \"s\nb: 1  # real 1\nc: which? 'x # real 2\n# real 3\n"
    found = [(c.line, c.text) for c in yaml_comments(text)]
    assert found == [(2, "# real 1"), (3, "# real 2"), (4, "# real 3")]
