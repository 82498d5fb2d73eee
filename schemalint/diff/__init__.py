"""Breaking-change detection: `diff(old, new)` compares two versions of a set of tool definitions.

Pure with respect to the terminal: reads files (and git blobs, read-only) and returns diagnostics
SL901-SL916 (plus SL002 when a side does not parse). The rules' documentation and metadata live in
`schemalint/rules/sl9NN_*.py`; the classification lives here and in `compare.py`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from schemalint.config import Config
from schemalint.diagnostics import Diagnostic
from schemalint.diff.compare import Change, Side, canonical, compare_schemas, show
from schemalint.diff.matching import Matching, Pairing, match_tools
from schemalint.diff.sources import RawSource, SourceError, read_side
from schemalint.engine import ConfigResolver, LintOptions, LintResult, SourceResult, load_source, locate
from schemalint.loaders import Document
from schemalint.model import Severity, Tool
from schemalint.paths import split_git_spec
from schemalint.rules import rule_class

__all__ = ["SourceError", "compare_tools", "diff", "diff_sources", "load_side", "run_diff"]

_EMPTY_PARAMETERS = {"type": "object", "properties": {}}


def diff(
    old_sources: str | Sequence[str], new_sources: str | Sequence[str], options: LintOptions | None = None
) -> list[Diagnostic]:
    """The changes from OLD to NEW as diagnostics. Each side: file, folder or `REF:path` (or several)."""
    return run_diff(old_sources, new_sources, options).diagnostics


def run_diff(
    old_sources: str | Sequence[str], new_sources: str | Sequence[str], options: LintOptions | None = None
) -> LintResult:
    """Like diff(), with the loaded files (their documents give the text reporter its excerpts)."""
    options = options or LintOptions()
    config = ConfigResolver(options).for_path(Path.cwd() / "_")
    old = load_side(old_sources, config)
    new = load_side(new_sources, config)
    enabled = config.rule_set.enabled
    diagnostics = [d for s in (*old, *new) for d in s.diagnostics if d.code in enabled]
    diagnostics += diff_sources(old, new, config)
    diagnostics.sort(key=Diagnostic.sort_key)
    return LintResult(diagnostics, [*old, *new])


def load_side(sources: str | Sequence[str], config: Config) -> list[SourceResult]:
    """Read and parse one side; raises SourceError when a side cannot be read at all."""
    specs = [sources] if isinstance(sources, str) else sources
    return load_raw([raw for spec in specs for raw in read_side(spec, config.include)], config)


def load_raw(raw: Iterable[RawSource], config: Config) -> list[SourceResult]:
    # files without tools are skipped silently: a side may legitimately hold none (all tools removed)
    return [load_source(r.path, r.text, config, r.explicit, skip_non_tool_files=True) for r in raw]


def diff_sources(
    old: Sequence[SourceResult],
    new: Sequence[SourceResult],
    config: Config,
    same_files: Mapping[str, str] | None = None,
) -> list[Diagnostic]:
    """The change findings between two loaded sides, placed in their files and filtered by `config`.

    `same_files` maps an old file to its new version (git renames); by default a file is its namesake
    on the other side (`REF:path` and `path`), or the one file of each side."""
    rules = config.rule_set
    old_tools = [tool for source in old for tool in source.tools]
    new_tools = [tool for source in new for tool in source.tools]
    documents = {s.path: s.document for s in (*old, *new)}
    files = same_files if same_files is not None else _namesakes(old, new)
    diagnostics: list[Diagnostic] = []
    seen: set[tuple[str, str, str, str]] = set()
    for change, tool in compare_tools(old_tools, new_tools, files):
        if change.code not in rules.enabled:
            continue
        identity = (change.code, change.path, change.pointer, change.message)
        if identity in seen:  # one $def reached through two parameters is reported once
            continue
        seen.add(identity)
        rule = rule_class(change.code)
        diagnostics.append(
            Diagnostic(
                code=rule.code,
                slug=rule.slug,
                severity=rules.severities.get(rule.code) or change.severity or rule.severity,
                message=change.message,
                path=change.path,
                span=locate(documents.get(change.path), change.pointer, change.key),
                pointer=change.pointer,
                tool=tool,
                data=change.data,
            )
        )
    return _unsuppressed(diagnostics, documents, config, rules.enabled)


def _unsuppressed(
    diagnostics: Sequence[Diagnostic], documents: Mapping[str, Document | None], config: Config, enabled: frozenset[str]
) -> list[Diagnostic]:
    """Drop what per-file-ignores and disable comments silence (a removal: the old file's comments)."""
    from schemalint.suppression import Suppressions

    by_path: dict[str, list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        by_path.setdefault(diagnostic.path, []).append(diagnostic)
    # unused-suppression reporting (SL001) belongs to `check`, which sees every rule's findings
    suppressions = Suppressions(report_unused_ignores=False)
    enabled = enabled - {"SL001"}
    return [
        d
        for path, found in by_path.items()
        for d in suppressions.filter(found, documents.get(path), config, path, enabled)
    ]


def _namesakes(old: Sequence[SourceResult], new: Sequence[SourceResult]) -> dict[str, str]:
    old_paths = [s.path for s in old if s.tools]
    new_paths = [s.path for s in new if s.tools]
    if len(old_paths) == len(new_paths) == 1:
        return {old_paths[0]: new_paths[0]}
    present = set(new_paths)
    names = {path: (split_git_spec(path) or ("", path))[1] for path in old_paths}
    return {path: name for path, name in names.items() if name in present}


def compare_tools(
    old_tools: Sequence[Tool], new_tools: Sequence[Tool], same_files: Mapping[str, str] | None = None
) -> list[tuple[Change, str | None]]:
    """Every change between two tool lists, each with the name of the tool it concerns; with
    `same_files`, tools pair within a file first (match_tools)."""
    matching = match_tools(old_tools, new_tools, same_files)
    out: list[tuple[Change, str | None]] = []
    for tool in matching.removed:
        out.append((_presence_change(tool, removed=True), tool.name))
    last_kept: dict[str, int] = {}  # per new file: the position of the last tool that was there before
    for pairing in matching.pairs:
        last_kept[pairing.new.path] = max(last_kept.get(pairing.new.path, -1), pairing.new.index)
    for tool in matching.added:
        change = _presence_change(tool, removed=False)
        if tool.index < last_kept.get(tool.path, -1):
            change.message += " (inserted before existing tools: the prompt cache misses; append new tools at the end)"
            change.data["before_existing"] = True
        out.append((change, tool.name))
    for pairing in matching.pairs:
        for change in _pair_changes(pairing):
            change.path = pairing.old.path if change.side == "old" else pairing.new.path
            out.append((change, pairing.new.name))
    out.extend(_order_changes(matching))
    return out


def _presence_change(tool: Tool, removed: bool) -> Change:
    """SL901 at the name in the old file, or SL916 at the name in the new file."""
    pointer = tool.name_pointer or tool.pointer
    if removed:
        message = f"tool `{tool.name}` was removed; calls to it fail"
        data = {"tool": tool.name, "old": tool.name, "new": None}
        return Change("SL901", message, "old", pointer, data=data, path=tool.path)
    data = {"tool": tool.name, "old": None, "new": tool.name}
    return Change("SL916", f"new tool `{tool.name}`", "new", pointer, data=data, path=tool.path)


def _pair_changes(pairing: Pairing) -> list[Change]:
    old, new = pairing.old, pairing.new
    name = new.name or ""
    changes: list[Change] = []
    if pairing.renamed:
        changes.append(
            Change(
                "SL902",
                f"tool `{old.name}` was renamed to `{new.name}` (schemas {pairing.similarity:.0%} identical); "
                f"calls to `{old.name}` fail",
                "new",
                new.name_pointer or new.pointer,
                data={"tool": name, "old": old.name, "new": new.name, "similarity": pairing.similarity},
            )
        )
    if old.description != new.description:
        verb = "added" if old.description is None else "removed" if new.description is None else "changed"
        side: Side = "old" if new.description is None else "new"
        holder = old if side == "old" else new
        changes.append(
            Change(
                "SL909",
                f"`{name}`: tool description {verb}; tool choice may shift: re-run the evals",
                side,
                holder.description_pointer or holder.pointer,
                data={"tool": name, "parameter": None, "old": old.description, "new": new.description},
            )
        )
    annotation_change = _annotation_change(old, new)
    if annotation_change is not None:
        changes.append(annotation_change)
    changes += compare_schemas(
        name,
        old.parameters if old.parameters is not None else _EMPTY_PARAMETERS,
        old.parameters_pointer or old.pointer,
        new.parameters if new.parameters is not None else _EMPTY_PARAMETERS,
        new.parameters_pointer or new.pointer,
    )
    return changes + _output_changes(old, new, name)


def _output_changes(old: Tool, new: Tool, name: str) -> list[Change]:
    if old.output_schema is None:
        return []  # a new outputSchema promises more than before: nothing breaks
    if new.output_schema is None:
        message = f"`{name}`: the output schema was removed; callers that read structured output break"
        data = {"tool": name, "parameter": None, "old": old.output_schema, "new": None}
        return [Change("SL915", message, "old", old.output_pointer or old.pointer, key=True, data=data)]
    return compare_schemas(
        name, old.output_schema, old.output_pointer or "", new.output_schema, new.output_pointer or "", True
    )


def _read_only(annotations: dict[str, object]) -> bool:
    return annotations.get("readOnlyHint") is True


def _destructive(annotations: dict[str, object]) -> bool:
    """MCP defaults: a tool that is not read-only is destructive unless `destructiveHint` says false."""
    return not _read_only(annotations) and annotations.get("destructiveHint", True) is not False


def _annotation_change(old: Tool, new: Tool) -> Change | None:
    before = dict(old.annotations or {})
    after = dict(new.annotations or {})
    if canonical(before) == canonical(after):
        return None
    name = new.name or ""
    keys = sorted(k for k in before.keys() | after.keys() if canonical(before.get(k)) != canonical(after.get(k)))
    details = ", ".join(
        f"{k}: {show(before.get(k)) if k in before else 'unset'} -> {show(after.get(k)) if k in after else 'unset'}"
        for k in keys
    )
    reasons = []
    if _read_only(before) and not _read_only(after):
        reasons.append("it stopped being read-only")
    if not _destructive(before) and _destructive(after):
        reasons.append("it became destructive")
    severity = Severity.ERROR if reasons else None
    message = f"`{name}`: annotations changed ({details})"
    if reasons:
        message += f": {' and '.join(reasons)}; clients that auto-approve it must ask again"
    side: Side = "new" if new.annotations_pointer is not None or old.annotations_pointer is None else "old"
    holder = new if side == "new" else old
    return Change(
        "SL914",
        message,
        side,
        holder.annotations_pointer or holder.pointer,
        severity=severity,
        data={"tool": name, "parameter": None, "old": old.annotations, "new": new.annotations, "changed": keys},
    )


def _order_changes(matching: Matching) -> list[tuple[Change, str | None]]:
    """SL912 per file: the tools that share a file in both versions come in a different order.

    Order across files is an artifact of how a folder is walked, so it is not compared.
    """
    groups: dict[tuple[str, str], list[Pairing]] = {}
    for pairing in matching.pairs:
        groups.setdefault((pairing.old.path, pairing.new.path), []).append(pairing)
    out: list[tuple[Change, str | None]] = []
    for pairs in groups.values():
        in_old_order = sorted(pairs, key=lambda p: p.old.index)
        old_position = {id(p.new): i for i, p in enumerate(in_old_order)}
        in_new_order = sorted(pairs, key=lambda p: p.new.index)
        sequence = [old_position[id(p.new)] for p in in_new_order]
        if sequence == sorted(sequence):
            continue
        kept = _longest_increasing(sequence)
        moved = [p.new for i, p in enumerate(in_new_order) if i not in kept]
        first = moved[0]
        more = f" and {len(moved) - 1} more" if len(moved) > 1 else ""
        message = (
            f"tool order changed (`{first.name}` moved{more}); the tool list is the start of the prompt, "
            "so the provider's prompt cache is invalidated and the tools hash (`schemalint hash`) changes"
        )
        data = {
            "tool": first.name,
            "old": [p.old.name for p in in_old_order],
            "new": [p.new.name for p in in_new_order],
            "moved": [t.name for t in moved],
        }
        change = Change("SL912", message, "new", first.name_pointer or first.pointer, data=data, path=first.path)
        out.append((change, first.name))
    return out


def _longest_increasing(sequence: Sequence[int]) -> set[int]:
    """Indexes of one longest strictly increasing subsequence (patience sorting, O(n log n))."""
    import bisect

    tails: list[int] = []
    tail_index: list[int] = []
    previous = [-1] * len(sequence)
    for i, value in enumerate(sequence):
        slot = bisect.bisect_left(tails, value)
        if slot == len(tails):
            tails.append(value)
            tail_index.append(i)
        else:
            tails[slot] = value
            tail_index[slot] = i
        previous[i] = tail_index[slot - 1] if slot else -1
    out: set[int] = set()
    i = tail_index[-1] if tail_index else -1
    while i != -1:
        out.add(i)
        i = previous[i]
    return out
