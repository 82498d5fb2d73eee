"""Configuration: `[tool.schemalint]` in pyproject.toml or `.schemalint.toml`, found upward like ruff.

Every key is validated; an unknown key, rule, option or a bad value raises ConfigError naming it,
which the CLI turns into exit code 2.
"""

from __future__ import annotations

import dataclasses
import sys
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from schemalint.model import Severity

CONFIG_FILES = (".schemalint.toml", "pyproject.toml")
DEFAULT_INCLUDE = ("*.json", "*.yaml", "*.yml", "*.py")
DEFAULT_EXCLUDE = (
    ".git",
    ".hg",
    ".svn",
    ".venv",
    "venv",
    "node_modules",
    "__pycache__",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".tox",
    ".schemalint_cache",
    "build",
    "dist",
)


class ConfigError(Exception):
    """A configuration problem; the message names the file and the key."""


@dataclass(frozen=True)
class RuleSetting:
    severity: Severity | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PerFileIgnore:
    pattern: str  # a glob relative to the config's folder
    pointer: str | None  # only findings at or below this JSON pointer
    selectors: tuple[str, ...]


@dataclass(frozen=True)
class Config:
    """Settings for the files below `root`. `source` is the file they came from (None: defaults)."""

    root: Path
    source: Path | None = None
    select: tuple[str, ...] = ("ALL",)
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    fail_on: Severity | None = Severity.ERROR  # None: never fail
    targets: tuple[str, ...] = ()
    include: tuple[str, ...] = DEFAULT_INCLUDE
    exclude: tuple[str, ...] = ()
    per_file_ignores: tuple[PerFileIgnore, ...] = ()
    toolsets: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: eval fixture (glob, relative to `root`) -> the tool files it is checked against (relative to `root`)
    fixtures: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    rules: Mapping[str, RuleSetting] = field(default_factory=dict)
    #: global settings handed to rules through LintContext.settings, keyed as in the file
    settings: Mapping[str, Any] = field(default_factory=dict)

    def replace(self, **changes: Any) -> Config:
        return dataclasses.replace(self, **changes)


#: keys handed to rules as LintContext.settings, with their defaults
GLOBAL_SETTINGS: dict[str, Any] = {
    "embedding-backend": "static",
    "embedding-model": "sentence-transformers/all-MiniLM-L6-v2",
    "cache-dir": ".schemalint_cache",
    "target-limits": {},
    #: where rule links point (schemalint.docs_site): a base URL or a `{code}`/`{slug}` template; "" = default
    "docs-url": "",
}

_LIST_KEYS = {"select", "extend-select", "ignore", "targets", "include", "exclude"}
_TOP_LEVEL_KEYS = _LIST_KEYS | {"fail-on", "per-file-ignores", "toolsets", "fixtures", "rules"} | set(GLOBAL_SETTINGS)


def find_config_file(start: Path) -> Path | None:
    """The nearest `.schemalint.toml`, or pyproject.toml with a [tool.schemalint] table, at or above `start`."""
    directory = start.resolve()
    while True:
        for name in CONFIG_FILES:
            candidate = directory / name
            if candidate.is_file():
                if name == "pyproject.toml" and "schemalint" not in _read_toml(candidate).get("tool", {}):
                    continue
                return candidate
        if directory.parent == directory:
            return None
        directory = directory.parent


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        stat = path.stat()
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror}") from None
    # keyed by modification time too, so a long-running editor server sees config edits
    return _parse_toml(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=64)
def _parse_toml(path: Path, mtime_ns: int, size: int) -> dict[str, Any]:
    if sys.version_info >= (3, 11):  # imported here: a run without a config file never needs it
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: invalid TOML: {error}") from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror}") from None


def load_config(path: Path) -> Config:
    """Read and validate one config file."""
    data = _read_toml(path)
    table = data.get("tool", {}).get("schemalint", {}) if path.name == "pyproject.toml" else data
    return parse_config(table, path, path.parent.resolve())


def config_for_directory(directory: Path) -> Config:
    source = find_config_file(directory)
    return load_config(source) if source else Config(root=Path.cwd().resolve())


def parse_config(table: Mapping[str, Any], source: Path | None, root: Path) -> Config:
    where = str(source) if source else "configuration"
    if not isinstance(table, Mapping):
        raise ConfigError(f"{where}: [tool.schemalint] must be a table")
    for key in table:
        if key not in _TOP_LEVEL_KEYS:
            hint = ""
            if key == "tool" and source is not None and source.name != "pyproject.toml":
                hint = f"; {source.name} takes the keys at the top level, without a [tool.schemalint] table"
            raise ConfigError(f"{where}: unknown key `{key}` (known: {', '.join(sorted(_TOP_LEVEL_KEYS))}){hint}")
    values: dict[str, Any] = {}
    for key in _LIST_KEYS & set(table):
        values[key.replace("-", "_")] = _string_list(table[key], key, where)
    for selector_key in ("select", "extend_select", "ignore"):
        for selector in values.get(selector_key, ()):
            check_selector(selector, f"{where}: `{selector_key.replace('_', '-')}`")
    if "targets" in values:
        check_targets(values["targets"], f"{where}: `targets`")
    if "fail-on" in table:
        values["fail_on"] = parse_fail_on(table["fail-on"], f"{where}: `fail-on`")
    if "per-file-ignores" in table:
        values["per_file_ignores"] = _per_file_ignores(table["per-file-ignores"], where)
    if "toolsets" in table:
        values["toolsets"] = _toolsets(table["toolsets"], where)
    if "fixtures" in table:
        values["fixtures"] = _fixtures(table["fixtures"], where)
    if "rules" in table:
        values["rules"] = _rule_settings(table["rules"], where)
    settings = dict(GLOBAL_SETTINGS)
    for key in GLOBAL_SETTINGS:
        if key in table:
            settings[key] = _global_setting(key, table[key], where)
    return Config(root=root, source=source, settings=settings, **values)


