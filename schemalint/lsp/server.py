"""`schemalint server`: the language server (LSP over stdio). Imported only by that command.

Lints JSON, YAML and Python files that hold tool definitions on open, on change (debounced) and on
save; files without tools get no diagnostics at all. The configuration is resolved again for every
lint (config.py caches parsed files by mtime), so edits to pyproject.toml or .schemalint.toml apply
on the next lint; a change to one of them also re-lints every open document.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from schemalint import __version__
from schemalint.config import CONFIG_FILES, ConfigError
from schemalint.diagnostics import Diagnostic
from schemalint.docs_site import rule_url
from schemalint.engine import FindingCache, LintOptions, LintResult, lint_source, locate
from schemalint.loaders import Document
from schemalint.loaders.discover import FORMAT_BY_SUFFIX, source_format
from schemalint.lsp.edits import SourceLines, TextEdit, disable_comment_edit, fix_edits
from schemalint.model import Severity
from schemalint.paths import matches_any
from schemalint.rules import find_entry, find_rule

logger = logging.getLogger(__name__)

DEFAULT_DEBOUNCE_MS = 200
#: rules that need embeddings: too slow for every keystroke, run on open and save only
SAVE_ONLY_CANDIDATES = ("SL502", "SL504")
SOURCE = "schemalint"
#: code actions in one answer: a range over a whole large document holds thousands of findings, more
#: than a menu can show
MAX_CODE_ACTIONS = 100
#: fixes whose edit is rendered in the answer, for clients that cannot resolve it later: each renders
#: the whole file again
MAX_EAGER_FIXES = 5

_SEVERITY = {
    Severity.ERROR: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
    Severity.INFO: lsp.DiagnosticSeverity.Information,
}


@dataclass
class LintedDocument:
    """The last lint of an open document, for hover and code actions."""

    version: int | None
    lines: SourceLines
    document: Document | None
    diagnostics: list[Diagnostic]
    lsp_diagnostics: list[lsp.Diagnostic]
    #: findings of the save-only rules from the last full lint, carried over while typing
    save_only: list[Diagnostic] = field(default_factory=list)


class SchemalintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("schemalint", __version__)
        self.linted: dict[str, LintedDocument] = {}
        #: findings of unchanged tools are reused between keystrokes
        self.cache = FindingCache()
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.debounce_seconds = DEFAULT_DEBOUNCE_MS / 1000
        #: the initialization option `docsUrl`: where `codeDescription.href` points, ahead of the `docs-url`
        #: setting (a base URL or a `{code}`/`{slug}` template, as schemalint.docs_site reads them)
        self.docs_url = ""
        self.report_timing = False
        self.save_only_codes = tuple(code for code in SAVE_ONLY_CANDIDATES if find_entry(code) is not None)

    @property
    def encoding(self) -> str:
        return str(self.workspace.position_encoding or lsp.PositionEncodingKind.Utf16)

    def lintable_path(self, uri: str) -> Path | None:
        path = to_fs_path(uri)
        return Path(path) if path is not None and source_format(path) in FORMAT_BY_SUFFIX.values() else None

    def schedule(self, uri: str) -> None:
        """Lint after a pause in typing; a newer change restarts the wait."""
        previous = self.pending.pop(uri, None)
        if previous is not None:
            previous.cancel()
        loop = asyncio.get_running_loop()
        self.pending[uri] = loop.call_later(self.debounce_seconds, self.lint_and_publish, uri, False)

    def lint_and_publish(self, uri: str, full: bool) -> None:
        self.pending.pop(uri, None)
        before = self.linted.get(uri)
        started_wall, started_cpu = time.perf_counter(), time.process_time()
        try:
            diagnostics = self.lint(uri, full)
        except Exception:  # a bug must not take the editor's server down
            logger.exception("linting %s failed", uri)
            self.window_log_message(
                lsp.LogMessageParams(
                    type=lsp.MessageType.Error, message=f"schemalint: internal error while linting {uri}"
                )
            )
            return
        if diagnostics is None or (not diagnostics and (before is None or not before.lsp_diagnostics)):
            return  # nothing to say and nothing to clear: files without tools cause no traffic
        linted = self.linted.get(uri)
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=linted.version if linted else None)
        )
        if self.report_timing:  # for benchmarks/bench_lsp.py: the server's own cost, whatever the machine's load
            wall, cpu = time.perf_counter() - started_wall, time.process_time() - started_cpu
            message = f"schemalint timing: {wall * 1000:.1f} ms wall, {cpu * 1000:.1f} ms cpu"
            self.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Log, message=message))

    def lint(self, uri: str, full: bool) -> list[lsp.Diagnostic] | None:
        path = self.lintable_path(uri)
        if path is None:
            return None
        text_document = self.workspace.get_text_document(uri)
        text = text_document.source
        lines = SourceLines(text)
        previous = self.linted.get(uri)
        skipped = () if full else self.save_only_codes
        try:
            options = LintOptions(skip_non_tool_files=True, ignore=skipped)
            result = lint_source(text, str(path), options, cache=self.cache)
        except ConfigError as error:
            self.linted[uri] = LintedDocument(text_document.version, lines, None, [], [])
            problem = lsp.Diagnostic(
                range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 1)),
                message=f"schemalint configuration error: {error}",
                severity=lsp.DiagnosticSeverity.Error,
                source=SOURCE,
            )
            return [problem]
        config = result.files[0].config if result.files else None
        if config is not None and matches_any(path, config.exclude, config.root):  # not linted in editors either
            result = LintResult([], result.files)
        document = result.files[0].document if result.files else None
        diagnostics = list(result.diagnostics)
        if full:
            save_only = [d for d in diagnostics if d.code in self.save_only_codes]
        else:  # keep what the save-only rules said at the last save, moved to where its pointers are now
            save_only = [
                replace(d, span=locate(document, d.pointer)) if document is not None else d
                for d in (previous.save_only if previous else [])
            ]
            diagnostics.extend(save_only)
        docs_url = self.docs_url or (config.settings.get("docs-url", "") if config else "")
        converted = [self._to_lsp(d, lines, docs_url) for d in diagnostics]
        self.linted[uri] = LintedDocument(text_document.version, lines, document, diagnostics, converted, save_only)
        return converted

    def _to_lsp(self, diagnostic: Diagnostic, lines: SourceLines, docs_url: str) -> lsp.Diagnostic:
        (start_line, start_char), (end_line, end_char) = lines.client_range(diagnostic.span, self.encoding)
        message = diagnostic.message if diagnostic.tool is None else f"{diagnostic.message} [tool `{diagnostic.tool}`]"
        return lsp.Diagnostic(
            range=lsp.Range(lsp.Position(start_line, start_char), lsp.Position(end_line, end_char)),
            message=message,
            severity=_SEVERITY[diagnostic.severity],
            code=diagnostic.code,
            code_description=lsp.CodeDescription(href=_rule_url(diagnostic.code, diagnostic.slug, docs_url)),
            source=SOURCE,
            data={"pointer": diagnostic.pointer, "slug": diagnostic.slug},
        )

    def at(self, uri: str, position: lsp.Position) -> list[tuple[Diagnostic, lsp.Diagnostic]]:
        """The findings whose range holds `position` (client units)."""
        linted = self.linted.get(uri)
        if linted is None:
            return []
        point = (position.line, position.character)
        return [
            (d, converted)
            for d, converted in zip(linted.diagnostics, linted.lsp_diagnostics, strict=True)
            if _start(converted.range) <= point <= _end(converted.range)
        ]

    def relint_open_documents(self) -> None:
        for uri in list(self.linted):
            self.lint_and_publish(uri, True)


def _start(range_: lsp.Range) -> tuple[int, int]:
    return range_.start.line, range_.start.character


def _end(range_: lsp.Range) -> tuple[int, int]:
    return range_.end.line, range_.end.character


#: a rule's link for a `docs-url` value: finding it looks for a built site on disk, once a session rather
#: than on every keystroke
_rule_url = functools.cache(rule_url)


server = SchemalintServer()


@server.feature(lsp.INITIALIZE)
def initialize(ls: SchemalintServer, params: lsp.InitializeParams) -> None:
    options = params.initialization_options if isinstance(params.initialization_options, dict) else {}
    debounce = options.get("debounceMs")
    if isinstance(debounce, (int, float)) and not isinstance(debounce, bool) and debounce >= 0:
        ls.debounce_seconds = debounce / 1000
    ls.report_timing = options.get("reportTiming") is True
    docs_url = options.get("docsUrl")
    if isinstance(docs_url, str) and docs_url:
        ls.docs_url = docs_url


@server.feature(lsp.INITIALIZED)
def initialized(ls: SchemalintServer, params: lsp.InitializedParams) -> None:
    capabilities = ls.client_capabilities.workspace
    watched = capabilities.did_change_watched_files if capabilities else None
    if watched is None or not watched.dynamic_registration:
        return  # config files are re-read on every lint anyway
    watchers = [lsp.FileSystemWatcher(glob_pattern=f"**/{name}") for name in CONFIG_FILES]
    registration = lsp.Registration(
        id="schemalint-config-files",
        method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        register_options=lsp.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
    )
    ls.client_register_capability(lsp.RegistrationParams(registrations=[registration]))


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: SchemalintServer, params: lsp.DidOpenTextDocumentParams) -> None:
    ls.lint_and_publish(params.text_document.uri, True)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: SchemalintServer, params: lsp.DidChangeTextDocumentParams) -> None:
    if ls.lintable_path(params.text_document.uri) is not None:
        ls.schedule(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: SchemalintServer, params: lsp.DidSaveTextDocumentParams) -> None:
    if Path(to_fs_path(params.text_document.uri) or "").name in CONFIG_FILES:
        ls.relint_open_documents()
        return
    ls.lint_and_publish(params.text_document.uri, True)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: SchemalintServer, params: lsp.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    pending = ls.pending.pop(uri, None)
    if pending is not None:
        pending.cancel()
    if ls.linted.pop(uri, None) is not None:
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: SchemalintServer, params: lsp.DidChangeWatchedFilesParams) -> None:
    if any(Path(to_fs_path(change.uri) or "").name in CONFIG_FILES for change in params.changes):
        ls.relint_open_documents()


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: SchemalintServer, params: lsp.HoverParams) -> lsp.Hover | None:
    found = ls.at(params.text_document.uri, params.position)
    if not found:
        return None
    sections = []
    for diagnostic, _ in found:
        rule = find_rule(diagnostic.code)
        docs = rule.docs() if rule is not None else ""
        sections.append(f"**{diagnostic.code}** `{diagnostic.slug}` ({diagnostic.severity.label})\n\n{docs}")
    return lsp.Hover(
        contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value="\n\n---\n\n".join(sections)),
        range=found[0][1].range,
    )


@server.feature(
    lsp.TEXT_DOCUMENT_CODE_ACTION,
    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix], resolve_provider=True),
)
async def code_action(ls: SchemalintServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    """Quick fixes for the findings in the range, the first `MAX_CODE_ACTIONS` of them. Rendering a fix
    re-renders the file, so clients that can resolve an action's edit later get it only when the user
    picks the action; the others get the first `MAX_EAGER_FIXES` rendered. The handler gives way to
    the client's other messages (a cancel, a shutdown) after each rendered edit."""
    uri = params.text_document.uri
    linted = ls.linted.get(uri)
    if linted is None:
        return []
    wanted = (_start(params.range), _end(params.range))
    actions: list[lsp.CodeAction] = []
    disabled: set[tuple[str, int]] = set()
    eager_fixes = 0
    for index, (diagnostic, converted) in enumerate(zip(linted.diagnostics, linted.lsp_diagnostics, strict=True)):
        if len(actions) >= MAX_CODE_ACTIONS:
            break
        if _end(converted.range) < wanted[0] or _start(converted.range) > wanted[1]:
            continue
        fix = diagnostic.fix
        format_ = source_format(diagnostic.path)
        if fix is not None and fix.safe and linted.document is not None and format_ != "python":
            title = f"{diagnostic.code}: {fix.title}"
            if _resolves_edits(ls):
                data = {"uri": uri, "version": linted.version, "index": index}
                actions.append(_action(title, converted, True, data=data))
            elif eager_fixes < MAX_EAGER_FIXES:
                eager_fixes += 1
                if (edits := fix_edits(linted.document, diagnostic)) is not None:
                    actions.append(_action(title, converted, True, _workspace_edit(ls, uri, linted, edits)))
                await asyncio.sleep(0)
                if ls.linted.get(uri) is not linted:  # the document changed or closed meanwhile
                    return []
        if format_ in ("yaml", "python") and (diagnostic.code, diagnostic.span.line) not in disabled:
            disabled.add((diagnostic.code, diagnostic.span.line))
            edit = disable_comment_edit(linted.lines.text, format_, diagnostic.span.line, diagnostic.code)
            workspace_edit = _workspace_edit(ls, uri, linted, [edit])
            actions.append(_action(f"Disable {diagnostic.code} here", converted, False, workspace_edit))
    return actions


