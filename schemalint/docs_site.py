"""The rules site: its pages generated from the rules' own docs, and where a rule's page is.

`mkdocs build` (mkdocs.yml at the repository root) adds the pages made here to docs/ while it builds,
through scripts/mkdocs_hooks.py: one page per rule from its docstring and options, the rule table and
the options reference. Nothing generated is committed. The site is built with `use_directory_urls`
off, so a rule's page is `rules/SL309-invalid-schema.html` both on a web server and as a file.

A rule's link (SARIF `helpUri`, the language server's `codeDescription.href`, `schemalint rule`) is,
in this order: the `docs-url` setting, `$SCHEMALINT_DOCS_URL`, the site built in this source checkout
(`site/`, a file URL), else the rule's folder in the repository's catalogue (for a change rule, which has
no folder, the catalogue's index). A `docs-url` is either a
base (`https://example.org/schemalint/{version}/`, to which `rules/<page>.html` is added) or a
template with `{code}` and `{slug}`; `{version}` is replaced by the installed version.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from pathlib import Path
from typing import Any

from schemalint import __version__
from schemalint.rules import all_rules, find_rule
from schemalint.rules.base import Rule, Scope

DOCS_URL_ENV = "SCHEMALINT_DOCS_URL"
#: where the repository's catalogue folders are: a rule's link when no site is known
REPOSITORY_URL = "https://github.com/schemalint/schemalint/tree/main/"
#: a source checkout: the package's parent folder holds mkdocs.yml, and `mkdocs build` writes site/ there
_CHECKOUT = Path(__file__).resolve().parent.parent


def rule_page(code: str, slug: str) -> str:
    """The rule's page, relative to the site's root."""
    return f"rules/{code}-{slug}.html"


def catalogue_folder(code: str, slug: str) -> str:
    """The rule's folder in the repository's catalogue; for a change rule (SL9xx), which compares two
    versions and has no folder, the catalogue itself, whose index names it."""
    rule = find_rule(code)
    return "rules/" if rule is not None and rule.scope is Scope.CHANGE else f"rules/{code}-{slug}/"


def rule_url(code: str, slug: str, configured: str = "") -> str:
    """Where a rule's page is (see the module's doc)."""
    base = configured or os.environ.get(DOCS_URL_ENV, "")
    if base:
        base = base.replace("{version}", __version__)
        if "{code}" in base:
            return base.format(code=code, slug=slug)
        return base.rstrip("/") + "/" + rule_page(code, slug)
    local = _CHECKOUT / "site"
    if (_CHECKOUT / "mkdocs.yml").is_file() and (local / "index.html").is_file():
        return local.as_uri() + "/" + rule_page(code, slug)
    return REPOSITORY_URL + catalogue_folder(code, slug)


# --------------------------------------------------------------------------------------------------
# Pages

_LIST_ITEM = re.compile(r"^(?:[-*] |\d+\. )")


def fixability(rule: type[Rule]) -> str:
    """`safe`, `unsafe`, `safe, unsafe` or `no`: the fixes the rule declares (`Rule.fixable`, which a test
    holds to the fixes it offers and its `## Fix safety` section describes)."""
    return ", ".join(rule.fixable) or "no"


def rule_facts(rule: type[Rule]) -> dict[str, Any]:
    """What `schemalint rule` and the rule's page say of it besides its docs."""
    from schemalint.presets import DEFAULT_PRESETS, presets_with

    presets = presets_with(rule.code)
    return {
        "code": rule.code,
        "slug": rule.slug,
        "severity": rule.severity.label,
        "scope": rule.scope.value,
        "default": any(name in presets for name in DEFAULT_PRESETS),
        "presets": presets,
        "fixable": list(rule.fixable),
        "summary": rule.summary,
    }


def _markdown(docs: str) -> str:
    """A docstring as Python-Markdown reads it: a list needs a blank line before it."""
    lines = docs.splitlines()
    out: list[str] = []
    fenced = False
    for line in lines:
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and _LIST_ITEM.match(line) and out and out[-1].strip() and not _LIST_ITEM.match(out[-1]):
            out.append("")
        out.append(line)
    return "\n".join(out)


