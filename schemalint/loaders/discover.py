"""Finding the files to lint (walk folders, apply include/exclude globs) and reading one with the
loader its file name calls for."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from schemalint.loaders import Document, LoadError
from schemalint.paths import matches_any

FORMAT_BY_SUFFIX = {
    ".json": "json",
    ".jsonl": "jsonl",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".py": "python",
    ".pyi": "python",
}
DEFAULT_INCLUDE = ("*.json", "*.yaml", "*.yml", "*.py")
DEFAULT_EXCLUDE = (
    ".git",
    ".hg",
    ".svn",
    ".venv",
    "venv",
    "node_modules",
    "__pycache__",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".tox",
    ".schemalint_cache",
    "build",
    "dist",
)
#: larger files are reported, not read (100k generated tools are about 100 MB)
MAX_FILE_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True)
class SourceFile:
    path: Path
    #: named on the command line (a file without tools is then SL003, not silently skipped)
    explicit: bool


def source_format(path: Path | str) -> str:
    """json, yaml or python; other extensions are read as JSON when they look like it, else YAML."""
    return FORMAT_BY_SUFFIX.get(Path(path).suffix.lower(), "auto")


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


def read_source(path: Path) -> bytes:
    """The file's bytes; a FIFO, device or oversized file is refused before anything is read."""
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise LoadError("is a directory")
        if not stat.S_ISREG(info.st_mode):
            raise LoadError("not a regular file (a pipe, socket or device is never read)")
        if info.st_size > MAX_FILE_BYTES:
            raise LoadError(
                f"file is {info.st_size // 2**20} MiB; schemalint reads files up to {MAX_FILE_BYTES // 2**20} MiB"
            )
        return path.read_bytes()
    except OSError as error:
        raise LoadError(f"cannot read: {error.strerror or error}") from None


def parse_document(text: str, path: str) -> Document:
    """Load `text` with the loader its file name calls for."""
    from schemalint.loaders import jsonyaml

    kind = source_format(path)
    if kind == "python":
        from schemalint.loaders.python import load_python

        return load_python(text, path)
    if kind == "jsonl":
        return jsonyaml.load_jsonl(text, path)
    if kind == "json" or (kind == "auto" and text.lstrip("\ufeff \t\r\n")[:1] in ("{", "[")):
        return jsonyaml.load_json(text, path)
    return jsonyaml.load_yaml(text, path)
