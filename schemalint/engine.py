"""The lint pipeline: discover -> load -> detect -> check -> place -> filter (docs/architecture.md).

`lint()` and `lint_source()` are pure with respect to the terminal: they read files and return
diagnostics; only cli.py prints.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import takewhile
from pathlib import Path, PurePath

from schemalint.config import Config, RuleSet, config_for_directory, load_config
from schemalint.diagnostics import Diagnostic, Finding
from schemalint.dialects import ACCEPTED_SHAPES, detect_tools
from schemalint.dialects.docker_catalog import FILE_NAME as CATALOG_FILE_NAME
from schemalint.dialects.evals import detect_fixture
from schemalint.dialects.requests import detect_requests
from schemalint.gc_pause import paused_gc
from schemalint.loaders import Document, LoadError
from schemalint.loaders.discover import SourceFile, discover, parse_document, read_source, source_format
from schemalint.model import EvalFixture, Request, Span, Tool, ToolSet, parent_pointer, pointer_owner
from schemalint.paths import display_path, matches_any, resolve_path
from schemalint.rules import rule_class
from schemalint.rules.base import (
    LintContext,
    Rule,
)
from schemalint.suppression import Suppressions
from schemalint.targets import resolve_targets

#: a JSON or YAML file without any of these words cannot hold a tool definition (but a Docker catalog
#: `tools.json` of tools without arguments can) or an eval fixture (`expect`)
TOOL_MARKERS = ("parameters", "input_schema", "inputSchema", "function", "arguments", "expect")
_START = Span(1, 1, 1, 1)


@dataclass(frozen=True)
class LintOptions:
    """Command-line overrides on top of the configuration files."""

    config_file: Path | None = None
    no_config: bool = False
    #: presets replacing the configured `extend`
    presets: tuple[str, ...] = ()
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    #: pre-commit names every staged file: pass silently over files that hold no tools
    skip_non_tool_files: bool = False
    #: processes: whole tool sets go to workers; the output is the same as with one
    jobs: int = 1


@dataclass
class SourceResult:
    """One file after loading: its document (None when it did not load) and the tools found."""

    path: str
    config: Config
    document: Document | None
    tools: list[Tool] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: the request bodies in the file that send tools (see schemalint.dialects.requests)
    requests: list[Request] = field(default_factory=list)
    #: the eval fixture the file holds (see schemalint.dialects.evals)
    fixture: EvalFixture | None = None


@dataclass
class LintResult:
    diagnostics: list[Diagnostic]
    files: list[SourceResult]

    @property
    def tool_count(self) -> int:
        return sum(len(f.tools) for f in self.files)

    def documents(self) -> dict[str, Document]:
        return {f.path: f.document for f in self.files if f.document is not None}


class ConfigResolver:
    """The configuration for each file (nearest config file, or the one named), with CLI overrides."""

    def __init__(self, options: LintOptions) -> None:
        self.options = options
        self._fixed: Config | None = None
        if options.config_file is not None:
            self._fixed = load_config(options.config_file)
        elif options.no_config:
            self._fixed = Config(root=Path.cwd().resolve())
        self._by_directory: dict[Path, Config] = {}
        self._by_source: dict[Path | None, Config] = {}

    def for_path(self, path: Path) -> Config:
        directory = resolve_path(path.parent)
        if directory not in self._by_directory:
            base = self._fixed or config_for_directory(directory)
            if base.source not in self._by_source:
                self._by_source[base.source] = self._apply_overrides(base)
            self._by_directory[directory] = self._by_source[base.source]
        return self._by_directory[directory]

    def _apply_overrides(self, config: Config) -> Config:
        o = self.options
        given = {"extend": o.presets, "select": o.select, "extend-select": o.extend_select, "ignore": o.ignore}
        given |= {"targets": o.targets, "exclude": o.exclude}
        origins = dict(config.origins)
        for key, value in given.items():
            if value:
                origin = f"command line ({_CLI_OPTIONS[key]})"
                origins[key] = f"{origins[key]} + {origin}" if key in _ADDED and key in origins else origin
        return replace(
            config,
            extend=o.presets or config.extend,
            select=o.select if o.select is not None else config.select,
            extend_select=config.extend_select + o.extend_select,
            ignore=config.ignore + o.ignore,
            targets=o.targets or config.targets,
            exclude=config.exclude + o.exclude,
            origins=origins,
        )


_CLI_OPTIONS = {key: f"--{key}" for key in ("select", "extend-select", "ignore", "exclude")}
_CLI_OPTIONS |= {"extend": "--preset", "targets": "--target"}
#: keys whose command-line values add to the configured ones (the others replace them)
_ADDED = frozenset({"extend-select", "ignore", "exclude"})


def may_hold_tools(text: str, path: str) -> bool:
    """A cheap textual check that lets a pre-commit run skip files that cannot define tools."""
    if source_format(path) == "python":
        from schemalint.loaders.python import might_contain_tools

        return might_contain_tools(text)
    return any(marker in text for marker in TOOL_MARKERS) or PurePath(path).name == CATALOG_FILE_NAME


def load_source(path: str, raw: bytes | str, config: Config, explicit: bool, skip_non_tool_files: bool) -> SourceResult:
    """Decode, parse and detect; every failure becomes an SL002/SL003 diagnostic, never an exception."""
    from schemalint.loaders.jsonyaml import decode_source

    result = SourceResult(path, config, None)
    try:
        text = raw if isinstance(raw, str) else decode_source(raw, path)
        if (skip_non_tool_files or not explicit) and not may_hold_tools(text, path):
            return result
        result.document = parse_document(text, path)
        _detect(result, result.document)
    except LoadError as error:
        if explicit or not skip_non_tool_files:
            span = Span(error.line, error.column, error.line, error.column + 1)
            result.diagnostics.append(_engine_diagnostic("SL002", error.message, path, span))
        return result
    except RecursionError:
        result.diagnostics.append(_engine_diagnostic("SL002", "structure nested too deeply to read", path, _START))
        return result
    if not result.tools and result.fixture is None and explicit and not skip_non_tool_files:
        message = f"no tool definitions found; schemalint reads {ACCEPTED_SHAPES}"
        result.diagnostics.append(_engine_diagnostic("SL003", message, path, _START))
    return result


def _detect(source: SourceResult, document: Document) -> SourceResult:
    """The document's tools, request bodies and eval fixture. Request bodies and fixtures are JSON or
    YAML documents: a Python module's data is what its extractor built."""
    source.tools = detect_tools(document)
    if document.format != "python" and source.tools:
        source.requests = detect_requests(document.data, document.path, source.tools)
    elif document.format != "python":
        source.fixture = detect_fixture(document.data, document.path)
    return source


