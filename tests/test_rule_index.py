"""The rule index (read from the module names in schemalint/rules) matches the rules the modules define."""

from __future__ import annotations

import importlib
import pkgutil
import re
import subprocess
import sys

import schemalint.rules
from schemalint.rules import RULE_INDEX, all_rules, find_rule, match_selector
from schemalint.rules.base import Rule, Scope

from .conftest import REPO


def discovered_rules() -> list[type[Rule]]:
    """Every Rule class defined in a `sl<NNN>_<slug>` module, found by walking the package."""
    found = []
    for info in pkgutil.iter_modules(schemalint.rules.__path__):
        if re.fullmatch(r"sl\d{3}_\w+", info.name):
            module = importlib.import_module(f"schemalint.rules.{info.name}")
            found.extend(
                obj
                for obj in vars(module).values()
                if isinstance(obj, type) and issubclass(obj, Rule) and obj.__module__ == module.__name__
            )
    return sorted(found, key=lambda r: r.code)


def test_each_module_defines_exactly_its_indexed_rule() -> None:
    assert list(all_rules()) == discovered_rules()
    for entry, rule in zip(RULE_INDEX, all_rules(), strict=True):
        assert (entry.code, entry.slug) == (rule.code, rule.slug)
        assert entry.checks == (rule.scope not in (Scope.FILE, Scope.CHANGE))
        assert rule.__module__ == entry.module


def test_lookups_by_code_slug_and_prefix() -> None:
    rule = find_rule("SL301")
    assert rule is not None and rule.slug == "nesting-too-deep"
    assert find_rule("SL999") is None
    assert [e.code for e in match_selector("nesting-too-deep")] == ["SL301"]
    assert [e.code for e in match_selector("sl30")] == [f"SL30{n}" for n in range(1, 10)]
    assert len(match_selector("ALL")) == len(RULE_INDEX)
    assert match_selector("SLX") == []


def test_checking_a_file_imports_no_diff_rule_and_no_toml_parser() -> None:
    code = (
        "import sys\n"
        "from schemalint.engine import LintOptions, lint_source\n"
        'lint_source(\'[{"name": "get_weather", "description": "Weather.", "input_schema": '
        '{"type": "object"}}]\', \'tools.json\', LintOptions(no_config=True))\n'
        "print(sorted(m for m in sys.modules if m.startswith('schemalint.rules.sl9') or m == 'tomllib'))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    assert result.stdout.strip() == "[]"
