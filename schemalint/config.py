"""Configuration: `[tool.schemalint]` in pyproject.toml or `.schemalint.toml`, found upward like ruff.

Every key is validated; an unknown key, rule, option or a bad value raises ConfigError naming it,
which the CLI turns into exit code 2.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemalint.loaders import LoadError, read_toml
from schemalint.loaders.discover import DEFAULT_INCLUDE
from schemalint.model import Severity
from schemalint.paths import matches_any
from schemalint.presets import DEFAULT_PRESETS, PRESETS, Preset, preset_codes
from schemalint.rules import RULE_INDEX, find_rule, match_selector, rule_class
from schemalint.rules.base import FixtureRule, NodeDispatch, NodeRule, RequestRule, Rule, ToolRule, ToolSetRule

if TYPE_CHECKING:
    from schemalint.diagnostics import Finding
    from schemalint.rules import RuleEntry

CONFIG_FILES = (".schemalint.toml", "pyproject.toml")


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
    #: the presets the settings start from (`extend`), in order
    extend: tuple[str, ...] = DEFAULT_PRESETS
    #: None: the rules the presets turn on
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    fail_on: Severity | None = Severity.ERROR  # None: never fail
    #: empty: the presets' targets, else each tool's dialect decides (schemalint.targets)
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
    #: where each value that is not a default came from, by key as written in the file (`select`,
    #: `rules.SL301`): `pyproject.toml:tool.schemalint.select`, `command line (--select)`
    origins: Mapping[str, str] = field(default_factory=dict)

    @property
    def presets(self) -> tuple[Preset, ...]:
        return tuple(PRESETS[name] for name in self.extend)

    @cached_property
    def enabled_rules(self) -> dict[str, RuleEntry]:
        """The rules that run, by code in code order: `select` (or the presets' rules), plus
        `extend-select`, less `ignore`."""
        if self.select is None:
            chosen = {code for preset in self.presets for code in preset_codes(preset)}
        else:
            chosen = _codes(self.select)
        chosen = (chosen | _codes(self.extend_select)) - _codes(self.ignore)
        return {entry.code: entry for entry in RULE_INDEX if entry.code in chosen}

    @cached_property
    def provider_targets(self) -> tuple[str, ...]:
        """`targets`, else the presets' targets; empty: each tool's dialect decides."""
        if self.targets:
            return self.targets
        return tuple(dict.fromkeys(target for preset in self.presets for target in preset.targets))

    @cached_property
    def promoted(self) -> frozenset[str]:
        """Codes whose warnings a preset reports as errors (a configured `rules.X.severity` wins)."""
        return frozenset().union(*(preset.promote for preset in self.presets))

    @cached_property
    def rule_set(self) -> RuleSet:
        """The enabled rules, instantiated once per configuration."""
        return RuleSet(self)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (to and from worker processes) without the rule instances, which each process builds."""
        return {key: value for key, value in self.__dict__.items() if key != "rule_set"}


class RuleSet:
    """The enabled rule instances for one configuration, with their configured severities."""

    def __init__(self, config: Config) -> None:
        enabled = config.enabled_rules
        self.enabled = frozenset(enabled)
        self.instances: list[Rule] = []
        for code, entry in sorted(enabled.items()):
            if entry.checks:
                rule = rule_class(code)
                setting = config.rules.get(code, RuleSetting())
                self.instances.append(rule(build_options(rule, setting.options, f"rules.{code}")))
        self.severities = {code: s.severity for code, s in config.rules.items() if s.severity is not None}
        self.promoted = config.promoted
        self.tool_rules = [r for r in self.instances if isinstance(r, ToolRule)]
        self.node_rules = NodeDispatch([r for r in self.instances if isinstance(r, NodeRule)])
        self.toolset_rules = [r for r in self.instances if isinstance(r, ToolSetRule)]
        self.request_rules = [r for r in self.instances if isinstance(r, RequestRule)]
        self.fixture_rules = [r for r in self.instances if isinstance(r, FixtureRule)]
        #: what the rules' findings depend on besides the tool (FindingCache keys)
        self.fingerprint = repr(config)

    def severity(self, rule: type[Rule], finding: Finding) -> Severity:
        severity = self.severities.get(rule.code)
        if severity is not None:
            return severity
        severity = finding.severity or rule.severity
        if severity is Severity.WARNING and rule.code in self.promoted:
            return Severity.ERROR
        return severity


#: keys handed to rules as LintContext.settings, with their defaults
GLOBAL_SETTINGS: dict[str, Any] = {
    "embedding-backend": "static",
    "embedding-model": "sentence-transformers/all-MiniLM-L6-v2",
    "cache-dir": ".schemalint_cache",
    "target-limits": {},
    #: where rule links point (schemalint.docs_site): a base URL or a `{code}`/`{slug}` template; "" = default
    "docs-url": "",
}

_LIST_KEYS = {"extend", "select", "extend-select", "ignore", "targets", "include", "exclude"}
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
        return read_toml(path)
    except LoadError as error:
        raise ConfigError(error.message) from None


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
    if "extend" in values:
        check_presets(values["extend"], f"{where}: `extend`")
    if "fail-on" in table:
        values["fail_on"] = parse_fail_on(table["fail-on"], f"{where}: `fail-on`")
    if "per-file-ignores" in table:
        values["per_file_ignores"] = _per_file_ignores(table["per-file-ignores"], where)
    if "toolsets" in table:
        values["toolsets"] = _string_lists(table["toolsets"], "toolsets", "name = [globs]", where)
    if "fixtures" in table:
        shape = '"fixture glob" = "tool file" (or a list of them)'
        values["fixtures"] = _string_lists(table["fixtures"], "fixtures", shape, where)
    if "rules" in table:
        values["rules"] = _rule_settings(table["rules"], where)
    settings = dict(GLOBAL_SETTINGS)
    for key in GLOBAL_SETTINGS:
        if key in table:
            settings[key] = _global_setting(key, table[key], where)
    prefix = "tool.schemalint." if source is not None and source.name == "pyproject.toml" else ""
    origins = {key: f"{where}:{prefix}{key}" for key in table if key != "rules"}
    origins.update((f"rules.{code}", f"{where}:{prefix}rules.{code}") for code in values.get("rules", {}))
    return Config(root=root, source=source, settings=settings, origins=origins, **values)


def parse_fail_on(value: Any, where: str) -> Severity | None:
    if value == "never":
        return None
    try:
        return Severity.parse(str(value))
    except ValueError:
        raise ConfigError(f"{where}: expected error, warning, info or never, got {value!r}") from None


def check_selector(selector: str, where: str) -> None:
    if not match_selector(selector):
        raise ConfigError(f"{where}: unknown rule or prefix `{selector}`")


def check_targets(targets: tuple[str, ...], where: str) -> None:
    from schemalint.targets import TARGETS

    for target in targets:
        if target not in TARGETS:
            raise ConfigError(f"{where}: unknown target `{target}` (known: {', '.join(TARGETS)})")


def check_presets(names: tuple[str, ...], where: str) -> None:
    for name in names:
        if name not in PRESETS:
            raise ConfigError(f"{where}: unknown preset `{name}` (known: {', '.join(PRESETS)})")


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


def _string_lists(value: Any, key: str, shape: str, where: str) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where}: `{key}` must be a table of {shape}")
    return {name: _string_list(entry, f"{key}.{name}", where) for name, entry in value.items()}