@server.feature(lsp.CODE_ACTION_RESOLVE)
def resolve_code_action(ls: SchemalintServer, action: lsp.CodeAction) -> lsp.CodeAction:
    """Fill in a fix's edit; an action for an older version of the document stays without one."""
    data = action.data if isinstance(action.data, dict) else {}
    uri, index = data.get("uri"), data.get("index")
    linted = ls.linted.get(uri) if isinstance(uri, str) else None
    if linted is None or linted.document is None or linted.version != data.get("version"):
        return action
    if not isinstance(index, int) or not 0 <= index < len(linted.diagnostics):
        return action
    edits = fix_edits(linted.document, linted.diagnostics[index])
    if edits is not None and isinstance(uri, str):
        action.edit = _workspace_edit(ls, uri, linted, edits)
    return action


def _resolves_edits(ls: SchemalintServer) -> bool:
    document = ls.client_capabilities.text_document
    code_action = document.code_action if document else None
    support = code_action.resolve_support if code_action else None
    return support is not None and "edit" in support.properties


def _workspace_edit(ls: SchemalintServer, uri: str, linted: LintedDocument, edits: list[TextEdit]) -> lsp.WorkspaceEdit:
    text_edits = []
    for edit in edits:
        start = linted.lines.client_position(*edit.start, ls.encoding)
        end = linted.lines.client_position(*edit.end, ls.encoding)
        text_edits.append(lsp.TextEdit(lsp.Range(lsp.Position(*start), lsp.Position(*end)), edit.new_text))
    return lsp.WorkspaceEdit(changes={uri: text_edits})


def _action(
    title: str,
    diagnostic: lsp.Diagnostic,
    preferred: bool,
    edit: lsp.WorkspaceEdit | None = None,
    data: Mapping[str, object] | None = None,
) -> lsp.CodeAction:
    return lsp.CodeAction(
        title=title,
        kind=lsp.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        is_preferred=preferred,
        edit=edit,
        data=data,
    )


def serve() -> None:
    """Speak LSP on stdin/stdout until the client says exit."""
    logging.basicConfig(level=logging.WARNING, format="schemalint-lsp: %(message)s")
    server.start_io()
