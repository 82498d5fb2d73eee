"""The rule registry: every module `schemalint/rules/sl<NNN>_<slug>.py` defines exactly one Rule.

Adding a rule is adding a module: its name gives the rule its code and slug (`sl301_nesting_too_deep.py`
holds SL301, `nesting-too-deep`), and the index of every rule is read from the module names. Selectors
are resolved on the index, and a rule's module is imported only when its class is asked for, so a run
imports the rules it runs and no others (`check` never imports the diff rules).
"""

from __future__ import annotations

import importlib
import os
import re
from functools import cache, lru_cache
from typing import NamedTuple

from schemalint.rules.base import Rule, code_and_slug


class RuleEntry(NamedTuple):
    """What the registry knows about a rule without importing its module."""

    code: str
    slug: str

    @property
    def module(self) -> str:
        return f"{__name__}.sl{self.code[2:]}_{self.slug.replace('-', '_')}"

    @property
    def checks(self) -> bool:
        """Whether the rule checks definitions: SL0xx are emitted by the engine, SL9xx by `schemalint diff`."""
        return self.code[2] not in "09"


#: every rule, ordered by code
RULE_INDEX: tuple[RuleEntry, ...] = tuple(
    RuleEntry(*named)
    for name in sorted(os.listdir(os.path.dirname(__file__)))
    if name.endswith(".py") and (named := code_and_slug(name[:-3])) is not None
)
_ENTRY_BY_CODE = {entry.code: entry for entry in RULE_INDEX}
_ENTRY_BY_SLUG = {entry.slug: entry for entry in RULE_INDEX}


@cache
def rule_class(code: str) -> type[Rule]:
    """The class of the rule `code` (exact, upper-case), importing its module; KeyError when unknown."""
    module = importlib.import_module(_ENTRY_BY_CODE[code].module)
    rules = [
        obj
        for obj in vars(module).values()
        if isinstance(obj, type) and issubclass(obj, Rule) and obj.__module__ == module.__name__
    ]
    if len(rules) != 1:
        raise RuntimeError(f"{module.__name__} must define exactly one Rule, found {len(rules)}")
    return rules[0]


@lru_cache(maxsize=1)
def all_rules() -> tuple[type[Rule], ...]:
    """Every registered rule class, ordered by code (imports every rule module)."""
    return tuple(rule_class(entry.code) for entry in RULE_INDEX)


def find_entry(name: str) -> RuleEntry | None:
    """A rule's index entry by code (`SL301`, case-insensitive) or slug (`nesting-too-deep`)."""
    return _ENTRY_BY_CODE.get(name.strip().upper()) or _ENTRY_BY_SLUG.get(name.strip().lower())


def find_rule(name: str) -> type[Rule] | None:
    """A rule by code (`SL301`, case-insensitive) or slug (`nesting-too-deep`)."""
    entry = find_entry(name)
    return rule_class(entry.code) if entry is not None else None


def match_selector(selector: str) -> list[RuleEntry]:
    """Rules named by a selector: a code, a slug, a code prefix (`SL3`, `SL30`) or `ALL`."""
    text = selector.strip()
    if text.upper() == "ALL":
        return list(RULE_INDEX)
    entry = find_entry(text)
    if entry is not None:
        return [entry]
    upper = text.upper()
    if re.fullmatch(r"SL\d{0,3}", upper):
        return [entry for entry in RULE_INDEX if entry.code.startswith(upper)]
    return []