def parse_fail_on(value: Any, where: str) -> Severity | None:
    if value == "never":
        return None
    try:
        return Severity.parse(str(value))
    except ValueError:
        raise ConfigError(f"{where}: expected error, warning, info or never, got {value!r}") from None


def check_selector(selector: str, where: str) -> None:
    from schemalint.rules import match_selector

    if not match_selector(selector):
        raise ConfigError(f"{where}: unknown rule or prefix `{selector}`")


def check_targets(targets: tuple[str, ...], where: str) -> None:
    from schemalint.targets import TARGETS

    for target in targets:
        if target not in TARGETS:
            raise ConfigError(f"{where}: unknown target `{target}` (known: {', '.join(TARGETS)})")


def _string_list(value: Any, key: str, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: `{key}` must be a list of strings")
    return tuple(value)


def _per_file_ignores(value: Any, where: str) -> tuple[PerFileIgnore, ...]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where}: `per-file-ignores` must be a table of pattern = [rules]")
    entries = []
    for pattern, selectors in value.items():
        codes = _string_list(selectors, f"per-file-ignores.{pattern}", where)
        for selector in codes:
            check_selector(selector, f"{where}: `per-file-ignores.{pattern}`")
        glob, _, pointer = pattern.partition("#")
        entries.append(PerFileIgnore(glob, pointer if pointer or "#" in pattern else None, codes))
    return tuple(entries)


def _toolsets(value: Any, where: str) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where}: `toolsets` must be a table of name = [globs]")
    return {name: _string_list(globs, f"toolsets.{name}", where) for name, globs in value.items()}


def _fixtures(value: Any, where: str) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, Mapping):
        raise ConfigError(f'{where}: `fixtures` must be a table of "fixture glob" = "tool file" (or a list of them)')
    return {pattern: _string_list(paths, f"fixtures.{pattern}", where) for pattern, paths in value.items()}


def _rule_settings(value: Any, where: str) -> dict[str, RuleSetting]:
    from schemalint.rules import find_rule

    if not isinstance(value, Mapping):
        raise ConfigError(f"{where}: `rules` must be a table of tables")
    settings: dict[str, RuleSetting] = {}
    for name, body in value.items():
        rule = find_rule(name)
        if rule is None:
            raise ConfigError(f"{where}: unknown rule `{name}` in [rules]")
        if not isinstance(body, Mapping):
            raise ConfigError(f"{where}: `rules.{name}` must be a table")
        severity = None
        options: dict[str, Any] = {}
        for key, raw in body.items():
            if key == "severity":
                try:
                    severity = Severity.parse(str(raw))
                except ValueError as error:
                    raise ConfigError(f"{where}: `rules.{name}.severity`: {error}") from None
            else:
                options[key] = raw
        build_options(rule, options, f"{where}: `rules.{name}`")  # validate now, fail early
        settings[rule.code] = RuleSetting(severity, options)
    return settings


def build_options(rule: Any, raw: Mapping[str, Any], where: str) -> Any:
    """The rule's Options dataclass from config keys (kebab-case), type-checked."""
    if not raw:  # the defaults; resolving the type hints below costs more than the rest of a run's setup
        return rule.Options()
    hints = typing.get_type_hints(rule.Options)
    fields = {f.name: f for f in dataclasses.fields(rule.Options)}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        name = key.replace("-", "_")
        if name not in fields:
            known = ", ".join(sorted(f.replace("_", "-") for f in fields)) or "none"
            raise ConfigError(f"{where}: unknown option `{key}` (options: {known})")
        values[name] = _coerce(value, hints[name], f"{where}.{key}")
    return rule.Options(**values)


def _coerce(value: Any, hint: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    if hint is bool:
        if isinstance(value, bool):
            return value
    elif hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif hint is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    elif hint is str:
        if isinstance(value, str):
            return value
    elif origin in (tuple, list, frozenset):
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return origin(value)
    elif origin in (dict, Mapping) or hint in (dict, Mapping):
        if isinstance(value, Mapping):
            return dict(value)
    else:
        return value
    raise ConfigError(f"{where}: expected {getattr(hint, '__name__', hint)}, got {value!r}")


def _global_setting(key: str, value: Any, where: str) -> Any:
    default = GLOBAL_SETTINGS[key]
    if isinstance(default, str) and not isinstance(value, str):
        raise ConfigError(f"{where}: `{key}` must be a string")
    if isinstance(default, dict) and not isinstance(value, Mapping):
        raise ConfigError(f"{where}: `{key}` must be a table")
    if key == "target-limits":
        from schemalint.providers import validate_limit_overrides

        try:
            return validate_limit_overrides(value)
        except ValueError as error:
            raise ConfigError(f"{where}: {error}") from None
    if key == "embedding-backend" and value not in ("auto", "static", "sentence-transformers"):
        raise ConfigError(f"{where}: `embedding-backend` must be auto, static or sentence-transformers")
    return value
