"""`schemalint init`: look at a repository's tools, choose a preset, write the configuration, optionally
record today's findings as a baseline, and give the pre-commit and CI snippets for it.

Nothing here prints: the command line reports what `survey` found and `write_config` did.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schemalint import UserError, __version__
from schemalint.engine import LintOptions, LintResult, lint
from schemalint.model import Dialect, Tool
from schemalint.presets import PRESETS
from schemalint.targets import sent_strict

BASELINE_FILE = ".schemalint-baseline.json"
#: what a tool's dialect or framework says about the provider it is written for (None: any provider)
_PROVIDER_BY_DIALECT = {
    Dialect.OPENAI_CHAT: "openai",
    Dialect.OPENAI_FUNCTIONS: "openai",
    Dialect.OPENAI_RESPONSES: "openai",
    Dialect.GENERIC: "openai",
    Dialect.ANTHROPIC: "anthropic",
    Dialect.GEMINI: "gemini",
    Dialect.MCP: "mcp",
    Dialect.DOCKER_CATALOG: "mcp",
}
_PROVIDER_BY_FRAMEWORK = {"fastmcp": "mcp", "mcp": "mcp", "openai-agents": "openai", "agents": "openai"}
#: more top-level folders and files with tools than this: CI lints the whole repository
_MAX_CI_PATHS = 5


class InitError(UserError):
    """`init` cannot go on (a configuration exists, a file cannot be written); the message says why."""


@dataclass
class Survey:
    """What `init` found: the tools, where they are, how they are written, and the preset that fits."""

    root: Path
    is_git: bool
    #: the configuration file at `root` that already configures schemalint, if any
    config: Path | None = None
    tools: list[Tool] = field(default_factory=list)
    #: files holding tools, relative to `root`, `/`-separated
    files: list[str] = field(default_factory=list)
    #: files holding eval fixtures, relative to `root`, each with the tool files it is checked against
    #: (none when no tool file holds its tools)
    fixtures: dict[str, list[str]] = field(default_factory=dict)
    unreadable: list[str] = field(default_factory=list)
    preset: str = "recommended"
    targets: tuple[str, ...] = ()
    reason: str = ""

    @property
    def dialects(self) -> Counter[str]:
        return Counter(tool.dialect.value for tool in self.tools)

    @property
    def frameworks(self) -> Counter[str]:
        return Counter(tool.framework for tool in self.tools if tool.framework)

    @property
    def strict(self) -> int:
        return sum(1 for tool in self.tools if sent_strict(tool))


def survey(directory: Path, preset: str | None = None, force: bool = False) -> Survey:
    """Find the tools below the repository holding `directory` and choose a preset (or take `preset`).
    A repository that schemalint already configures is an InitError, unless `force`."""
    from schemalint.config import find_config_file
    from schemalint.diff.sources import SourceError, repository_root

    try:
        root, is_git = repository_root(directory).resolve(), True
    except SourceError:  # not in a git work tree, or no git on this machine
        root, is_git = directory.resolve(), False
    config = find_config_file(root)
    found = Survey(root, is_git, config if config is not None and config.parent == root else None)
    if found.config is not None and not force:
        raise InitError(f"{found.config} already configures schemalint; `schemalint init --force` replaces it")
    # only detection and fixture linking (SL811 runs the linker) happen here: the findings come later,
    # under the configuration that is written
    result = lint([str(root)], LintOptions(no_config=True, select=("SL002", "SL811")))
    for source in result.files:
        if source.tools:
            found.tools.extend(source.tools)
            found.files.append(_relative(source.path, root))
        elif source.fixture is not None:
            linked = {_relative(tool.path, root) for tool in source.fixture.tools or ()}
            found.fixtures[_relative(source.path, root)] = sorted(linked)
    found.unreadable = sorted({_relative(d.path, root) for d in result.diagnostics if d.code == "SL002"})
    found.preset, found.targets, found.reason = choose_preset(found.tools)
    if preset is not None:
        found.preset, found.targets, found.reason = preset, (), "chosen with --preset"
    return found


def _relative(path: str, root: Path) -> str:
    try:
        return Path(path).resolve().relative_to(root).as_posix()
    except ValueError:
        return Path(path).as_posix()


def _provider(tool: Tool) -> str | None:
    if tool.dialect is Dialect.PYTHON:
        return _PROVIDER_BY_FRAMEWORK.get((tool.framework or "").lower())
    return _PROVIDER_BY_DIALECT.get(tool.dialect)


def choose_preset(tools: Sequence[Tool]) -> tuple[str, tuple[str, ...], str]:
    """(preset, targets to write, why) for a repository's tools: a provider's preset when every tool is
    written for that provider, else `recommended`, where each tool's dialect decides its targets."""
    providers = {_provider(tool) for tool in tools}
    if not tools:
        return "recommended", (), "no tools found yet"
    if len(providers) != 1 or None in providers:
        return "recommended", (), "tools for several providers: each tool's dialect decides its targets"
    (provider,) = providers
    if provider == "openai":
        if all(sent_strict(tool) for tool in tools):
            return "openai-strict", ("openai-strict",), "every tool is OpenAI's and sent strict"
        strict = "; the tools sent strict are checked as strict" if any(sent_strict(t) for t in tools) else ""
        return "recommended", ("openai",), f"every tool is OpenAI's{strict}"
    if provider == "mcp":
        return "mcp", (), "every tool is an MCP server's (checked against every provider that may get it)"
    assert provider is not None
    return provider, (provider,), f"every tool is {provider.capitalize()}'s"


