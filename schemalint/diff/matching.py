"""Pairing the old tools with the new ones: by name, then unmatched pairs with near-identical schemas
are a rename rather than a removal plus an addition."""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from schemalint.model import JSON, Tool, is_mapping, schema_types
from schemalint.tools_hash import canonical_json as canonical

#: schema keys that say nothing about what a call looks like
_PROSE_KEYS = frozenset({"description", "title", "examples", "$comment"})
#: share of identical schema facts (Dice) for two differently named tools to count as one renamed tool
RENAME_SCHEMA_SIMILARITY = 0.8
#: ... or a lower share when the descriptions are near-identical too
RENAME_SCHEMA_SIMILARITY_WITH_DESCRIPTION = 0.6
RENAME_DESCRIPTION_SIMILARITY = 0.8
#: a schema with fewer facts than this is weak evidence alone; descriptions must agree too
_FEW_FACTS = 4


@dataclass(frozen=True)
class Pairing:
    old: Tool
    new: Tool
    renamed: bool
    similarity: float = 1.0


@dataclass
class Matching:
    pairs: list[Pairing]
    removed: list[Tool]
    added: list[Tool]


def _facts(value: JSON, path: str = "") -> Iterator[str]:
    """Leaf facts `path=value` of a schema, list positions ignored, prose left out."""
    stack: list[tuple[str, JSON]] = [(path, value)]
    while stack:
        where, node = stack.pop()
        if isinstance(node, Mapping):
            if not node:
                yield f"{where}={{}}"
            for key, child in node.items():
                if key not in _PROSE_KEYS:
                    stack.append((f"{where}/{key}", child))
        elif isinstance(node, list):
            if not node:
                yield f"{where}=[]"
            stack.extend((f"{where}/*", child) for child in node)
        else:
            yield f"{where}={canonical(node)}"


def fingerprint(tool: Tool) -> frozenset[str]:
    facts = set(_facts(tool.parameters if tool.parameters is not None else {}, "in"))
    if tool.output_schema is not None:
        facts.update(_facts(tool.output_schema, "out"))
    return frozenset(facts)


def schema_similarity(a: frozenset[str], b: frozenset[str]) -> float:
    """Dice coefficient of the two fact sets: 1.0 for identical schemas."""
    if not a and not b:
        return 1.0
    return 2 * len(a & b) / (len(a) + len(b))


def description_similarity(a: str | None, b: str | None) -> float:
    if not a or not b:
        return 1.0 if a == b else 0.0
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for bound in (matcher.real_quick_ratio, matcher.quick_ratio):  # cheap upper bounds first
        upper = bound()
        if upper < RENAME_DESCRIPTION_SIMILARITY:
            return upper
    return matcher.ratio()


def _by_name(old_tools: Sequence[Tool], new_tools: Sequence[Tool]) -> list[Pairing]:
    """Pairs by name, in order, so duplicated names pair up one by one (unnamed tools are SL201/SL103's)."""
    by_name: dict[str, list[Tool]] = {}
    for tool in new_tools:
        if tool.name is not None:
            by_name.setdefault(tool.name, []).append(tool)
    return [
        Pairing(tool, by_name[tool.name].pop(0), renamed=False)
        for tool in old_tools
        if tool.name is not None and by_name.get(tool.name)
    ]


def match_tools(
    old_tools: Sequence[Tool], new_tools: Sequence[Tool], same_files: Mapping[str, str] | None = None
) -> Matching:
    """Tools paired by name within each file and its new version (`same_files`), then across files for
    the tools left over (moved from one file to another), then renames among the rest."""
    pairs: list[Pairing] = []
    for old_path, new_path in (same_files or {}).items():
        pairs += _by_name([t for t in old_tools if t.path == old_path], [t for t in new_tools if t.path == new_path])
    paired = {id(t) for p in pairs for t in (p.old, p.new)}
    pairs += _by_name([t for t in old_tools if id(t) not in paired], [t for t in new_tools if id(t) not in paired])
    paired = {id(t) for p in pairs for t in (p.old, p.new)}
    removed = [t for t in old_tools if t.name is not None and id(t) not in paired]
    added = [t for t in new_tools if t.name is not None and id(t) not in paired]
    renames = _renames(removed, added)
    renamed = {id(t) for p in renames for t in (p.old, p.new)}
    return Matching(
        pairs + renames, [t for t in removed if id(t) not in renamed], [t for t in added if id(t) not in renamed]
    )


