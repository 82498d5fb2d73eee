"""Path helpers shared by every layer: resolving, showing and matching paths, naming git blobs."""

from __future__ import annotations

import contextlib
import fnmatch
import os
from collections.abc import Sequence
from pathlib import Path


def resolve_path(path: Path) -> Path:
    """Path.resolve(), but a symlink loop or a vanished file gives the absolute path instead of raising."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def display_path(path: Path) -> str:
    """Relative to the working directory when below it, always with forward slashes."""
    try:
        return resolve_path(path).relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def matches_any(path: Path, patterns: Sequence[str], root: Path | None = None) -> bool:
    """A glob matches the file name, any path component, or the path relative to `root`."""
    if not patterns:
        return False
    candidates = [path.name, path.as_posix(), *path.parts]
    if root is not None:
        with contextlib.suppress(ValueError):  # outside the root: the other candidates still apply
            candidates.append(resolve_path(path).relative_to(root).as_posix())
    return any(fnmatch.fnmatchcase(c, p) for p in patterns for c in candidates)


def split_git_spec(spec: str) -> tuple[str, str] | None:
    """(`ref`, `path`) for `REF:path`; None for a plain path (including one that exists on disk)."""
    if os.path.exists(spec) or ":" not in spec:
        return None
    ref, _, path = spec.partition(":")
    if not ref or (len(ref) == 1 and ref.isalpha() and path.startswith(("\\", "/"))):
        return None
    return ref, path