def _engine_diagnostic(code: str, message: str, path: str, span: Span) -> Diagnostic:
    rule = rule_class(code)
    return Diagnostic(code, rule.slug, rule.severity, message, path, span, "")


def lint(paths: Sequence[str] = (".",), options: LintOptions | None = None) -> LintResult:
    """Lint files and folders; with `options.jobs > 1`, tool sets are linted in parallel processes."""
    options = options or LintOptions()
    files = discover_files(paths, ConfigResolver(options))
    # an unused per-file-ignore is only a verdict when the run covered whole folders
    report_unused = any(Path(p).is_dir() for p in paths) and not options.skip_non_tool_files
    if options.jobs > 1 and len(files) >= PARALLEL_MIN_FILES:
        return _lint_parallel(files, options, report_unused)
    with paused_gc():
        loaded = _load_files(files, options)
        return run_rules(loaded, report_unused_ignores=report_unused)


def discover_files(paths: Sequence[str], resolver: ConfigResolver) -> list[tuple[SourceFile, Config]]:
    """The files to lint, each with its configuration (whose `exclude` may drop a file found in a folder)."""
    cwd_config = resolver.for_path(Path.cwd() / "_")
    files = []
    # the eval fixtures config links to tool files are walked whatever their extension (JSON Lines)
    include = cwd_config.include + tuple(cwd_config.fixtures)
    for source in discover(paths, include, cwd_config.exclude, cwd_config.root):
        config = resolver.for_path(source.path)
        if source.explicit or not matches_any(source.path, config.exclude, config.root):
            files.append((source, config))
    return files


#: below this many files, starting worker processes costs more than it saves
PARALLEL_MIN_FILES = 64


def default_jobs() -> int:
    """`--jobs` when none is given: the CPUs this process may use, less those other work keeps busy
    right now (Linux: the runnable tasks in /proc/loadavg), and at least 1.

    A busy machine is shared between sessions or containers (autogroups, cgroups), not between
    processes, so workers on a loaded machine buy no CPU, only their own overhead.
    """
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    try:
        with open("/proc/loadavg", encoding="ascii") as handle:
            return idle_cpus(cpus, handle.read())
    except OSError:
        return cpus


