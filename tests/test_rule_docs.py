"""Every rule's documentation runs: its `## Example` fires the rule and its `## Use instead` does not;
its `## Options` is written from its Options class.

A JSON block is read as the rule reads it: a list of tools is a tool set, an object with a `name`
a tool, an object with schema keywords a tool's parameters, and any other object the properties of
one. An example in prose (a 1,500-character description, 45 tools) is skipped, by name, below.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import re
from typing import Any

import pytest

from schemalint.model import Dialect
from schemalint.rules import all_rules, rule_class
from schemalint.rules.base import Rule, Scope, option_docs
from schemalint.testing import run_rule

CHECKED_RULES = [rule for rule in all_rules() if rule.scope in (Scope.NODE, Scope.TOOL, Scope.TOOLSET)]
#: documented examples the rule does not flag (yet): the test fails when one starts to
KNOWN_SILENT: dict[str, str] = {}
#: keywords that make a JSON object a schema rather than a map of properties
SCHEMA_KEYWORDS = frozenset({"type", "properties", "$ref", "anyOf", "oneOf", "allOf", "items", "enum"})
#: the keys under which dialects other than the generic one hold the parameters
PARAMETER_KEYS = {"inputSchema": Dialect.MCP, "input_schema": Dialect.ANTHROPIC}


def section(rule: type[Rule], title: str) -> str:
    """The text of the `## title` section of the rule's documentation ('' when it has none)."""
    return section_of(rule.docs(), title)


def section_of(docs: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", docs, re.MULTILINE | re.DOTALL)
    return match.group(1) if match else ""


def json_block(text: str) -> Any:
    """The first ```json block of `text`, parsed; None when the section is prose."""
    match = re.search(r"```json\n(.*?)```", text, re.DOTALL)
    return json.loads(match.group(1)) if match else None


def as_tools(value: Any) -> tuple[list[dict[str, Any]], Dialect]:
    """The tool definitions a documentation block stands for, and their dialect."""
    if isinstance(value, list):
        tools = value
    elif "name" in value and not SCHEMA_KEYWORDS & value.keys():
        tools = [value]
    elif SCHEMA_KEYWORDS & value.keys():
        tools = [{"name": "get_order", "description": "Gets an order.", "parameters": value}]
    else:
        tools = [{"name": "get_order", "description": "Gets an order.", "parameters": {"properties": value}}]
    dialect = Dialect.GENERIC
    for tool in tools:
        for key, key_dialect in PARAMETER_KEYS.items():
            if key in tool:
                tool["parameters"], dialect = tool.pop(key), key_dialect
    return tools, dialect


def findings(rule: type[Rule], value: Any) -> list[str]:
    tools, dialect = as_tools(value)
    return [f.message for f in run_rule(rule(), tools, dialect)]


@pytest.mark.parametrize(
    "rule",
    [
        pytest.param(rule, marks=pytest.mark.xfail(reason=KNOWN_SILENT[rule.code], strict=True))
        if rule.code in KNOWN_SILENT
        else rule
        for rule in CHECKED_RULES
    ],
    ids=lambda r: r.code,
)
def test_example_fires_the_rule(rule: type[Rule]) -> None:
    example = json_block(section(rule, "Example"))
    if example is None:
        pytest.skip(f"{rule.code}'s example is prose")
    assert findings(rule, example), f"{rule.code}: its documented example gives no finding"


@pytest.mark.parametrize("rule", CHECKED_RULES, ids=lambda r: r.code)
def test_use_instead_does_not_fire(rule: type[Rule]) -> None:
    fixed = json_block(section(rule, "Use instead"))
    if fixed is None:
        pytest.skip(f"{rule.code}'s advice is prose")
    assert not findings(rule, fixed), f"{rule.code}: its documented fix still fires"


@pytest.mark.parametrize(
    "rule", [rule for rule in all_rules() if dataclasses.fields(rule.Options)], ids=lambda r: r.code
)
def test_options_are_documented_once(rule: type[Rule]) -> None:
    """`## Options` lists every field with its docstring; the rule's own docstring lists none by hand."""
    described = option_docs(rule.Options)
    listed = section(rule, "Options")
    for field in dataclasses.fields(rule.Options):
        assert described.get(field.name), f"{rule.code}: option `{field.name}` has no docstring"
        assert listed.count(f"- `{field.name.replace('_', '-')}` (") == 1, f"{rule.code}: `{field.name}`"
    assert "- `" not in section_of(inspect.cleandoc(rule.__doc__ or ""), "Options")


def test_options_section_shows_type_default_and_docstring() -> None:
    docs = rule_class("SL106").docs()
    assert docs.index("## Use instead") < docs.index("## Options") < docs.index("## Severity")
    assert "- `allow-described-single-letters` (bool, default true): Accept a one-letter name" in docs
    assert "- `extend-vague-words` (list of str, default `[]`): Words added to `vague-words`." in docs
    assert "- `vague-words` (list of str): Words that say nothing" in docs
    sl208 = rule_class("SL208").docs()
    assert "- `max-length` (int, default none):" in sl208 and "`max-description-length`" in sl208


@pytest.mark.parametrize("rule", all_rules(), ids=lambda rule: rule.code)
def test_docs_cite_no_path_outside_the_project(rule: type[Rule]) -> None:
    """A user reads these docs without the team's files beside the project: cite public sources."""
    assert not re.findall(r"(?:\.\.|/work)/shared/", rule.docs())
