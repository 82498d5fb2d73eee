"""The command line. The only module that touches the terminal."""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import functools
import gc
import json
import os
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

import click

from schemalint import UserError, __version__, progress
from schemalint.config import ConfigError, check_presets, check_selector, check_targets, parse_fail_on
from schemalint.model import Severity
from schemalint.reporters import FORMATS, parse_output_targets, write_reports
from schemalint.reporters.terminal import printable

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

# A command ends once its report is written. The collection the interpreter runs at exit would walk every
# object still alive only to free memory the operating system takes back anyway.
atexit.register(gc.freeze)


def _fail(message: str) -> NoReturn:
    click.echo(f"schemalint: error: {printable(message)}", err=True)
    sys.exit(EXIT_ERROR)


def _split(values: Sequence[str]) -> tuple[str, ...]:
    """`--select SL1,SL2 --select SL3` -> (SL1, SL2, SL3)."""
    return tuple(part.strip() for value in values for part in value.split(",") if part.strip())


class _Group(click.Group):
    """Turns configuration errors and unexpected exceptions into one line and exit code 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            try:
                return super().invoke(ctx)
            finally:
                if not sys.stdout.closed:  # the language server closes it when the client says exit
                    sys.stdout.flush()  # a closed pipe shows here, not as a warning at interpreter exit
        except BrokenPipeError:  # the reader went away (`schemalint rule | head`): stop quietly, as `cat` does
            with contextlib.suppress(OSError, ValueError):  # stdout may not be a real file (tests)
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(128 + 13)  # the status of a process killed by SIGPIPE, as `cat` or `git log` give
        except (ConfigError, UserError) as error:  # a user's mistake: its message, no traceback
            _fail(str(error))
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException, SystemExit):
            raise
        except KeyboardInterrupt:
            _fail("interrupted")
        except Exception as error:  # a bug in schemalint: one line, never a traceback for users
            if os.environ.get("SCHEMALINT_DEBUG"):
                raise
            _fail(f"internal error: {type(error).__name__}: {error} (set SCHEMALINT_DEBUG=1 for the traceback)")


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="schemalint")
def main() -> None:
    """Lint the tool definitions you give to LLMs (OpenAI, Anthropic, Gemini, MCP, Python)."""
    # A lone surrogate (the JSON text `"\ud800"`) decodes to a string no UTF-8 writes: print it as the
    # escape `\ud800`, which is also what JSON and SARIF reports need, instead of ending the run.
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError):  # not a TextIOWrapper (tests), or closed
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    if sys.stderr.isatty():  # a long step's progress on one line, rewritten in place and ended with the step
        progress.report = lambda what, done, total: click.echo(
            f"\rschemalint: {what} {done}/{total}", err=True, nl=done == total
        )


def lint_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """Options shared by commands that lint (check, diff, mcp), handed to the command as one `LintArgs`."""

    @functools.wraps(function)
    def command(**given: Any) -> Any:
        return function(args=LintArgs(**{f.name: given.pop(f.name) for f in dataclasses.fields(LintArgs)}), **given)

    options = [
        click.option(
            "--preset",
            "presets",
            multiple=True,
            help="Start from these presets instead of the configured `extend` (recommended, strict, openai-strict, "
            "anthropic, gemini, mcp).",
        ),
        click.option("--select", multiple=True, help="Rules to enable (codes, slugs or prefixes such as SL3)."),
        click.option("--extend-select", multiple=True, help="Rules to enable on top of the configured ones."),
        click.option("--ignore", multiple=True, help="Rules to disable."),
        click.option(
            "--fail-on",
            type=click.Choice(["error", "warning", "info", "never"]),
            default=None,
            help="Lowest severity that makes the exit code 1 (default: error).",
        ),
        click.option("--target", "targets", multiple=True, help="Provider target(s) to check against (repeatable)."),
        click.option("--config", "config_file", type=click.Path(dir_okay=False, path_type=Path), help="Config file."),
        click.option("--no-config", is_flag=True, help="Ignore configuration files."),
        click.option(
            "--output-format",
            "output_formats",
            multiple=True,
            metavar="FORMAT[:FILE]",
            help=f"{', '.join(FORMATS[:-1])} or {FORMATS[-1]} (default: text); repeatable; `FORMAT:FILE` writes "
            "that format to FILE (e.g. `--output-format text --output-format sarif:schemalint.sarif`).",
        ),
        click.option(
            "--output-file",
            metavar="FILE",
            help="Write the formats that name no file of their own here instead of standard output.",
        ),
        click.option("-q", "--quiet", is_flag=True, help="Print findings only, no summary."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


@dataclasses.dataclass(frozen=True)
class LintArgs:
    """The values of the `lint_options`, validated by `options()` and `outputs()` where the command asks."""

    presets: tuple[str, ...]
    select: tuple[str, ...]
    extend_select: tuple[str, ...]
    ignore: tuple[str, ...]
    fail_on: str | None
    targets: tuple[str, ...]
    config_file: Path | None
    no_config: bool
    output_formats: tuple[str, ...]
    output_file: str | None
    quiet: bool

    def options(self, exclude: Sequence[str] = (), skip_non_tool_files: bool = False) -> Any:
        from schemalint.engine import LintOptions

        for selector in _split(self.select) + _split(self.extend_select) + _split(self.ignore):
            check_selector(selector, "command line")
        check_targets(_split(self.targets), "--target")
        check_presets(_split(self.presets), "--preset")
        if self.config_file is not None and not self.config_file.is_file():
            raise ConfigError(f"--config: no such file: {self.config_file}")
        return LintOptions(
            config_file=self.config_file,
            no_config=self.no_config,
            presets=_split(self.presets),
            select=_split(self.select) or None,
            extend_select=_split(self.extend_select),
            ignore=_split(self.ignore),
            targets=_split(self.targets),
            exclude=_split(exclude),
            skip_non_tool_files=skip_non_tool_files,
        )

    def outputs(self) -> list[Any]:
        """The --output-format / --output-file options as reporter targets (OutputError when they clash)."""
        return parse_output_targets(self.output_formats, self.output_file)


fail_under_option = click.option(
    "--fail-under",
    type=click.IntRange(0, 100),
    metavar="SCORE",
    help="Exit 1 when the score (0-100, docs/score.md) is below SCORE, whatever the findings' severities.",
)


@main.command()
@click.argument("paths", nargs=-1)
@lint_options
@click.option("--exclude", multiple=True, help="Globs of files or folders to skip.")
@click.option("--stdin-filename", help="With `-`: the file name the buffer on stdin stands for.")
@click.option("--statistics", is_flag=True, help="Print the number of findings per rule instead of the findings.")
@click.option(
    "--skip-non-tool-files",
    is_flag=True,
    help="Pass silently over named files that hold no tools (the pre-commit hook uses this).",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes for many files or a large tool set (default: the CPUs that other work leaves idle; "
    "output is identical).",
)
@click.option(
    "--baseline",
    "baseline_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Report only findings this baseline file does not record.",
)
@click.option(
    "--write-baseline",
    "write_baseline_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Record every current finding in this baseline file and exit 0.",
)
@click.option(
    "--against",
    metavar="REF",
    help="Lint only the tool files changed since the git revision REF and add their breaking changes (SL9xx).",
)
@click.option(
    "--staged", is_flag=True, help="With --against: compare the staged versions (the index), not the work tree."
)
@click.option("--fix", is_flag=True, help="Apply safe fixes to JSON and YAML files (Python is never modified).")
@click.option("--unsafe-fixes", is_flag=True, help="With --fix or --diff: apply unsafe fixes too.")
@click.option("--diff", "show_diff", is_flag=True, help="Print the fixes as a unified diff; write nothing.")
@fail_under_option
@click.option(
    "--watch",
    is_flag=True,
    help="Lint again whenever a tool or config file under PATHS changes (Ctrl-C stops).",
)
@click.option(
    "--show-fixes",
    is_flag=True,
    help="List per rule what --fix would fix (with --fix: what it fixed), safe and unsafe apart.",
)
@click.option(
    "--show-settings",
    "settings_for",
    metavar="FILE",
    help="Print the configuration that applies to FILE, with where each value came from, and exit.",
)
def check(
    paths: tuple[str, ...],
    args: LintArgs,
    exclude: tuple[str, ...],
    stdin_filename: str | None,
    statistics: bool,
    skip_non_tool_files: bool,
    jobs: int | None,
    baseline_file: Path | None,
    write_baseline_file: Path | None,
    against: str | None,
    staged: bool,
    fix: bool,
    unsafe_fixes: bool,
    show_diff: bool,
    fail_under: int | None,
    watch: bool,
    show_fixes: bool,
    settings_for: str | None,
) -> None:
    """Lint tool definitions in PATHS (files or folders; default: the current folder; `-` reads stdin)."""
    from schemalint.engine import default_jobs, lint, lint_source

    options = args.options(exclude, skip_non_tool_files)
    walked = dataclasses.replace(options, jobs=jobs or default_jobs())  # for the paths given, not stdin or git
    if settings_for is not None:
        _show_settings(settings_for, options, args.fail_on, "json" in args.output_formats)
    outputs = args.outputs()
    if staged and against is None:
        _fail("--staged needs --against REF")
    if (fix or show_diff or show_fixes) and against is not None:
        _fail("--fix, --diff and --show-fixes work on the files as they are, not with --against")
    if watch:
        conflicts = {
            "`-` (stdin)": "-" in paths,
            "--against": against is not None,
            "--fix": fix,
            "--diff": show_diff,
            "--show-fixes": show_fixes,
            "--write-baseline": write_baseline_file is not None,
        }
        if any(conflicts.values()):
            named = ", ".join(name for name, given in conflicts.items() if given)
            _fail(f"--watch lints and reports again on every change; it does not combine with {named}")
        _watch(paths or (".",), walked, outputs, args.quiet, statistics)
    if against is not None:
        from schemalint.diff.against import lint_against

        if "-" in paths:
            _fail("--against cannot read stdin (`-`)")
        result = lint_against(against, paths, options, staged)
    elif paths == ("-",):
        text = sys.stdin.buffer.read()
        from schemalint.loaders import LoadError
        from schemalint.loaders.jsonyaml import decode_source

        # without --stdin-filename: JSON when the buffer starts as JSON does, else YAML
        name = stdin_filename or (
            "stdin.json" if text.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"[") else "stdin.yaml"
        )
        try:
            result = lint_source(decode_source(text, name), name, options)
        except LoadError as error:
            _fail(f"{name}:{error.line}:{error.column}: {error.message}")
    elif "-" in paths:
        _fail("`-` (stdin) cannot be combined with other paths")
    else:
        missing = [p for p in paths if not os.path.exists(p)]
        if missing:
            _fail(f"no such file or directory: {missing[0]}")
        result = lint(paths or (".",), walked)

    if show_diff:
        _show_fixes(result, options, unsafe_fixes)
    refused: set[str] = set()
    if fix:
        if paths == ("-",):
            _fail("--fix cannot write to standard input; use --diff")
        refused, applied = _apply_fixes(result, options, unsafe_fixes)
        result = lint(paths or (".",), walked)
        if show_fixes:
            _echo_fix_table("Fixed", applied)
    elif show_fixes:
        _list_fixes(result, options, unsafe_fixes)
    if write_baseline_file is not None:
        _write_baseline(write_baseline_file, result)
    scores = _scores(result)  # before the baseline: the findings it hides still count
    if baseline_file is not None:
        _apply_baseline(baseline_file, result, args.quiet)
    report_and_exit(result, args, outputs, statistics, refused, scores, fail_under)


def _watch(paths: Sequence[str], options: Any, outputs: Sequence[Any], quiet: bool, statistics: bool) -> NoReturn:
    """--watch: clear the screen, lint, report (summary line included), wait for a change; again until
    Ctrl-C, which exits 0. A configuration error is shown and waited out, not fatal."""
    from schemalint.engine import lint
    from schemalint.watch import changes

    batches = changes(paths)
    try:
        while True:
            click.clear()
            try:
                result = lint(paths, options)
            except ConfigError as error:
                click.echo(f"schemalint: error: {printable(str(error))}", err=True)
            else:
                reporter_output(result, outputs, quiet, statistics, _fixable(result), _scores(result))
            click.echo("Watching for changes (Ctrl-C to stop)...", err=True)
            next(batches)
    except KeyboardInterrupt:
        sys.exit(EXIT_CLEAN)


def _show_settings(file: str, options: Any, fail_on: str | None, as_json: bool) -> NoReturn:
    """--show-settings: the resolved configuration for `file`, each value with its origin."""
    from schemalint.config import Setting, resolved_settings
    from schemalint.engine import ConfigResolver

    path = Path(file).absolute()
    settings = resolved_settings(ConfigResolver(options).for_path(path), path)
    if fail_on is not None:
        settings = [Setting(s.key, fail_on, "command line (--fail-on)") if s.key == "fail-on" else s for s in settings]
    if as_json:
        rows = [{"key": s.key, "value": s.value, "origin": s.origin} for s in settings]
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        sys.exit(EXIT_CLEAN)
    click.echo(printable(f"Settings for {file}:"))
    lines: dict[tuple[str, str], list[str]] = {}  # (text, origin) -> the rules that share one state and origin
    for setting in settings:
        if setting.key.startswith("rule."):
            lines.setdefault((f"rules {setting.value} = ", setting.origin), []).append(
                setting.key.removeprefix("rule.")
            )
        else:
            lines[f"{setting.key} = {json.dumps(setting.value, ensure_ascii=False)}", setting.origin] = []
    for (text, origin), codes in lines.items():
        click.echo(printable(f"  {text}{', '.join(codes)}  # {origin}"))
    sys.exit(EXIT_CLEAN)


def _fixable(result: Any, refused: frozenset[str] | set[str] = frozenset()) -> int:
    """The safe fixes `--fix` would write: none in Python sources, which it never modifies, nor in the
    `refused` files it has just declined to write."""
    python = {path for path, document in result.documents().items() if document.format == "python"}
    return sum(
        1
        for d in result.diagnostics
        if d.fix is not None and d.fix.safe and d.path not in refused and d.path not in python
    )


def _listed(files: Sequence[str], most: int = 5) -> str:
    """The first `most` files, then how many more."""
    return ", ".join(files[:most]) + (f" and {len(files) - most} more" if len(files) > most else "")


def report_and_exit(
    result: Any,
    args: LintArgs,
    outputs: Sequence[Any],
    statistics: bool,
    refused: frozenset[str] | set[str] = frozenset(),
    scores: Any = None,
    fail_under: int | None = None,
) -> NoReturn:
    """Write the reports (check, diff and mcp share this) and exit 1 when a finding is at or above --fail-on,
    or the score is below --fail-under. The summary offers only the fixes --fix writes (see `_fixable`)."""
    configs = [f.config for f in result.files]
    fail_level = configs[0].fail_on if configs else Severity.ERROR
    if args.fail_on is not None:
        fail_level = parse_fail_on(args.fail_on, "--fail-on")
    reporter_output(result, outputs, args.quiet, statistics, _fixable(result, refused), scores)
    _print_backend_notices(result)
    failing = fail_level is not None and any(d.severity >= fail_level for d in result.diagnostics)
    if fail_under is not None and scores is not None and scores.score < fail_under:
        click.echo(f"schemalint: the score {scores.score} is below --fail-under {fail_under}", err=True)
        failing = True
    sys.exit(EXIT_FINDINGS if failing else EXIT_CLEAN)


def _scores(result: Any) -> Any:
    from schemalint.score import score

    return score(result.files, result.diagnostics)


@main.command("diff")
@click.argument("old")
@click.argument("new")
@lint_options
@click.option("--statistics", is_flag=True, help="Print the number of findings per rule instead of the findings.")
def diff_command(
    old: str,
    new: str,
    args: LintArgs,
    statistics: bool,
) -> None:
    """Breaking changes from OLD to NEW (each a file, a folder, or REF:path read from git, e.g. main:tools/)."""
    from schemalint.diff import run_diff

    options = args.options()
    outputs = args.outputs()
    report_and_exit(run_diff(old, new, options), args, outputs, statistics)


def _fix_plans(result: Any, options: Any, unsafe: bool) -> list[Any]:
    """What --fix would do to each file, fixes applied pass by pass with a re-lint after each."""
    from schemalint.engine import lint_source
    from schemalint.fixes import plan_file

    def relint(text: str, path: str) -> tuple[Any, list[Any]]:
        relinted = lint_source(text, path, options)
        return relinted.files[0].document, [d for d in relinted.diagnostics if d.path == path]

    by_path: dict[str, list[Any]] = {}
    for diagnostic in result.diagnostics:
        by_path.setdefault(diagnostic.path, []).append(diagnostic)
    documents = result.documents()
    plans = []
    for path, found in by_path.items():
        document = documents.get(path)
        if document is None:
            continue
        plans.append(plan_file(document, found, unsafe, relint))
    return plans


def _show_fixes(result: Any, options: Any, unsafe: bool) -> NoReturn:
    """--diff: the unified diff of every fix; exit 1 when something would change (like ruff)."""
    plans = _fix_plans(result, options, unsafe)
    for plan in plans:
        if plan.skipped:
            click.echo(printable(f"{plan.path}: not fixed: {plan.skipped}"), err=True)
        elif plan.changed:
            click.echo(plan.diff(), nl=False)
    changed = [p for p in plans if p.changed]
    fixes = sum(p.fixed for p in changed)
    click.echo(f"Would fix {fixes} finding(s) in {len(changed)} file(s).", err=True)
    sys.exit(EXIT_FINDINGS if changed else EXIT_CLEAN)


def _list_fixes(result: Any, options: Any, unsafe: bool) -> None:
    """--show-fixes without --fix: what --fix would fix per rule, then what --unsafe-fixes would add."""
    safe = [fix for plan in _fix_plans(result, options, unsafe=False) if plan.changed for fix in plan.applied]
    _echo_fix_table("--fix would fix", safe)
    if unsafe:
        every = [fix for plan in _fix_plans(result, options, unsafe=True) if plan.changed for fix in plan.applied]
        _echo_fix_table("--fix --unsafe-fixes would fix", every)
    elif any(d.fix is not None and not d.fix.safe for d in result.diagnostics):
        click.echo("Unsafe fixes are available too: add --unsafe-fixes to list them.", err=True)


def _echo_fix_table(heading: str, applied: Sequence[tuple[str, str, Any]]) -> None:
    """How many fixes each rule made or would make, safe and unsafe apart (on stderr: stdout holds the report)."""
    counts = Counter((code, slug, fix.safe) for code, slug, fix in applied)
    click.echo(f"{heading} {len(applied)} finding(s){':' if counts else '.'}", err=True)
    for (code, slug, safe), count in sorted(counts.items()):
        click.echo(f"{count:>6}  {code}  {slug:<36} {'safe' if safe else 'unsafe'}", err=True)


def _apply_fixes(result: Any, options: Any, unsafe: bool) -> tuple[set[str], list[tuple[str, str, Any]]]:
    """--fix: write every file whose fixes apply, atomically, unless it changed since it was read.
    Returns the files whose fixes were declined and the fixes written (rule code, slug, fix)."""
    from schemalint.fixes import FixError, encode_like, write_atomically
    from schemalint.loaders import LoadError
    from schemalint.loaders.jsonyaml import decode_source

    fixed = files = 0
    refused: set[str] = set()
    applied: list[tuple[str, str, Any]] = []
    for plan in _fix_plans(result, options, unsafe):
        if plan.skipped:
            click.echo(printable(f"{plan.path}: not fixed: {plan.skipped}"), err=True)
            refused.add(plan.path)
            continue
        if not plan.changed:
            continue
        path = Path(plan.path)
        try:
            raw = path.read_bytes()
            if decode_source(raw, plan.path) != plan.document.text:
                raise FixError(f"{plan.path} changed on disk since it was linted; not written")
            write_atomically(path, raw, encode_like(plan.new_text, raw))
        except (FixError, LoadError, OSError) as error:
            click.echo(printable(f"{plan.path}: not fixed: {getattr(error, 'message', None) or error}"), err=True)
            refused.add(plan.path)
            continue
        fixed += plan.fixed
        files += 1
        applied += plan.applied
    if fixed:
        click.echo(f"Fixed {fixed} finding(s) in {files} file(s).", err=True)
    return refused, applied


def _write_baseline(path: Path, result: Any) -> NoReturn:
    from schemalint.baseline import write_baseline

    count = write_baseline(path, result.diagnostics, result.documents())
    click.echo(f"Wrote {count} finding(s) to the baseline {path}.", err=True)
    sys.exit(EXIT_CLEAN)


def _apply_baseline(path: Path, result: Any, quiet: bool) -> None:
    """Drop the findings the baseline records from `result`; say how many, and how many were fixed."""
    from schemalint.baseline import apply_baseline

    outcome = apply_baseline(path, result.diagnostics, result.documents())
    result.diagnostics = outcome.new
    if not quiet and (outcome.hidden or outcome.stale):
        note = f"{outcome.hidden} finding(s) hidden by the baseline {path}"
        if outcome.stale:
            entries = "1 baseline entry is" if outcome.stale == 1 else f"{outcome.stale} baseline entries are"
            note += f"; {entries} fixed: rerun --write-baseline"
        click.echo(note + ".", err=True)


def _echo_report(report: str | bytes) -> None:
    """A report on standard output: UTF-8 bytes go to its binary stream as they are, unless it has none."""
    if isinstance(report, bytes) and getattr(sys.stdout, "buffer", None) is None:  # (a StringIO)
        report = report.decode()
    click.echo(report, nl=False)


def _print_backend_notices(result: Any) -> None:
    """SL502 could not use the requested embedding backend: say so on stderr (each finding's data says it too)."""
    embed = sys.modules.get("schemalint.similarity.embed")  # not imported: no embedding ran, nothing to say
    notices = embed.take_notices() if embed is not None else []
    notices += [d.data["backend_notice"] for d in result.diagnostics if "backend_notice" in d.data]
    for notice in dict.fromkeys(notices):
        click.echo(f"schemalint: warning: {notice}", err=True)


def reporter_output(
    result: Any, outputs: Sequence[Any], quiet: bool, statistics: bool, fixable: int = 0, scores: Any = None
) -> None:
    """Every requested format; the text format on the terminal is followed by the summary, and with
    `statistics` it is the number of findings per rule instead of the findings (as `ruff --statistics`)."""
    configs = [f.config for f in result.files]
    docs_url = configs[0].settings.get("docs-url", "") if configs else ""
    color = sys.stdout.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"
    on_terminal = [t for t in outputs if t.format == "text" and t.path is None]
    reports = [t for t in outputs if t not in on_terminal] if statistics else outputs
    files = _checked_files(result)
    write_reports(result.diagnostics, result.documents(), reports, _echo_report, color, docs_url, scores, files)
    if not on_terminal:
        return
    if statistics:
        counts = Counter((d.code, d.slug) for d in result.diagnostics)
        for (code, slug), count in sorted(counts.items()):
            click.echo(f"{count:>6}  {code}  {slug}")
    if not quiet:
        from schemalint.reporters.text import summary

        click.echo(summary(result.diagnostics, files, fixable, scores))


def _checked_files(result: Any) -> int:
    """The files a run linted: those that hold tools or an eval fixture, and those with a finding (one that
    could not be read, one named that holds no tools). A file found in a folder that holds neither is not."""
    linted = {f.path for f in result.files if f.tools or f.fixture is not None}
    return len(linted | {d.path for d in result.diagnostics})


@main.command()
@click.argument("directory", default=".", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--preset", help="The preset to write (default: chosen from the tools found).")
@click.option("--baseline", is_flag=True, help="Record today's findings in .schemalint-baseline.json.")
@click.option("--force", is_flag=True, help="Replace an existing [tool.schemalint] / .schemalint.toml (and baseline).")
def init(directory: Path, preset: str | None, baseline: bool, force: bool) -> None:
    """Set schemalint up in the repository holding DIRECTORY: find its tools, choose a preset, write the
    configuration (pyproject.toml, else .schemalint.toml), and print the pre-commit and CI snippets."""
    from schemalint import init_project
    from schemalint.engine import LintOptions, lint
    from schemalint.reporters.text import summary

    if preset is not None:
        check_presets((preset,), "--preset")
    found = init_project.survey(directory, preset, force)
    kind = "git repository" if found.is_git else "folder (not a git repository)"
    click.echo(printable(f"Looked at {found.root} ({kind}):"))
    if found.tools:
        click.echo(printable(f"  {len(found.tools)} tool(s) in {len(found.files)} file(s): {_listed(found.files)}"))
        dialects = ", ".join(f"{name} {count}" for name, count in found.dialects.most_common())
        frameworks = ", ".join(f"{name} {count}" for name, count in found.frameworks.most_common()) or "none"
        click.echo(f"  dialects: {dialects}; Python frameworks: {frameworks}")
        click.echo(f"  sent strict: {found.strict} of {len(found.tools)} tool(s)")
    else:
        click.echo("  no tool definitions found yet (JSON, YAML or Python files below it)")
    if found.fixtures:
        click.echo(printable(f"  eval fixtures: {_listed(list(found.fixtures))}"))
    if found.unreadable:
        click.echo(printable(f"  could not read: {', '.join(found.unreadable)}"))
    targets = f", targets {', '.join(found.targets)}" if found.targets else ""
    click.echo(f"Preset: {found.preset}{targets} ({found.reason})")
    written = init_project.write_config(found)
    click.echo(printable(f"Wrote the configuration to {written}."))
    result = lint([str(found.root)], LintOptions())  # as `schemalint check` at the root, under the config written
    click.echo(
        f"With it, `schemalint check`: {summary(result.diagnostics, _checked_files(result), 0, _scores(result))}"
    )
    if baseline:
        path, count = init_project.write_baseline_file(found, result, force)
        click.echo(printable(f"Wrote {count} finding(s) to the baseline {path}: only new findings fail."))
    click.echo("\npre-commit: add to .pre-commit-config.yaml\n")
    click.echo(init_project.precommit_snippet(baseline, found.is_git))
    click.echo("GitHub Actions: .github/workflows/schemalint.yml (the action in this repository, action.yml)\n")
    click.echo(init_project.github_snippet(found, baseline))
    flag = f" --baseline {init_project.BASELINE_FILE}" if baseline else ""
    click.echo(f"Next: `schemalint check{flag}`; `schemalint rule` lists the rules and the presets that run them.")


@main.command()
@click.argument("name", required=False)
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rule(name: str | None, output_format: str) -> None:
    """Show a rule's documentation (by code or slug), or the table of all rules: severity, whether it is on
    by default, the presets that turn it on and the fixes it offers."""
    from schemalint.docs_site import rule_facts, rule_url
    from schemalint.rules import all_rules, find_rule

    if name is None:
        rows = [rule_facts(r) for r in all_rules()]
        if output_format == "json":
            click.echo(json.dumps(rows, indent=2))
            return
        click.echo(f"{'code':<6} {'slug':<36} {'severity':<8} {'default':<7} {'fix':<12} {'presets':<24} summary")
        for row in rows:
            presets = _preset_list(row["presets"])
            fix = ", ".join(row["fixable"]) or "-"
            default = "on" if row["default"] else "off"
            click.echo(
                f"{row['code']:<6} {row['slug']:<36} {row['severity']:<8} {default:<7} {fix:<12} {presets:<24} "
                f"{row['summary']}"
            )
        return
    found = find_rule(name)
    if found is None:
        _fail(f"unknown rule `{name}`; `schemalint rule` lists them all")
    from schemalint.config import config_for_directory

    # the rule's page: where the `docs-url` of the configuration that applies here points
    url = rule_url(found.code, found.slug, config_for_directory(Path.cwd()).settings.get("docs-url", ""))
    facts = rule_facts(found)
    if output_format == "json":
        click.echo(json.dumps({**facts, "docs": found.docs(), "url": url}, indent=2))
        return
    click.echo(f"{found.code} {found.slug} [{found.severity.label}, {found.scope.value}]")
    click.echo(
        f"default: {'on' if facts['default'] else 'off'}; presets: {_preset_list(facts['presets'])}; "
        f"fix: {', '.join(facts['fixable']) or 'none'}\n"
    )
    click.echo(found.docs())
    click.echo(f"\nDocs: {url}")


def _preset_list(names: Sequence[str]) -> str:
    from schemalint.presets import PRESETS

    return "all" if len(names) == len(PRESETS) else ", ".join(names) or "none"


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--to",
    "dialect",
    type=click.Choice(["canonical", "openai", "openai-responses", "anthropic", "gemini", "mcp"]),
    default="canonical",
    show_default=True,
    help="The dialect to write.",
)
def export(paths: tuple[str, ...], dialect: str) -> None:
    """Print the tools in PATHS as schemalint normalised them (canonical JSON or another dialect)."""
    from schemalint.dialects import dropped_fields, export_tools

    tools, unreadable = _read_tools(paths)
    for tool in tools:
        dropped = dropped_fields(tool, dialect)
        if dropped:
            where = printable(f"{tool.path}#{tool.pointer}: `{tool.display_name}`")
            click.echo(f"schemalint: {where}: {dialect} has no place for {', '.join(dropped)}; left out", err=True)
    click.echo(json.dumps(export_tools(tools, dialect), indent=2, ensure_ascii=False))
    sys.exit(EXIT_ERROR if unreadable else EXIT_CLEAN)


@main.command(name="hash")
@click.argument("paths", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print the hashes as JSON, for scripts.")
def hash_command(paths: tuple[str, ...], as_json: bool) -> None:
    """Print the sha256 of the tools in PATHS as the model is sent them (log it as `tools_hash`), and one per tool."""
    from schemalint.tools_hash import tool_hash, tools_hash

    tools, unreadable = _read_tools(paths)
    per_tool = [
        {"name": tool.name, "hash": tool_hash(tool), "path": tool.path, "pointer": tool.pointer} for tool in tools
    ]
    if as_json:
        click.echo(json.dumps({"tools_hash": tools_hash(tools), "tools": per_tool}, indent=2, ensure_ascii=False))
    else:
        click.echo(f"{tools_hash(tools)}  {len(tools)} tool{'' if len(tools) == 1 else 's'}")
        for entry in per_tool:
            click.echo(printable(f"{entry['hash']}  {entry['name']}  {entry['path']}#{entry['pointer']}"))
    sys.exit(EXIT_ERROR if unreadable else EXIT_CLEAN)


@main.command()
@click.argument("log", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--tools", "tool_paths", multiple=True, required=True, help="The tool definitions (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON, for scripts.")
def calls(log: str, tool_paths: tuple[str, ...], as_json: bool) -> None:
    """Check recorded tool calls (JSON Lines) against the tool definitions: unknown tools, invalid
    arguments, a changed tools_hash, truncated responses, stuck loops; a summary per tool."""
    from schemalint.calls import check_calls

    tools, unreadable = _read_tools(tool_paths)
    if unreadable:
        sys.exit(EXIT_ERROR)
    try:
        stream = click.open_file(log, encoding="utf-8", errors="surrogateescape")
        size = 0 if log == "-" else os.path.getsize(log)
    except OSError as error:
        _fail(f"cannot read {log}: {error.strerror or error}")
    with stream:
        if sys.stderr.isatty() and size:
            with click.progressbar(length=size, label="reading calls", file=sys.stderr) as bar:
                report = check_calls(_advancing(stream, bar), tools)
        else:
            report = check_calls(stream, tools)
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        for problem in report.problems:
            click.echo(f"{log}:{problem.line}: {problem.kind}: {problem.message}")
        click.echo(f"{report.responses} responses checked against {report.tools_hash}")
        click.echo(f"{'tool':<32} {'calls':>7} {'invalid':>8} {'rate':>7}  top failing fields")
        for name, use in report.tools.items():
            rate = f"{use.invalid / use.calls:.1%}" if use.calls else "-"
            fields = ", ".join(f"{pointer} ({count})" for pointer, count in use.failing_fields.most_common(3))
            click.echo(f"{name:<32} {use.calls:>7} {use.invalid:>8} {rate:>7}  {fields}")
    sys.exit(EXIT_FINDINGS if report.problems else EXIT_CLEAN)


def _advancing(lines: Any, bar: Any) -> Any:
    for line in lines:
        bar.update(len(line.encode("utf-8", "surrogateescape")))
        yield line


def _read_tools(paths: tuple[str, ...]) -> tuple[list[Any], bool]:
    """The tools in PATHS, in order; what could not be read is said on stderr (True: something was SL002).
    No tools at all is an error (exit 2)."""
    from schemalint.engine import LintOptions, lint

    result = lint(paths, LintOptions(select=("SL002", "SL003")))
    for diagnostic in result.diagnostics:
        location = f"{diagnostic.path}:{diagnostic.span.line}:{diagnostic.span.column}"
        click.echo(printable(f"{location}: {diagnostic.message}"), err=True)
    tools = [tool for source in result.files for tool in source.tools]
    unreadable = any(d.code == "SL002" for d in result.diagnostics)
    if not tools:  # an empty set would hash, export or check calls as if it were real
        _fail(f"no tool definitions found in {' '.join(paths)}")
    return tools, unreadable


@main.command()
def server() -> None:
    """Run the language server (LSP over stdio) for editors; needs `pip install 'schemalint[lsp]'`."""
    try:
        from schemalint.lsp.server import serve
    except ImportError as error:
        if error.name is None or error.name.split(".")[0] not in ("pygls", "lsprotocol"):
            raise
        _fail("the language server needs the `lsp` extra: pip install 'schemalint[lsp]'")
    serve()


@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
@click.option("--url", help="Reach a running server over Streamable HTTP instead of starting one.")
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=30.0,
    show_default=True,
    help="Seconds to wait for the server to start and list its tools.",
)
@click.option(
    "--save", type=click.Path(dir_okay=False, path_type=Path), help="Write the tools/list snapshot here and lint it."
)
@click.option(
    "--lock",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Pin the tools in this file (written when missing); later runs report what changed since.",
)
@click.option("--update-lock", is_flag=True, help="With --lock: accept the current tools as the new pin.")
@fail_under_option
@lint_options
def mcp(
    command: tuple[str, ...],
    url: str | None,
    timeout: float,
    save: Path | None,
    lock: Path | None,
    update_lock: bool,
    fail_under: int | None,
    args: LintArgs,
) -> None:
    """Lint the tools a live MCP server lists: `schemalint mcp -- CMD ARGS...` or `schemalint mcp --url URL`."""
    if bool(command) == (url is not None):
        _fail("give the server command after `--` (schemalint mcp -- CMD ARGS...) or --url URL, not both")
    if update_lock and lock is None:
        _fail("--update-lock needs --lock FILE")
    options = args.options()
    outputs = args.outputs()
    from schemalint.live.mcp import check_server

    result, notes = check_server(command, url, timeout, options, save, lock, update_lock)
    for note in notes:
        click.echo(f"schemalint: {note}", err=True)
    report_and_exit(result, args, outputs, False, scores=_scores(result), fail_under=fail_under)
