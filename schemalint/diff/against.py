"""`schemalint check --against REF`: lint the tool files changed since REF and add their breaking changes.

Changed files are `git diff --name-only REF` plus untracked files (or, with `staged`, `git diff
--cached --name-only REF`, read from the index: what the commit will contain). Tools pair within a
file and its version at REF (git renames followed), then across files for tools that moved. Git is
only read.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from schemalint.diagnostics import Diagnostic
from schemalint.diff import diff_sources, load_raw
from schemalint.diff.sources import RawSource, SourceError, check_ref, repository_root, run_git
from schemalint.engine import ConfigResolver, LintOptions, LintResult, load_source, run_rules
from schemalint.paths import display_path, matches_any


def changed_files(ref: str, root: Path, staged: bool) -> tuple[list[str], dict[str, str]]:
    """Paths (relative to the repository root) that differ between REF and the work tree (or the index),
    and old path -> new path of the files git sees as renamed."""
    command = ["diff", "--name-status", "-M", "-z", *(["--cached"] if staged else []), ref, "--"]
    fields = [f.decode("utf-8", "surrogateescape") for f in run_git(command, root).split(b"\0")]
    names: set[str] = set()
    renames: dict[str, str] = {}
    index = 0
    while index < len(fields) and fields[index]:
        status = fields[index]
        paths = fields[index + 1 : index + (3 if status.startswith(("R", "C")) else 2)]
        names.update(paths)
        if status.startswith("R"):
            renames[paths[0]] = paths[1]
        index += 1 + len(paths)
    if not staged:
        untracked = run_git(["ls-files", "--others", "--exclude-standard", "-z"], root).split(b"\0")
        names.update(n.decode("utf-8", "surrogateescape") for n in untracked if n)
    return sorted(names), renames


#: git's empty tree: what HEAD stands for before the first commit
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


def _resolve(ref: str, root: Path) -> str:
    try:
        check_ref(ref, root)
    except SourceError:
        if ref != "HEAD" or run_git(["rev-list", "-n", "1", "--all"], root).strip():
            raise
        return EMPTY_TREE  # an unborn branch (the first commit): every file is new
    return ref


def lint_against(ref: str, paths: Sequence[str], options: LintOptions, staged: bool = False) -> LintResult:
    """Lint findings for the changed tool files under `paths`, plus the changes since `ref`."""
    root = repository_root()
    ref = _resolve(ref, root)
    resolver = ConfigResolver(options)
    folders = [Path(p).resolve() for p in (paths or (".",))]
    listing = run_git(["ls-tree", "-r", "--name-only", "-z", "--full-tree", ref], root)
    present_at_ref = {n.decode("utf-8", "surrogateescape") for n in listing.split(b"\0") if n}
    old_raw: list[RawSource] = []
    new_sources = []
    changed, renamed = changed_files(ref, root, staged)
    renames = {new: old for old, new in renamed.items()}
    same_files: dict[str, str] = {}  # an old file (REF:path) -> its version now
    for relative in changed:
        absolute = (root / relative).resolve()
        config = resolver.for_path(absolute)
        inside = any(absolute == folder or folder in absolute.parents for folder in folders)
        if not inside or not matches_any(absolute, config.include):
            continue
        if matches_any(absolute, config.exclude, config.root):
            continue
        shown = display_path(absolute)
        if relative in present_at_ref:
            old_raw.append(RawSource(f"{ref}:{shown}", run_git(["cat-file", "blob", f"{ref}:{relative}"], root), True))
        new = _new_version(root, relative, absolute, shown, staged)
        if new is not None:
            new_sources.append(load_source(shown, new.text, config, True, skip_non_tool_files=True))
            before = relative if relative in present_at_ref else renames.get(relative)
            if before is not None:
                same_files[f"{ref}:{display_path(root / before)}"] = shown
    result = run_rules(new_sources)
    config = resolver.for_path(Path.cwd() / "_")
    old_sources = load_raw(old_raw, config)
    enabled = config.rule_set.enabled
    extra = [d for s in old_sources for d in s.diagnostics if d.code in enabled]
    changes = diff_sources(old_sources, new_sources, config, same_files)
    diagnostics: list[Diagnostic] = result.diagnostics + extra + changes
    diagnostics.sort(key=Diagnostic.sort_key)
    return LintResult(diagnostics, [*new_sources, *old_sources])


def _new_version(root: Path, relative: str, absolute: Path, shown: str, staged: bool) -> RawSource | None:
    if staged:
        try:
            return RawSource(shown, run_git(["cat-file", "blob", f":{relative}"], root), True)
        except SourceError:  # deleted in the index
            return None
    if not absolute.is_file():
        return None
    return RawSource(shown, absolute.read_bytes(), True)
