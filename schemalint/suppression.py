"""Dropping findings the user has silenced, and reporting silencers that silence nothing (SL001).

Two mechanisms:

- Inline comments (YAML, Python): `# schemalint: disable=SL301,nesting-too-deep` at the end of the
  finding's line, or alone on the line before it (applies to the next line holding something other
  than comments); `# schemalint: disable-file` or `# schemalint: disable-file=SL303` anywhere in the
  file. Codes, slugs and prefixes are accepted; a bare `disable` silences every rule on that line.
  A `#` inside a quoted string or a block scalar is not a comment.
- `per-file-ignores` in the configuration, with an optional `#/json/pointer` (JSON has no comments).

SL001 reports a comment entry or a per-file-ignore that silenced nothing, but only for rules that
were enabled in the run (like ruff's RUF100): `--select SL2` does not make every SL3 comment unused.
"""

from __future__ import annotations

import io
import re
import tokenize
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from schemalint.config import Config, PerFileIgnore
from schemalint.diagnostics import Diagnostic
from schemalint.loaders import Document
from schemalint.loaders.jsonyaml import LineIndex, yaml_events
from schemalint.model import Severity, Span
from schemalint.paths import display_path, matches_any
from schemalint.rules import match_selector, rule_class

UNUSED_CODE = "SL001"
_DIRECTIVE = re.compile(
    r"#\s*schemalint\s*:\s*(?P<kind>disable-file|disable)\b"
    r"(?:\s*=\s*(?P<selectors>[A-Za-z0-9_-]+(?:\s*,\s*[A-Za-z0-9_-]+)*))?"
)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
#: before each `#` at the start of a line or after white space: from it to the end of its line (group 1)
_COMMENT = re.compile(r"(?<![^ \t\r\n])(?=(#[^\r\n]*))")


@dataclass(frozen=True)
class Comment:
    line: int
    column: int  # 1-based column of the `#`
    text: str  # from the `#` to the end of the line
    standalone: bool  # nothing but white space before it on its line


@dataclass
class Directive:
    """One `# schemalint: disable...` comment."""

    #: where the directive is written in its comment
    span: Span
    file_wide: bool
    selectors: tuple[str, ...] | None  # None: every rule
    #: the lines whose findings it silences (empty for file-wide directives)
    lines: frozenset[int] = frozenset()
    used: set[str] = field(default_factory=set)

    def silences(self, code: str) -> str | None:
        """The selector that silences `code` (`"*"` for a bare directive), or None."""
        if self.selectors is None:
            return "*"
        for selector in self.selectors:
            if any(rule.code == code for rule in match_selector(selector)):
                return selector
        return None


# --------------------------------------------------------------------------------------------------
# Finding comments without being fooled by `#` in strings


def python_comments(text: str) -> Iterator[Comment]:
    """Comments of Python source, from the tokenizer (so never inside strings)."""
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                line, column = token.start
                standalone = not token.line[:column].strip()
                yield Comment(line, column + 1, token.string, standalone)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return


def yaml_comments(text: str) -> Iterator[Comment]:
    """Comments of YAML text: a `#` at the start of a line or after white space, outside the scalars the
    YAML parser reads (a quoted one may span lines; a block scalar's text starts below its `|` or `>`
    header, which may end in a comment). Past a YAML error the rest of the text holds no scalar."""
    scalars: list[tuple[int, int]] = []
    for event in yaml_events(text):
        if type(event).__name__ == "ScalarEvent":
            start, end = event.start_mark.index, event.end_mark.index
            if event.style in ("|", ">"):
                header_end = _LINE_BREAK.search(text, start)
                start = header_end.end() if header_end else end
            scalars.append((start, end))
    lines = LineIndex(text)
    comment_end = 0
    for match in _COMMENT.finditer(text):
        offset = match.start()
        inside = bisect_right(scalars, (offset, len(text))) - 1
        if offset < comment_end or (inside >= 0 and offset < scalars[inside][1]):
            continue
        comment_end = match.end(1)
        line, column = lines.position(offset)
        yield Comment(line, column, match.group(1), not text[offset - column + 1 : offset].strip())


def parse_directives(document: Document) -> list[Directive]:
    if "schemalint" not in document.text:  # no comment can hold a directive: nothing to tokenise
        return []
    if document.format == "python":
        comments = list(python_comments(document.text))
    elif document.format == "yaml":
        comments = list(yaml_comments(document.text))
    else:
        comments = []  # JSON has no comments: per-file-ignores with a pointer
    if not comments:
        return []
    comment_only = {c.line for c in comments if c.standalone}
    lines = _LINE_BREAK.split(document.text)
    directives = []
    for comment in comments:
        match = _DIRECTIVE.search(comment.text)
        if match is None:
            continue
        raw = match.group("selectors")
        selectors = tuple(s.strip() for s in raw.split(",")) if raw else None
        file_wide = match.group("kind") == "disable-file"
        target = comment.line
        if comment.standalone and not file_wide:  # alone on its line: the next line with content
            target += 1
            while target <= len(lines) and (target in comment_only or not lines[target - 1].strip()):
                target += 1
        span = Span(comment.line, comment.column + match.start(), comment.line, comment.column + match.end())
        directives.append(Directive(span, file_wide, selectors, frozenset() if file_wide else frozenset({target})))
    return directives


# --------------------------------------------------------------------------------------------------
# Filtering