def idle_cpus(cpus: int, loadavg: str) -> int:
    """Of `cpus`, those not taken by the other runnable tasks that `loadavg` (the text of
    /proc/loadavg, whose 4th field is `runnable/total` and counts the reader) reports; at least 1."""
    try:
        runnable = int(loadavg.split()[3].partition("/")[0])
    except (IndexError, ValueError):
        return cpus
    return max(1, min(cpus, cpus - (runnable - 1)))


def _load_files(files: Iterable[tuple[SourceFile, Config]], options: LintOptions) -> list[SourceResult]:
    """Read and load each file; a baseline file a folder walk found is left out: it records
    findings, it defines no tools."""
    loaded = []
    for source, config in files:
        shown = display_path(source.path)
        try:
            raw = read_source(source.path)
        except LoadError as error:
            failed = _engine_diagnostic("SL002", error.message, shown, _START)
            loaded.append(SourceResult(shown, config, None, [], [failed]))
            continue
        if not source.explicit:
            from schemalint.baseline import is_baseline  # only a folder walk meets baseline files

            if is_baseline(raw):
                continue
        loaded.append(load_source(shown, raw, config, source.explicit, options.skip_non_tool_files))
    return loaded


def _lint_parallel(files: list[tuple[SourceFile, Config]], options: LintOptions, report_unused: bool) -> LintResult:
    """Split the files into units that never separate a tool set and check each unit in a worker; link
    eval fixtures (to tool sets anywhere in the run) and filter here."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    units: dict[str, list[tuple[SourceFile, Config]]] = {}
    for source, config in files:
        units.setdefault(toolset_key(display_path(source.path), config), []).append((source, config))
    batches: list[list[tuple[SourceFile, Config]]] = [[] for _ in range(options.jobs * 4)]
    for index, unit in enumerate(units.values()):
        batches[index % len(batches)].extend(unit)
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with ProcessPoolExecutor(options.jobs, mp_context=context) as pool:
        checked = [s for part in pool.map(_check_batch, [(batch, options) for batch in batches if batch]) for s in part]
    order = {display_path(source.path): index for index, (source, _) in enumerate(files)}
    checked.sort(key=lambda s: order[s.path])
    _check_fixtures(checked)
    return filter_findings(checked, report_unused)


def _check_batch(job: tuple[list[tuple[SourceFile, Config]], LintOptions]) -> list[SourceResult]:
    sources = _load_files(*job)
    for toolset, members in group_toolsets(sources):
        check_toolset(toolset, members)
    return sources


def lint_source(
    text: str, filename: str, options: LintOptions | None = None, cache: FindingCache | None = None
) -> LintResult:
    """Lint one buffer as if it were the file `filename` (stdin, editors; an editor passes a cache)."""
    options = options or LintOptions()
    path = Path(filename)
    config = ConfigResolver(options).for_path(resolve_path(path))
    with paused_gc():
        source = load_source(display_path(path), text, config, True, options.skip_non_tool_files)
        return run_rules([source], cache=cache)


def lint_documents(documents: Iterable[Document], config: Config) -> LintResult:
    """Lint documents that were not read from files (a live MCP server, a git revision)."""
    with paused_gc():
        return run_rules([_detect(SourceResult(d.path, config, d), d) for d in documents])


def toolset_key(path: str, config: Config) -> str:
    """The file itself, or `root::name` of the first config `toolsets` entry whose globs match it."""
    for name, globs in config.toolsets.items():
        if matches_any(Path(path), globs, config.root):
            return f"{config.root}::{name}"
    return path


def group_toolsets(sources: Sequence[SourceResult]) -> list[tuple[ToolSet, list[SourceResult]]]:
    """One set per file, unless config `toolsets` groups files by glob."""
    groups: dict[str, tuple[ToolSet, list[SourceResult]]] = {}
    for source in sources:
        if not source.tools:
            continue
        key = toolset_key(source.path, source.config)
        toolset, members = groups.setdefault(key, (ToolSet(key.rpartition("::")[2]), []))
        toolset.tools.extend(source.tools)
        members.append(source)
    return list(groups.values())


class FindingCache:
    """Tool- and node-rule findings by tool content, for callers that lint the same buffer again and
    again (the language server): rules are pure, so a tool that did not change, under the same
    configuration and targets, yields the same findings. Tool-set rules always run."""

    def __init__(self, max_tools: int = 4096) -> None:
        self.max_tools = max_tools
        self._entries: dict[tuple[str, frozenset[str], str], list[tuple[Rule, Finding]]] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def findings(self, tool: Tool, rules: RuleSet, context: LintContext) -> list[tuple[Rule, Finding]]:
        key = (repr(tool), context.targets(tool), rules.fingerprint)
        found = self._entries.get(key)
        if found is None:
            found = _tool_findings(tool, rules, context)
            if len(self._entries) >= self.max_tools:
                del self._entries[next(iter(self._entries))]  # the oldest
            self._entries[key] = found
        return found


def _tool_findings(tool: Tool, rules: RuleSet, context: LintContext) -> list[tuple[Rule, Finding]]:
    found: list[tuple[Rule, Finding]] = [(r, f) for r in rules.tool_rules for f in r.check(tool, context)]
    if rules.node_rules.rules:
        targets = context.targets(tool)
        for node in tool.schema_nodes():
            for node_rule in rules.node_rules.rules_for(node, targets):
                for finding in node_rule.check(node, context):
                    found.append((node_rule, finding))
    return found


def run_rules(
    sources: Sequence[SourceResult], report_unused_ignores: bool = False, cache: FindingCache | None = None
) -> LintResult:
    """Check, place and filter: the rules over every tool set and eval fixture of `sources`, their
    findings placed in the files, then suppressions; `report_unused_ignores` when the run covered whole
    folders, so an unused per-file-ignore is not an artefact of linting a few files."""
    for toolset, members in group_toolsets(sources):
        check_toolset(toolset, members, cache)
    _check_fixtures(sources)
    return filter_findings(sources, report_unused_ignores)


def check_toolset(toolset: ToolSet, members: list[SourceResult], cache: FindingCache | None = None) -> None:
    """Run the tool, node, tool-set and request rules on one set and place their findings (and the
    loaders' notes) in the members' files."""
    by_path = {s.path: s for s in members}
    targets = {id(t): resolve_targets(t, by_path[t.path].config.provider_targets) for t in toolset.tools}
    context = LintContext(targets, by_path[toolset.tools[0].path].config.settings)
    for tool in toolset.tools:
        source = by_path[tool.path]
        rules = source.config.rule_set
        found = cache.findings(tool, rules, context) if cache is not None else _tool_findings(tool, rules, context)
        for rule, finding in found:
            _place(rule, finding, source, rules, tool)
    lead = members[0].config.rule_set
    # a tool-set finding lies in the tool its pointer names; `data["path"]` picks the file when a set spans files
    by_file: dict[str | None, dict[str, Tool]] = {}
    for tool in toolset.tools:
        by_file.setdefault(tool.path, {}).setdefault(tool.pointer, tool)
        by_file.setdefault(None, {}).setdefault(tool.pointer, tool)
    for set_rule in lead.toolset_rules:
        for finding in set_rule.check(toolset, context):
            in_file = by_file.get(finding.data.get("path"), {})
            owner = pointer_owner(finding.pointer, in_file) or next(iter(in_file.values()), toolset.tools[0])
            _place(set_rule, finding, by_path[owner.path], lead, owner)
    for source in members:
        _place_request_findings(source, source.config.rule_set)
        if source.document is not None:
            for code, finding in source.document.notes:
                _place(rule_class(code), finding, source, source.config.rule_set, None)


def filter_findings(sources: Sequence[SourceResult], report_unused_ignores: bool) -> LintResult:
    """Drop the findings of rules not enabled and those suppressions silence; add the unused silencers."""
    diagnostics: list[Diagnostic] = []
    suppressions = Suppressions(report_unused_ignores)
    for source in sources:
        enabled = frozenset(source.config.enabled_rules)  # without instantiating the rules
        kept = [d for d in source.diagnostics if d.code in enabled]
        diagnostics.extend(suppressions.filter(kept, source.document, source.config, source.path, enabled))
    diagnostics.extend(suppressions.unused_ignores())
    diagnostics.sort(key=Diagnostic.sort_key)
    return LintResult(diagnostics, list(sources))


def _place_request_findings(source: SourceResult, rules: RuleSet) -> None:
    """Run the request rules on the file's request bodies; a finding inside a tool names that tool."""
    if not source.requests or not rules.request_rules:
        return
    context = LintContext(settings=source.config.settings)
    for request in source.requests:
        owners = {tool.pointer: tool for tool in request.tools}
        for rule in rules.request_rules:
            for finding in rule.check(request, context):
                _place(rule, finding, source, rules, pointer_owner(finding.pointer, owners))


def _check_fixtures(sources: Sequence[SourceResult]) -> None:
    """Link each eval fixture to its tool definitions among `sources` and run the fixture rules on it."""
    linker: _FixtureLinker | None = None
    for source in sources:
        fixture = source.fixture
        if fixture is None or not (rules := source.config.rule_set).fixture_rules:
            continue
        linker = linker or _FixtureLinker(sources)
        try:
            fixture.tools = linker.tools_for(source, fixture)
        except LoadError as error:
            source.diagnostics.append(_engine_diagnostic("SL002", error.message, source.path, _START))
            continue
        context = LintContext(settings=source.config.settings)
        for rule in rules.fixture_rules:
            for finding in rule.check(fixture, context):
                _place(rule, finding, source, rules, None)


class _FixtureLinker:
    """Finds the definitions an eval fixture is checked against: the tool files config `fixtures` names
    for it, else the tool set of the run that holds the most of its tools (its `tools` list, or the
    tools its cases expect)."""

    def __init__(self, candidates: Sequence[SourceResult]) -> None:
        self.by_path = {resolve_path(Path(s.path)): s for s in candidates}
        self._outside: dict[Path, SourceResult] = {}
        self.sets: dict[str, list[Tool]] = {}
        for source in candidates:
            if source.tools:
                self.sets.setdefault(toolset_key(source.path, source.config), []).extend(source.tools)

    def tools_for(self, source: SourceResult, fixture: EvalFixture) -> list[Tool] | None:
        config = source.config
        for pattern, targets in config.fixtures.items():
            if matches_any(Path(source.path), (pattern,), config.root):
                return [tool for target in targets for tool in self._linked_file(config, target)]
        if fixture.listed is not None:
            names = {name for name, _ in fixture.listed}
        else:
            names = {case.tool for case in fixture.cases if case.tool is not None}
        # the most of its names; then the set nearest the fixture, then by name: not the order files were named in
        ranked = (
            (-len(names.intersection(t.name for t in tools)), -_shared_folders(source.path, key), key)
            for key, tools in self.sets.items()
        )
        most, _, best = min(ranked, default=(0, 0, ""))
        return self.sets[best] if most < 0 else None

    def _linked_file(self, config: Config, target: str) -> list[Tool]:
        path = resolve_path(config.root / target)
        known = self.by_path.get(path)
        if known is not None:
            return known.tools
        if path not in self._outside:  # a file outside the run, read once however many fixtures name it
            self._outside[path] = _load_files([(SourceFile(path, explicit=True), config)], LintOptions())[0]
        loaded = self._outside[path]
        if loaded.document is None:
            reason = loaded.diagnostics[0].message if loaded.diagnostics else "cannot read"
            raise LoadError(f"the tool file `fixtures` links to this fixture, {target}: {reason}")
        return loaded.tools


def _shared_folders(path: str, key: str) -> int:
    """How many leading folders a fixture's path shares with a tool set's file (or `root::name` key)."""
    pairs = zip(Path(path).parent.parts, Path(key.rpartition("::")[2]).parent.parts, strict=False)
    return sum(1 for _ in takewhile(lambda pair: pair[0] == pair[1], pairs))


def _place(rule: Rule | type[Rule], finding: Finding, source: SourceResult, rules: RuleSet, tool: Tool | None) -> None:
    rule_class = rule if isinstance(rule, type) else type(rule)
    if rule_class.code in rules.enabled:
        source.diagnostics.append(
            Diagnostic(
                rule_class.code,
                rule_class.slug,
                rules.severity(rule_class, finding),
                finding.message,
                source.path,
                locate(source.document, finding.pointer, finding.key),
                finding.pointer,
                tool.name if tool is not None else None,
                finding.data,
                finding.fix,
            )
        )


def locate(document: Document | None, pointer: str, key: bool = False) -> Span:
    """The span of `pointer`, falling back to the nearest ancestor that exists in the source."""
    if document is None:
        return _START
    span = document.positions.locate(pointer, key)
    while span is None and pointer:
        pointer = parent_pointer(pointer)
        span = document.positions.locate(pointer)
    return span or _START
