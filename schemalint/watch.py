"""`check --watch`: the changes to the files a lint reads (watchfiles, imported only here).

The folders of the linted paths are watched (a file's own folder: editors save by writing a new file
and renaming it over the old one, which a watch on the file itself would lose). A change counts when
it is to a tool file (by suffix) or a config file, under a linted folder or a linted file itself.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from schemalint.config import CONFIG_FILES
from schemalint.loaders.discover import DEFAULT_EXCLUDE, FORMAT_BY_SUFFIX


def relevant(path: Path, folders: Sequence[Path], files: Sequence[Path]) -> bool:
    """Whether a change to `path` can change what a lint of `folders` and `files` reports."""
    if path in files:
        return True
    if path.name not in CONFIG_FILES and path.suffix not in FORMAT_BY_SUFFIX:
        return False
    if path.name in CONFIG_FILES and any(f.parent == path.parent for f in files):
        return True
    return any(path.is_relative_to(folder) for folder in folders)


def changes(paths: Sequence[str], stop_event: Any = None) -> Iterator[set[str]]:
    """The changed paths, one set per batch of changes to files that a lint of `paths` reads. The watch
    starts at the first `next` and keeps running between them, so a change made while the caller lints
    is the next batch. KeyboardInterrupt on Ctrl-C; the iterator ends when `stop_event` is set."""
    import watchfiles

    folders = [Path(p).resolve() for p in paths if Path(p).is_dir()]
    files = [Path(p).resolve() for p in paths if not Path(p).is_dir()]
    watched = dict.fromkeys([*folders, *(f.parent for f in files)])

    default = watchfiles.DefaultFilter(ignore_dirs=(*watchfiles.DefaultFilter.ignore_dirs, *DEFAULT_EXCLUDE))

    def lint_filter(change: watchfiles.Change, path: str) -> bool:
        return default(change, path) and relevant(Path(path), folders, files)

    for batch in watchfiles.watch(*watched, watch_filter=lint_filter, stop_event=stop_event, debounce=400):
        yield {path for _, path in batch}