def _finding_lines(diagnostic: Diagnostic, document: Document) -> set[int]:
    """The lines a finding sits on: its start and the line of its key (a block mapping's value
    starts below the key that names it)."""
    lines = {diagnostic.span.line}
    if diagnostic.pointer:
        key_span = document.positions.locate(diagnostic.pointer, True)
        if key_span is not None:
            lines.add(key_span.line)
    return lines


def _ignored_by(entry: PerFileIgnore, diagnostic: Diagnostic) -> bool:
    if entry.pointer is not None and not (
        diagnostic.pointer == entry.pointer or diagnostic.pointer.startswith(entry.pointer.rstrip("/") + "/")
    ):
        return False
    return any(diagnostic.code == rule.code for selector in entry.selectors for rule in match_selector(selector))


@dataclass
class _IgnoreUse:
    config: Config
    entry: PerFileIgnore
    applied: bool = False  # matched a linted file whose rules include one of the entry's
    report: bool = False  # SL001 was enabled for one of those files
    used: set[str] = field(default_factory=set)


class Suppressions:
    """Filters each file's diagnostics; remembers what each silencer silenced, for SL001."""

    def __init__(self, report_unused_ignores: bool = True) -> None:
        #: per-file-ignores are reported unused only when the run saw every file they might cover
        self.report_unused_ignores = report_unused_ignores
        self._ignores: dict[tuple[Path | None, int], _IgnoreUse] = {}

    def filter(
        self,
        diagnostics: Sequence[Diagnostic],
        document: Document | None,
        config: Config,
        path: str,
        enabled: frozenset[str],
    ) -> list[Diagnostic]:
        """The diagnostics nothing silences, plus SL001 for this file's unused comments."""
        file_path = Path(path)
        ignores = []
        for index, entry in enumerate(config.per_file_ignores):
            if matches_any(file_path, (entry.pattern,), config.root):
                use = self._ignores.setdefault((config.source, index), _IgnoreUse(config, entry))
                use.applied = use.applied or _selects_enabled(entry.selectors, enabled)
                use.report = use.report or UNUSED_CODE in enabled
                ignores.append(use)
        directives = parse_directives(document) if document is not None else []
        if not ignores and not directives:  # nothing can silence a finding here (JSON files mostly)
            return list(diagnostics)
        kept = []
        for diagnostic in diagnostics:
            silenced = False
            for use in ignores:
                if _ignored_by(use.entry, diagnostic):
                    use.used.add(diagnostic.code)
                    silenced = True
            lines = _finding_lines(diagnostic, document) if directives and document is not None else set()
            for directive in directives:
                if directive.file_wide or directive.lines & lines:
                    selector = directive.silences(diagnostic.code)
                    if selector is not None:
                        directive.used.add(selector)
                        silenced = True
            if not silenced:
                kept.append(diagnostic)
        if UNUSED_CODE in enabled:
            kept.extend(self._unused_directives(directives, config, path, enabled))
        return kept

    def _unused_directives(
        self, directives: Sequence[Directive], config: Config, path: str, enabled: frozenset[str]
    ) -> Iterator[Diagnostic]:
        for directive in directives:
            if directive.selectors is None:
                if not directive.used:
                    yield _unused(config, path, directive.span, "this disable comment matched no finding; remove it")
                continue
            unknown = [s for s in directive.selectors if not match_selector(s)]
            unused = [
                s
                for s in directive.selectors
                if s not in directive.used and s not in unknown and _selects_enabled((s,), enabled)
            ]
            if unknown:
                names = ", ".join(f"`{s}`" for s in unknown)
                yield _unused(config, path, directive.span, f"{names} in this disable comment is not a rule")
            if unused:
                names = ", ".join(f"`{s}`" for s in unused)
                yield _unused(config, path, directive.span, f"{names} in this disable comment matched no finding")

    def unused_ignores(self) -> list[Diagnostic]:
        """SL001 for per-file-ignores that applied to linted files and silenced nothing."""
        if not self.report_unused_ignores:
            return []
        found = []
        for use in self._ignores.values():
            config = use.config
            if not (use.applied and use.report) or config.source is None:
                continue
            unused = [s for s in use.entry.selectors if not any(r.code in use.used for r in match_selector(s))]
            if not unused:
                continue
            pattern = use.entry.pattern + ("" if use.entry.pointer is None else f"#{use.entry.pointer}")
            names = ", ".join(f"`{s}`" for s in unused)
            message = f'per-file-ignores "{pattern}": {names} matched no finding'
            found.append(_unused(config, display_path(config.source), _pattern_span(config.source, pattern), message))
        return found


def _selects_enabled(selectors: Sequence[str], enabled: frozenset[str]) -> bool:
    return any(rule.code in enabled for selector in selectors for rule in match_selector(selector))


def _unused(config: Config, path: str, span: Span, message: str) -> Diagnostic:
    rule = rule_class(UNUSED_CODE)
    setting = config.rules.get(UNUSED_CODE)
    severity: Severity = (setting.severity if setting is not None else None) or rule.severity
    return Diagnostic(UNUSED_CODE, rule.slug, severity, message, path, span, "")


def _pattern_span(config_file: Path, pattern: str) -> Span:
    """Where the per-file-ignores key is written in the config file (line 1 when it cannot be found)."""
    try:
        lines = config_file.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return Span(1, 1, 1, 1)
    for number, line in enumerate(lines, start=1):
        for quoted in (f'"{pattern}"', f"'{pattern}'"):
            column = line.find(quoted)
            if column >= 0:
                return Span(number, column + 1, number, column + 1 + len(quoted))
    return Span(1, 1, 1, 1)
