"""The rule registry: every module `schemalint/rules/sl<NNN>_<slug>.py` defines exactly one Rule.

Adding a rule is adding a module; nothing else needs to change.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from functools import lru_cache

from schemalint.rules.base import Rule

_MODULE_NAME = re.compile(r"^sl(\d{3})_\w+$")


@lru_cache(maxsize=1)
def all_rules() -> tuple[type[Rule], ...]:
    """Every registered rule class, ordered by code."""
    found: list[type[Rule]] = []
    for info in pkgutil.iter_modules(__path__):
        if not _MODULE_NAME.match(info.name):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        rules = [
            obj
            for obj in vars(module).values()
            if isinstance(obj, type) and issubclass(obj, Rule) and obj.__module__ == module.__name__
        ]
        if len(rules) != 1:
            raise RuntimeError(f"{module.__name__} must define exactly one Rule, found {len(rules)}")
        found.append(rules[0])
    return tuple(sorted(found, key=lambda r: r.code))


@lru_cache(maxsize=1)
def rules_by_code() -> dict[str, type[Rule]]:
    return {r.code: r for r in all_rules()}


def find_rule(name: str) -> type[Rule] | None:
    """A rule by code (`SL301`, case-insensitive) or slug (`nesting-too-deep`)."""
    by_code = rules_by_code()
    upper = name.strip().upper()
    if upper in by_code:
        return by_code[upper]
    lowered = name.strip().lower()
    for rule in all_rules():
        if rule.slug == lowered:
            return rule
    return None


def match_selector(selector: str) -> list[type[Rule]]:
    """Rules named by a selector: a code, a slug, a code prefix (`SL3`, `SL30`) or `ALL`."""
    text = selector.strip()
    if text.upper() == "ALL":
        return list(all_rules())
    rule = find_rule(text)
    if rule is not None:
        return [rule]
    upper = text.upper()
    if re.fullmatch(r"SL\d{0,3}", upper):
        return [r for r in all_rules() if r.code.startswith(upper)]
    return []