def parameter_names(tool: Tool) -> frozenset[str]:
    properties = tool.parameters.get("properties") if isinstance(tool.parameters, Mapping) else None
    return frozenset(properties) if isinstance(properties, Mapping) else frozenset()


def _candidates(removed: Sequence[Tool], added: Sequence[Tool]) -> list[list[int]]:
    """For each removed tool, the added tools that share a top-level parameter name (or, for a tool
    without parameters, the added tools without parameters): a schema that keeps most of its facts
    keeps some parameter, so other pairs cannot reach the threshold. Keeps large sets near-linear."""
    by_name: dict[str, list[int]] = {}
    without: list[int] = []
    for j, tool in enumerate(added):
        names = parameter_names(tool)
        for name in names:
            by_name.setdefault(name, []).append(j)
        if not names:
            without.append(j)
    out = []
    for tool in removed:
        names = parameter_names(tool)
        out.append(sorted({j for name in names for j in by_name.get(name, ())}) if names else without)
    return out


def _renames(removed: Sequence[Tool], added: Sequence[Tool]) -> list[Pairing]:
    if not removed or not added:
        return []
    old_prints = [fingerprint(t) for t in removed]
    new_prints = [fingerprint(t) for t in added]
    # Dice >= t needs the smaller fact set to be at least t / (2 - t) of the larger one
    size_ratio = RENAME_SCHEMA_SIMILARITY_WITH_DESCRIPTION / (2 - RENAME_SCHEMA_SIMILARITY_WITH_DESCRIPTION)
    candidates: list[tuple[float, float, int, int]] = []
    for i, others in enumerate(_candidates(removed, added)):
        old = removed[i]
        for j in others:
            new = added[j]
            sizes = sorted((len(old_prints[i]), len(new_prints[j])))
            if sizes[0] < size_ratio * sizes[1]:
                continue
            score = schema_similarity(old_prints[i], new_prints[j])
            if score < RENAME_SCHEMA_SIMILARITY_WITH_DESCRIPTION:
                continue
            prose = description_similarity(old.description, new.description)
            weak = min(len(old_prints[i]), len(new_prints[j])) < _FEW_FACTS or score < RENAME_SCHEMA_SIMILARITY
            if weak and prose < RENAME_DESCRIPTION_SIMILARITY:
                continue
            candidates.append((score, prose, i, j))
    out: list[Pairing] = []
    used_old: set[int] = set()
    used_new: set[int] = set()
    for score, _, i, j in sorted(candidates, key=lambda c: (-(c[0] + c[1] / 10), c[2], c[3])):
        if i in used_old or j in used_new:
            continue
        used_old.add(i)
        used_new.add(j)
        out.append(Pairing(removed[i], added[j], renamed=True, similarity=round(score, 3)))
    return out


def _branch_types(schema: JSON) -> frozenset[str]:
    if is_mapping(schema) and not isinstance(schema.get("type"), (str, list)) and is_mapping(schema.get("properties")):
        return frozenset({"object"})
    return schema_types(schema)


def match_branches(old: Sequence[JSON], new: Sequence[JSON]) -> list[tuple[int, int]]:
    """Pairs of (old index, new index) of union branches that are one alternative, edited or moved.

    Branches pair by what they share (type, property names and their facts, required keys), never by
    position: reordering alternatives changes nothing. Branches of disjoint types, or with no fact in
    common, stay unpaired (an alternative removed, or one added)."""
    old_facts = [frozenset(_facts(b)) for b in old]
    new_facts = [frozenset(_facts(b)) for b in new]
    scored: list[tuple[float, int, int]] = []
    for i, old_branch in enumerate(old):
        for j, new_branch in enumerate(new):
            old_types, new_types = _branch_types(old_branch), _branch_types(new_branch)
            if old_types and new_types and not old_types & new_types:
                continue
            score = schema_similarity(old_facts[i], new_facts[j])
            if score > 0 or (old_types and old_types == new_types):
                scored.append((score, i, j))
    pairs: list[tuple[int, int]] = []
    used_old: set[int] = set()
    used_new: set[int] = set()
    for _, i, j in sorted(scored, key=lambda s: (-s[0], abs(s[1] - s[2]), s[1], s[2])):
        if i not in used_old and j not in used_new:
            used_old.add(i)
            used_new.add(j)
            pairs.append((i, j))
    return sorted(pairs)