def write_config(found: Survey) -> Path:
    """Write `[tool.schemalint]` into the root's pyproject.toml (the rest of the file, comments and
    formatting included, as it was), or `.schemalint.toml` when there is no pyproject.toml. An existing
    configuration (`survey` with `force`) is replaced, and then only its schemalint table."""
    import tomlkit

    pyproject = found.root / "pyproject.toml"
    target = found.config or (pyproject if pyproject.is_file() else found.root / ".schemalint.toml")
    try:
        if target.name == "pyproject.toml":  # replaced where it is, or added after the rest
            document = tomlkit.parse(target.read_text(encoding="utf-8"))
            table = tomlkit.table()
            _add_settings(table, found)
            tool = document.get("tool")
            if tool is None:
                document.add(tomlkit.nl())
                tool = tomlkit.table(is_super_table=True)
                document.add("tool", tool)
            if "schemalint" in tool:
                tool["schemalint"] = table
            else:
                tool.append("schemalint", table)
        else:  # the keys at the top level; an old .schemalint.toml (with --force) is replaced
            document = tomlkit.document()
            _add_settings(document, found)
        target.write_text(tomlkit.dumps(document), encoding="utf-8")
    except (OSError, UnicodeDecodeError, tomlkit.exceptions.TOMLKitError) as error:
        raise InitError(f"cannot write {target}: {getattr(error, 'strerror', None) or error}") from None
    return target


def _add_settings(container: Any, found: Survey) -> None:
    import tomlkit

    counts = ", ".join(f"{name} {count}" for name, count in found.dialects.most_common())
    tools = f"{len(found.tools)} tool(s) in {len(found.files)} file(s)" + (f" ({counts})" if counts else "")
    for line in (
        f"Written by `schemalint init` (schemalint {__version__}): {tools}.",
        f"Presets: {', '.join(PRESETS)}.",
        "`schemalint rule` lists the rules and the presets that run them.",
        "`select`, `ignore`, `targets` and `[rules.*]` go on top of the preset;",
        "`schemalint check --show-settings FILE` shows what applies to a file.",
    ):
        container.add(tomlkit.comment(line))
    container.add("extend", found.preset)
    if found.targets:
        container.add("targets", list(found.targets))
    # editors and pre-commit lint a fixture alone: the link gives them the tools a whole run would
    links = {fixture: files for fixture, files in found.fixtures.items() if files}
    if links:
        table = tomlkit.table()
        for fixture, files in links.items():
            table.add(fixture, files[0] if len(files) == 1 else files)
        container.add("fixtures", table)


def write_baseline_file(found: Survey, result: LintResult, force: bool) -> tuple[Path, int]:
    """Record the findings of `result` in the root's baseline file; an existing one only with `force`."""
    from schemalint.baseline import write_baseline

    path = found.root / BASELINE_FILE
    if path.exists() and not force:
        raise InitError(f"{path} exists; `schemalint init --baseline --force` rewrites it")
    return path, write_baseline(path, result.diagnostics, result.documents())


def ci_paths(found: Survey) -> list[str]:
    """The top-level folders and files that hold tools or eval fixtures, or `.` when there are many (or none)."""
    tops = sorted({file.split("/")[0] + ("/" if "/" in file else "") for file in [*found.files, *found.fixtures]})
    return tops if 0 < len(tops) <= _MAX_CI_PATHS else ["."]


def precommit_snippet(baseline: bool, is_git: bool) -> str:
    """The hooks to add; `schemalint-breaking` compares with git's HEAD, so only in a git repository."""
    args = f"\n        args: [--baseline, {BASELINE_FILE}]" if baseline else ""
    breaking = (
        "      - id: schemalint-breaking\n"
        if is_git
        else "      # no schemalint-breaking: it compares with git's HEAD, and this folder is not a git repository\n"
    )
    return (
        "repos:\n"
        "  - repo: https://github.com/schemalint/schemalint\n"
        f"    rev: v{__version__}\n"
        "    hooks:\n"
        f"      - id: schemalint{args}\n"
        f"{breaking}"
    )


def github_snippet(found: Survey, baseline: bool) -> str:
    """A workflow that runs this repository's action (action.yml) on the folders that hold tools."""
    args = f"\n          args: --baseline {BASELINE_FILE}" if baseline else ""
    return (
        "name: schemalint\n"
        "on: [push, pull_request]\n"
        "permissions: {contents: read, security-events: write}\n"
        "jobs:\n"
        "  schemalint:\n"
        "    runs-on: ubuntu-latest\n"
        "    steps:\n"
        "      - uses: actions/checkout@v4\n"
        "        with: {fetch-depth: 0}\n"
        "      - uses: actions/setup-python@v5\n"
        '        with: {python-version: "3.12"}\n'
        f"      - uses: schemalint/schemalint@v{__version__}\n"
        "        with:\n"
        f"          paths: {' '.join(ci_paths(found))}{args}\n"
        "          sarif: true\n"
        "          against: ${{ github.event_name == 'pull_request' && format('origin/{0}', github.base_ref) || '' }}\n"
    )
