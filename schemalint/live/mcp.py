"""`schemalint mcp`: lint the tools a running MCP server lists, and pin them in a lock file.

The server is started over stdio (or reached at a Streamable HTTP URL) with the official `mcp` SDK,
initialised, and asked for every page of `tools/list`. The tools are linted like a file: with
`--save FILE` the snapshot is written first and linted as that file, so positions are exact; without
it the findings carry JSON pointers only.

A lock file pins each tool's canonical definition (name, description, input and output schemas,
annotations) and its hash. A later run compares the live tools with it through the same
classification as `schemalint diff` (SL9xx); a tool whose description changed after it was approved
is the rug-pull this guards against, so SL909 is an error here unless the configuration says otherwise.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shlex
import signal
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TextIO

from schemalint import UserError
from schemalint.config import Config
from schemalint.diagnostics import Diagnostic
from schemalint.engine import (
    ConfigResolver,
    LintOptions,
    LintResult,
    SourceResult,
    lint_documents,
    lint_source,
    load_source,
)
from schemalint.loaders import Document
from schemalint.model import Severity
from schemalint.paths import display_path
from schemalint.tools_hash import digest

LOCK_FORMAT = 1
#: the parts of a tool that the lock pins; anything else the server adds (title, icons, _meta) may change
PINNED_FIELDS = ("name", "description", "inputSchema", "outputSchema", "annotations")
MAX_PAGES = 1000
RUG_PULL_CODE = "SL909"


class LiveError(UserError):
    """The server could not be listed; the message is one line for the user."""


@dataclass
class Listing:
    """What a server said: its name (from `serverInfo`, else the command) and every tool, as sent."""

    server: str
    version: str | None
    tools: list[dict[str, Any]]
    #: lines the server wrote to stdout that are not JSON-RPC (logs), skipped
    skipped: list[str] = field(default_factory=list)


def fetch_listing(command: Sequence[str], url: str | None, timeout: float) -> Listing:
    """Start (or connect to) the server, initialise, page through tools/list; always stop the server."""
    try:
        import anyio
        import mcp  # noqa: F401
    except ImportError:
        raise LiveError("linting a live MCP server needs the `mcp` extra: pip install 'schemalint[mcp]'") from None
    where = url if url is not None else shlex.join(command)
    sdk_logger = logging.getLogger("mcp")  # the SDK logs tracebacks; the user gets one line from us
    sdk_logger.propagate = False
    if not sdk_logger.handlers:
        sdk_logger.addHandler(logging.NullHandler())
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog, _stopping_what_it_starts() as stop:
        try:
            return anyio.run(_fetch, list(command), url, timeout, errlog, stop)
        except Exception as error:  # a LiveError of ours, or the SDK's, the transport's or the OS's
            raise LiveError(f"MCP server `{where}`: {_describe(error, timeout)}{_stderr_tail(errlog)}") from None


@contextlib.contextmanager
def _stopping_what_it_starts() -> Iterator[Callable[[], None]]:
    """Afterwards, kill every process the server started, also one that left its process group (`setsid`),
    which the SDK's group kill misses. As a child subreaper (Linux) this process inherits the server's
    orphans, so they stay below it in the process tree; children it already had are left alone. Yields the
    kill, for a timeout to call before the SDK waits for the server to exit."""
    before = _process_children().get(os.getpid(), set())

    def kill_started() -> None:
        for _ in range(3):  # a process may start another while the first are killed
            started = _descendants(os.getpid(), exclude=before)
            if not started:
                return
            for pid in started:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            for pid in started:
                with contextlib.suppress(ChildProcessError, OSError):
                    os.waitpid(pid, 0)

    subreaper = _set_child_subreaper(True)
    try:
        yield kill_started
    finally:
        kill_started()
        if subreaper:
            _set_child_subreaper(False)


def _set_child_subreaper(on: bool) -> bool:
    """prctl(PR_SET_CHILD_SUBREAPER); False where it is not available (not Linux)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(36, int(on), 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _process_children() -> dict[int, set[int]]:
    """Parent pid -> child pids, from /proc (empty where there is no /proc)."""
    children: dict[int, set[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if len(fields) > 1:
            children.setdefault(int(fields[1]), set()).add(int(stat.parent.name))
    return children


def _descendants(root: int, exclude: set[int]) -> list[int]:
    children = _process_children()
    found: list[int] = []
    pending = [pid for pid in children.get(root, ()) if pid not in exclude]
    while pending:
        pid = pending.pop()
        found.append(pid)
        pending.extend(children.get(pid, ()))
    return found


async def _fetch(
    command: list[str], url: str | None, timeout: float, errlog: TextIO, stop_server: Callable[[], None]
) -> Listing:
    import anyio
    from mcp import ClientSession

    malformed: list[str] = []
    skipped: list[str] = []
    work = anyio.CancelScope()

    async def on_message(message: Any) -> None:
        if not isinstance(message, Exception):
            return
        problems = _problems(message)
        if any(problem.get("type") == "json_invalid" for problem in problems):  # a log line on stdout: skip it
            skipped.append(repr(str(problems[0].get("input", ""))[:120]))
            return
        malformed.append(_one_line(message))  # a broken message: fail now, not at the timeout
        work.cancel()

    deadline = anyio.current_time() + timeout
    async with (
        _connect(command, url, errlog) as (read, write),
        ClientSession(read, write, message_handler=on_message) as session,
    ):
        with work, anyio.CancelScope(deadline=deadline) as waiting:
            initialized = await session.initialize()
            tools = await _list_tools(session)
        if waiting.cancelled_caught:
            stop_server()  # now, so that the SDK's shutdown does not wait out its grace period for it
            if skipped:
                raise LiveError(
                    f"no JSON-RPC answer within {timeout:g} s (--timeout); the server wrote {len(skipped)} other "
                    f"line(s) to stdout, first: {skipped[0]}"
                )
            raise TimeoutError
    if malformed:
        raise LiveError(f"malformed message from the server: {malformed[0]}")
    info = initialized.server_info
    name = info.name if info is not None and info.name else Path(command[0]).name if command else str(url)
    version = info.version if info is not None and info.version else None
    return Listing(name, version, tools, skipped)


@contextlib.asynccontextmanager
async def _connect(command: list[str], url: str | None, errlog: TextIO) -> AsyncIterator[tuple[Any, Any]]:
    if url is not None:
        from mcp.client.streamable_http import streamable_http_client

        async with streamable_http_client(url) as streams:
            yield streams[0], streams[1]
        return
    from mcp import StdioServerParameters, stdio_client

    # The user typed the command, so the server gets their environment (API keys, tokens), as any command
    # run from the shell would; the SDK's default passes only a few safe variables.
    parameters = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
    async with stdio_client(parameters, errlog=errlog) as (read, write):
        yield read, write


async def _list_tools(session: Any) -> list[dict[str, Any]]:
    from mcp import types

    tools: list[dict[str, Any]] = []
    cursor: str | None = None
    seen: set[str] = set()
    for _ in range(MAX_PAGES):
        params = types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None
        page = await _unchecked_result(session, types.ListToolsRequest(params=params))
        listed = page.get("tools")
        if not isinstance(listed, list) or not all(isinstance(t, dict) for t in listed):
            raise LiveError("malformed tools/list answer: `tools` is not a list of objects")
        tools.extend(listed)
        cursor = page.get("nextCursor")
        if cursor is None:
            return tools
        if not isinstance(cursor, str) or cursor in seen:
            raise LiveError(f"malformed tools/list answer: bad or repeated nextCursor {cursor!r}")
        seen.add(cursor)
    raise LiveError(f"tools/list did not end after {MAX_PAGES} pages")


async def _unchecked_result(session: Any, request: Any) -> dict[str, Any]:
    """The result as the server sent it, not checked against the protocol's types.

    The SDK's `send_request` refuses a whole tools/list when one tool breaks the spec (an `inputSchema`
    without `type`, as some published servers send), and such a tool is what a linter must report. So the
    request goes through the session's own stamping and dispatcher; an SDK without them gets the checked path.
    """
    stamp, dispatcher = getattr(session, "_stamp", None), getattr(session, "_dispatcher", None)
    if stamp is None or dispatcher is None:
        from pydantic import TypeAdapter

        result: dict[str, Any] = await session.send_request(request, TypeAdapter(dict[str, Any]))
        return result
    data = request.model_dump(by_alias=True, mode="json", exclude_none=True)
    options: dict[str, Any] = {}
    stamp(data, options)
    raw: dict[str, Any] = await dispatcher.send_raw_request(data["method"], data.get("params"), options)
    return raw


def _problems(error: Exception) -> list[dict[str, Any]]:
    """A pydantic ValidationError's problems (the transport's error for a line that is not JSON-RPC)."""
    errors = getattr(error, "errors", None)
    return errors() if callable(errors) else []


def _one_line(error: Exception) -> str:
    problems = _problems(error)
    if problems:  # a pydantic ValidationError: its first problem and the offending input
        return f"{problems[0].get('msg', 'invalid')}: {str(problems[0].get('input', ''))[:120]!r}"
    return " ".join(str(error).split())[:200]


def _leaves(error: BaseException) -> list[BaseException]:
    """The real errors inside task-group exception groups."""
    inner = getattr(error, "exceptions", None)  # BaseExceptionGroup (Python 3.11+, or the backport)
    if isinstance(inner, tuple):
        return [leaf for exception in inner for leaf in _leaves(exception)]
    return [error]


def _describe(error: BaseException, timeout: float) -> str:
    from pydantic import ValidationError

    leaves = _leaves(error)
    for leaf in leaves:
        if isinstance(leaf, LiveError):
            return str(leaf)
    for leaf in leaves:
        if isinstance(leaf, TimeoutError):
            return f"no answer within {timeout:g} s (--timeout)"
        if isinstance(leaf, FileNotFoundError):
            return f"cannot start: {leaf.strerror or leaf}: {leaf.filename or ''}".rstrip(": ")
        if isinstance(leaf, OSError):
            return f"cannot start: {leaf.strerror or leaf}"
        if isinstance(leaf, ValidationError):
            problems = leaf.errors()
            location = "/".join(str(part) for part in problems[0]["loc"]) if problems else ""
            return f"malformed answer: {location or 'result'}: {problems[0]['msg'] if problems else 'invalid'}"
    text = " ".join(str(leaves[0]).split()) or type(leaves[0]).__name__
    if type(leaves[0]).__name__ in ("ConnectError", "ConnectTimeout"):  # httpx: nothing listens at --url
        return f"cannot connect: {text}"
    if "closed" in text.lower():
        return f"the server exited or closed the connection before answering ({text})"
    return f"{type(leaves[0]).__name__}: {text}"


def _stderr_tail(errlog: TextIO) -> str:
    """The server's last stderr line, which usually says why it died."""
    with contextlib.suppress(OSError, ValueError):
        errlog.seek(0)
        lines = [line.strip() for line in errlog.read().splitlines() if line.strip()]
        if lines:
            return f"; its stderr ends with: {lines[-1][:300]}"
    return ""


def lint_listing(listing: Listing, options: LintOptions, save: Path | None) -> LintResult:
    """Lint the tools like a file: the `--save` snapshot when there is one, else data without positions."""
    if save is not None:
        text = json.dumps({"tools": listing.tools}, indent=2, ensure_ascii=False) + "\n"
        try:
            save.write_text(text, encoding="utf-8")
        except OSError as error:
            raise LiveError(f"cannot write --save {save}: {error.strerror or error}") from None
        result = lint_source(text, str(save), options)
    else:
        config = ConfigResolver(options).for_path(Path.cwd() / "_")
        document = Document(f"mcp:{listing.server}", "", {"tools": listing.tools}, "json")
        result = lint_documents([document], config)
        for diagnostic in result.diagnostics:  # no positions: say where in words
            where = f"tool `{diagnostic.tool}`, " if diagnostic.tool else ""
            diagnostic.message = f"{diagnostic.message} ({where}at {diagnostic.pointer or '/'})"
        # an empty text would give every finding a blank excerpt; without a document reporters show none
        result = LintResult(result.diagnostics, [replace(f, document=None) for f in result.files])
    for diagnostic in result.diagnostics:
        diagnostic.data = {**diagnostic.data, "server": listing.server}
    return result


def canonical_tool(tool: dict[str, Any]) -> dict[str, Any]:
    return {key: tool[key] for key in PINNED_FIELDS if key in tool}


def write_lock(path: Path, listing: Listing) -> None:
    """The lock file: a tools/list-shaped document (so `schemalint diff` reads it) plus hashes."""
    definitions = [canonical_tool(tool) for tool in listing.tools]
    data = {
        "schemalint-lock": LOCK_FORMAT,
        "server": {"name": listing.server, "version": listing.version},
        "hashes": {str(d.get("name")): digest(d) for d in definitions},
        "tools": definitions,
    }
    try:
        path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as error:
        raise LiveError(f"cannot write lock file {path}: {error.strerror or error}") from None


def read_lock(path: Path, config: Config) -> SourceResult:
    try:
        text = path.read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, UnicodeDecodeError) as error:
        raise LiveError(f"cannot read lock file {path}: {error}") from None
    except json.JSONDecodeError as error:
        raise LiveError(f"{path}:{error.lineno}:{error.colno}: lock file is not valid JSON: {error.msg}") from None
    if (
        not isinstance(data, dict)
        or data.get("schemalint-lock") != LOCK_FORMAT
        or not isinstance(data.get("tools"), list)
    ):
        raise LiveError(f"{path}: not a schemalint lock file (format {LOCK_FORMAT}); delete it to pin again")
    return load_source(display_path(path), text, config, explicit=True, skip_non_tool_files=True)


def lock_changes(lock: SourceResult, current: SourceResult, config: Config, listing: Listing) -> list[Diagnostic]:
    """What changed since the lock, classified as `schemalint diff` does; SL909 is an error here."""
    data = lock.document.data if lock.document is not None else {}
    hashes = data.get("hashes", {}) if isinstance(data, dict) else {}
    if list(hashes.items()) == [(str(d.get("name")), digest(d)) for d in map(canonical_tool, listing.tools)]:
        return []
    from schemalint.diff import diff_sources

    configured = config.rules.get(RUG_PULL_CODE)
    rug_pull_severity = configured.severity if configured is not None and configured.severity else Severity.ERROR
    out = []
    for diagnostic in diff_sources([lock], [current], config):
        diagnostic.data = {**diagnostic.data, "server": listing.server}
        if diagnostic.code == RUG_PULL_CODE:
            message = (
                f"{diagnostic.message}; changed since the lock {lock.path}: a tool that changes its instructions "
                "after approval can steer the model (review it, then accept with --update-lock)"
            )
            diagnostic = replace(diagnostic, severity=rug_pull_severity, message=message)
        out.append(diagnostic)
    return out


def check_server(
    command: Sequence[str],
    url: str | None,
    timeout: float,
    options: LintOptions,
    save: Path | None = None,
    lock: Path | None = None,
    update_lock: bool = False,
) -> tuple[LintResult, list[str]]:
    """List, lint, and compare with (or write) the lock file. Returns the result and notes for stderr."""
    listing = fetch_listing(command, url, timeout)
    result = lint_listing(listing, options, save)
    skipped = []
    if listing.skipped:
        skipped.append(
            f"skipped {len(listing.skipped)} line(s) the server wrote to stdout that are not JSON-RPC (first: "
            f"{listing.skipped[0]}); a stdio server should log to stderr"
        )
    if lock is None:
        return result, skipped
    current = result.files[0]
    if not lock.exists():
        write_lock(lock, listing)
        return result, [*skipped, f"wrote lock file {lock}: {len(listing.tools)} tool(s) of `{listing.server}` pinned"]
    pinned = read_lock(lock, current.config)
    changes = lock_changes(pinned, current, current.config, listing)
    if update_lock:
        write_lock(lock, listing)
        return result, [*skipped, f"updated lock file {lock}: {len(changes)} change(s) accepted"]
    diagnostics = sorted([*result.diagnostics, *changes], key=Diagnostic.sort_key)
    return LintResult(diagnostics, [*result.files, pinned]), skipped