def _options_table(rule: type[Rule]) -> list[str]:
    fields = dataclasses.fields(rule.Options)
    if not fields:
        return []
    defaults = rule.Options()
    rows = ["| option | type | default |", "|---|---|---|"]
    for option in fields:
        default = getattr(defaults, option.name)
        # TOML has no null to show; the JSON of a bool, number, string or list of them is its TOML
        shown = "unset" if default is None else f"`{json.dumps(default, ensure_ascii=False)}`"
        rows.append(f"| `{option.name.replace('_', '-')}` | `{_type_name(option.type)}` | {shown} |")
    return rows


def _type_name(hint: Any) -> str:
    # a bare `|` (`int | None`) would end the Markdown table cell, even inside a code span
    return str(getattr(hint, "__name__", hint)).replace("typing.", "").replace("|", "\\|")


def _cell(text: str) -> str:
    return _plain(" ".join(text.split())).replace("|", "\\|")


def _plain(text: str) -> str:
    """A one-line summary as Markdown: `*` and `_` outside code spans are text (`delete_*`), not emphasis."""
    parts = text.split("`")
    return "`".join(part if i % 2 else re.sub(r"([*_])", r"\\\1", part) for i, part in enumerate(parts))


def rule_markdown(rule: type[Rule]) -> str:
    """A rule's page: what `schemalint rule CODE` prints, with its options and how to configure it."""
    facts = rule_facts(rule)
    presets = f"{'on' if facts['default'] else 'off'} | {', '.join(facts['presets']) or 'none'}"
    lines = [
        f"# {rule.code} {rule.slug}",
        "",
        _plain(rule.summary),
        "",
        "| severity | applies to | fix | default | presets |",
        "|---|---|---|---|---|",
        f"| {rule.severity.label} | {rule.scope.value} | {fixability(rule)} | {presets} |",
        "",
        _markdown(rule.docs()),
        "",
    ]
    options = _options_table(rule)
    if options:
        lines += ["## Option reference", "", *options, ""]
        first = dataclasses.fields(rule.Options)[0].name.replace("_", "-")
        lines += [
            "Set in `pyproject.toml` (or `.schemalint.toml` without the `tool.` prefix):",
            "",
            "```toml",
            f"[tool.schemalint.rules.{rule.code}]",
            f"{first} = ...",
            "```",
            "",
        ]
    if rule.scope is not Scope.CHANGE:
        lines += [
            "## Turning it off",
            "",
            f'`ignore = ["{rule.code}"]` in the configuration, `--ignore {rule.code}` on the command line, or a '
            f"suppression comment for one finding (see [Configuration](../configuration.md)).",
            "",
        ]
    return "\n".join(lines)


def rules_index_markdown() -> str:
    lines = [
        "# Rules",
        "",
        f"Every rule of schemalint {__version__}; `schemalint rule CODE` prints the same page in a terminal.",
        "",
        "`default`: on in the `recommended` preset, which runs when the configuration names none "
        "([Presets](../presets.md)).",
        "",
        "| code | name | severity | applies to | fix | default | what it flags |",
        "|---|---|---|---|---|---|---|",
    ]
    for rule in all_rules():
        page = rule_page(rule.code, rule.slug).removeprefix("rules/").removesuffix(".html") + ".md"
        lines.append(
            f"| [{rule.code}]({page}) | {rule.slug} | {rule.severity.label} | {rule.scope.value} | {fixability(rule)} "
            f"| {'on' if rule_facts(rule)['default'] else 'off'} | {_cell(rule.summary)} |"
        )
    return "\n".join(lines) + "\n"


def options_reference_markdown() -> str:
    """Every rule option, with its type and default: the `[tool.schemalint.rules.CODE]` keys."""
    lines = [
        "## Rule options",
        "",
        "Under `[tool.schemalint.rules.CODE]`, next to `severity` (`error`, `warning` or `info`), which every "
        "rule takes.",
        "",
    ]
    for rule in all_rules():
        options = _options_table(rule)
        if options:
            page = rule_page(rule.code, rule.slug).removesuffix(".html") + ".md"
            lines += [f"### [{rule.code} {rule.slug}]({page})", "", *options, ""]
    return "\n".join(lines)


def generated_pages() -> dict[str, str]:
    """Page path (relative to the docs folder) -> Markdown, for every page made from the code."""
    pages = {"rules/index.md": rules_index_markdown()}
    for rule in all_rules():
        pages[rule_page(rule.code, rule.slug).removesuffix(".html") + ".md"] = rule_markdown(rule)
    return pages
