"""Finding the files to lint: walk folders, apply include/exclude globs, pick a loader by extension."""

from __future__ import annotations

import contextlib
import fnmatch
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from schemalint.config import DEFAULT_EXCLUDE

FORMAT_BY_SUFFIX = {
    ".json": "json",
    ".jsonl": "jsonl",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".py": "python",
    ".pyi": "python",
}


@dataclass(frozen=True)
class SourceFile:
    path: Path
    #: named on the command line (a file without tools is then SL003, not silently skipped)
    explicit: bool


def source_format(path: Path | str) -> str:
    """json, yaml or python; other extensions are read as JSON when they look like it, else YAML."""
    return FORMAT_BY_SUFFIX.get(Path(path).suffix.lower(), "auto")


def resolve_path(path: Path) -> Path:
    """Path.resolve(), but a symlink loop or a vanished file gives the absolute path instead of raising."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def matches_any(path: Path, patterns: Sequence[str], root: Path | None = None) -> bool:
    """A glob matches the file name, any path component, or the path relative to `root`."""
    if not patterns:
        return False
    candidates = [path.name, path.as_posix(), *path.parts]
    if root is not None:
        with contextlib.suppress(ValueError):  # outside the root: the other candidates still apply
            candidates.append(resolve_path(path).relative_to(root).as_posix())
    return any(fnmatch.fnmatchcase(c, p) for p in patterns for c in candidates)


def discover(
    paths: Sequence[str], include: Sequence[str], exclude: Sequence[str], root: Path | None = None
) -> Iterator[SourceFile]:
    """Files named explicitly come out as given (unless excluded); folders are walked in sorted order.

    Symlinked folders are not followed, so a symlink loop cannot trap the walk.
    """
    excluded = tuple(DEFAULT_EXCLUDE) + tuple(exclude)
    # files named explicitly come first, so a file also reached through a folder keeps `explicit`
    named_files = [Path(p) for p in paths if not Path(p).is_dir()]
    seen: set[Path] = set()
    for path in named_files:
        if path not in seen and not matches_any(path, tuple(exclude), root):
            seen.add(path)
            yield SourceFile(path, explicit=True)
    for name in paths:
        path = Path(name)
        if path.is_dir():
            for directory, subdirs, files in os.walk(path):
                subdirs[:] = sorted(
                    d
                    for d in subdirs
                    if not matches_any(Path(directory, d), excluded, root) and not Path(directory, d).is_symlink()
                )
                for file_name in sorted(files):
                    file_path = Path(directory, file_name)
                    if not file_path.is_file():  # broken or looping symlinks, pipes, sockets
                        continue
                    if not matches_any(file_path, include, root) or matches_any(file_path, excluded, root):
                        continue
                    if file_path not in seen:
                        seen.add(file_path)
                        yield SourceFile(file_path, explicit=False)
