"""The two sides of a diff: files, folders, or `REF:path` read from git (read-only, no network).

Every side becomes a list of (display path, raw text) pairs that go through the same loaders as
`check` (engine.load_source), so any format `check` reads can be diffed.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from schemalint import UserError
from schemalint.loaders.discover import DEFAULT_EXCLUDE, DEFAULT_INCLUDE, discover, read_source
from schemalint.paths import display_path, matches_any, split_git_spec


class SourceError(UserError):
    """A side cannot be read (no such file, not a git repository, unknown ref); one line for the CLI."""


@dataclass(frozen=True)
class RawSource:
    path: str  # as shown in diagnostics: a file path, or `REF:path` for a git blob
    text: str | bytes
    explicit: bool  # named directly (not found by walking a folder)


def run_git(args: Sequence[str], cwd: Path) -> bytes:
    try:
        completed = subprocess.run(
            ["git", *args],
            cwd=cwd,
            capture_output=True,
            check=False,
            env={**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0"},
        )
    except FileNotFoundError:
        raise SourceError("git is not installed (needed to read REF:path)") from None
    if completed.returncode != 0:
        detail = completed.stderr.decode("utf-8", "replace").strip().splitlines()
        raise SourceError(detail[-1] if detail else f"git {' '.join(args)} failed")
    return completed.stdout


def repository_root(cwd: Path | None = None) -> Path:
    """The top folder of the git work tree containing `cwd`; SourceError outside a repository."""
    where = cwd or Path.cwd()
    try:
        return Path(run_git(["rev-parse", "--show-toplevel"], where).decode().strip())
    except SourceError:
        raise SourceError(f"not a git repository: {where}") from None


def check_ref(ref: str, root: Path) -> str:
    """The commit `ref` names (anything `git rev-parse` accepts); SourceError when it names nothing."""
    command = ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"]
    try:
        return run_git(command, root).decode().strip()
    except SourceError:
        raise SourceError(f"unknown git revision `{ref}`") from None


def _tree_path(root: Path, path: str) -> str:
    """`path` (relative to the working directory, as the user typed it) relative to the repository root."""
    if path in ("", "."):
        relative = Path.cwd().resolve().relative_to(root.resolve())
        return "" if str(relative) == "." else relative.as_posix()
    if path.startswith("/"):
        return path.lstrip("/")
    joined = (Path.cwd() / path).resolve()
    try:
        return joined.relative_to(root.resolve()).as_posix()
    except ValueError:
        raise SourceError(f"{path}: outside the git repository {root}") from None


def read_git_side(ref: str, path: str, include: Sequence[str] = DEFAULT_INCLUDE) -> list[RawSource]:
    """The blob `REF:path`, or every included file below the tree `REF:path`."""
    root = repository_root()
    check_ref(ref, root)
    tree_path = _tree_path(root, path)
    listing = run_git(["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", ref, "--", tree_path or "."], root)
    entries = []
    for record in listing.split(b"\0"):
        if not record:
            continue
        meta, _, name = record.partition(b"\t")
        if meta.split()[1] == b"blob":
            entries.append(name.decode("utf-8", "surrogateescape"))
    exact = [e for e in entries if e == tree_path]
    if exact:
        return [RawSource(f"{ref}:{path}", run_git(["cat-file", "blob", f"{ref}:{tree_path}"], root), True)]
    prefix = f"{tree_path}/" if tree_path else ""
    below = [e for e in entries if e.startswith(prefix)]
    if not below:
        raise SourceError(f"{ref}:{path}: no such file or folder at that revision")
    out = []
    excluded = tuple(DEFAULT_EXCLUDE)
    for entry in sorted(below):
        relative = PurePosixPath(entry[len(prefix) :])
        if not matches_any(Path(relative.name), include) or any(
            matches_any(Path(part), excluded) for part in relative.parts[:-1]
        ):
            continue
        shown = f"{ref}:{(PurePosixPath(path) / relative).as_posix()}"
        out.append(RawSource(shown, run_git(["cat-file", "blob", f"{ref}:{entry}"], root), False))
    return out


def read_disk_side(spec: str, include: Sequence[str] = DEFAULT_INCLUDE) -> list[RawSource]:
    from schemalint.loaders import LoadError

    if not os.path.exists(spec):
        raise SourceError(f"no such file or directory: {spec}")
    out = []
    for source in discover([spec], include, ()):
        try:
            raw = read_source(source.path)
        except LoadError as error:
            raise SourceError(f"{source.path}: {error.message}") from None
        out.append(RawSource(display_path(source.path), raw, source.explicit))
    return out


def read_side(spec: str, include: Sequence[str] = DEFAULT_INCLUDE) -> list[RawSource]:
    """One side of a diff as the user named it: a path, or `REF:path`."""
    git_spec = split_git_spec(spec)
    if git_spec is not None:
        return read_git_side(*git_spec, include=include)
    return read_disk_side(spec, include)