def _rule_settings(value: Any, where: str) -> dict[str, RuleSetting]:
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
    if not raw:  # the defaults, without resolving the type hints below
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


@dataclass(frozen=True)
class Setting:
    """One resolved value of a configuration and where it came from, for `check --show-settings`."""

    key: str
    value: Any
    origin: str


def resolved_settings(config: Config, path: Path) -> list[Setting]:
    """Every setting that applies to the file `path` under `config`, with its origin: `default`, `preset
    NAME`, `FILE:KEY` or `command line (--OPTION)`."""
    origins = config.origins

    def origin(key: str, fallback: str = "default") -> str:
        return origins.get(key, fallback)

    preset_names = ", ".join(config.extend)
    settings = [
        Setting(
            "config-file",
            str(config.source) if config.source else None,
            "found upward from the file" if config.source else "none: the defaults",
        ),
        Setting("extend", list(config.extend), origin("extend")),
        Setting("select", list(config.select) if config.select is not None else "the presets' rules", origin("select")),
        Setting("extend-select", list(config.extend_select), origin("extend-select")),
        Setting("ignore", list(config.ignore), origin("ignore")),
    ]
    enabled = config.enabled_rules
    extended, ignored = _codes(config.extend_select), _codes(config.ignore)
    for entry in RULE_INDEX:
        code = entry.code
        if code in enabled:
            if code in extended:
                why = origin("extend-select")
            elif config.select is not None:
                why = origin("select")
            else:
                why = f"preset {next(p.name for p in config.presets if code in preset_codes(p))}"
        elif code in ignored:
            why = origin("ignore")
        elif config.select is not None:
            why = f"not in {origin('select')}"
        else:
            why = f"not in preset {preset_names}"
        settings.append(Setting(f"rule.{code}", "on" if code in enabled else "off", why))
    for code, rule_setting in config.rules.items():
        if rule_setting.severity is not None:
            settings.append(Setting(f"rules.{code}.severity", rule_setting.severity.label, origin(f"rules.{code}")))
        for option, value in rule_setting.options.items():
            settings.append(Setting(f"rules.{code}.{option}", value, origin(f"rules.{code}")))
    for code in sorted(config.promoted & set(enabled)):
        if code not in config.rules or config.rules[code].severity is None:
            promoting = next(p.name for p in config.presets if code in p.promote)
            settings.append(Setting(f"rules.{code}.severity", "warnings reported as errors", f"preset {promoting}"))
    if config.targets:
        targets = Setting("targets", list(config.targets), origin("targets"))
    elif config.provider_targets:
        naming = next(p.name for p in config.presets if p.targets)
        targets = Setting("targets", list(config.provider_targets), f"preset {naming}")
    else:
        targets = Setting("targets", [], "default (each tool's dialect decides)")
    settings.append(targets)
    fail_on = config.fail_on.label if config.fail_on is not None else "never"
    settings.append(Setting("fail-on", fail_on, origin("fail-on")))
    settings += [Setting("include", list(config.include), origin("include"))]
    settings += [Setting("exclude", list(config.exclude), origin("exclude"))]
    for ignore in config.per_file_ignores:
        if matches_any(path, (ignore.pattern,), config.root):
            key = ignore.pattern + (f"#{ignore.pointer}" if ignore.pointer is not None else "")
            settings.append(Setting(f"per-file-ignores.{key}", list(ignore.selectors), origin("per-file-ignores")))
    for name, globs in config.toolsets.items():
        if matches_any(path, globs, config.root):
            settings.append(Setting("toolset", name, origin("toolsets")))
            break
    for pattern, tool_files in config.fixtures.items():
        if matches_any(path, (pattern,), config.root):
            settings.append(Setting(f"fixtures.{pattern}", list(tool_files), origin("fixtures")))
    for key, value in config.settings.items():
        settings.append(Setting(key, value, origin(key)))
    return settings


def _codes(selectors: tuple[str, ...]) -> set[str]:
    return {entry.code for selector in selectors for entry in match_selector(selector)}
