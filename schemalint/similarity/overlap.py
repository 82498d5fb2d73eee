"""SL504's lexical comparison: tools with nearly the same parameter names and similar names.

Candidates come from prefix filtering: with parameter names ordered rarest first, two sets whose
Jaccard overlap is at least t must share one of the first |s| - ceil(t*|s|) + 1 names of each, so
only tools sharing a rare parameter are ever compared (10k tools stay fast).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from schemalint.similarity.actions import VERBS, opposite_actions, split_identifier, tool_action


@dataclass(frozen=True)
class ParameterOverlap:
    first: int
    second: int
    parameter_overlap: float
    name_similarity: float
    shared: tuple[str, ...]


def parameter_names(parameters: Any) -> frozenset[str]:
    if not isinstance(parameters, Mapping) or not isinstance(parameters.get("properties"), Mapping):
        return frozenset()
    return frozenset("_".join(split_identifier(str(p))) for p in parameters["properties"])


def name_similarity(left: str, right: str) -> float:
    """Jaccard overlap of the names' object words (verbs set aside; all words when only verbs)."""
    left_words, right_words = set(split_identifier(left)), set(split_identifier(right))
    left_objects, right_objects = left_words - VERBS, right_words - VERBS
    if left_objects and right_objects:
        left_words, right_words = left_objects, right_objects
    if not left_words or not right_words:
        return 0.0
    return len(left_words & right_words) / len(left_words | right_words)


def overlapping_parameter_pairs(
    items: Sequence[tuple[str | None, str | None, Any]],
    min_overlap: float,
    min_name_similarity: float,
    min_parameters: int,
) -> list[ParameterOverlap]:
    sets = [parameter_names(parameters) for _, _, parameters in items]
    frequency = Counter(name for names in sets for name in names)
    index: dict[str, list[int]] = defaultdict(list)
    found: list[ParameterOverlap] = []
    for position, names in enumerate(sets):
        if len(names) < max(1, min_parameters):
            continue
        ordered = sorted(names, key=lambda n: (frequency[n], n))
        prefix = ordered[: len(ordered) - math.ceil(min_overlap * len(ordered)) + 1]
        candidates = sorted({other for name in prefix for other in index[name]})
        for name in prefix:
            index[name].append(position)
        for other in candidates:
            pair = _compare(items, sets, other, position, min_overlap, min_name_similarity)
            if pair is not None:
                found.append(pair)
    return found


def _compare(
    items: Sequence[tuple[str | None, str | None, Any]],
    sets: list[frozenset[str]],
    first: int,
    second: int,
    min_overlap: float,
    min_name_similarity: float,
) -> ParameterOverlap | None:
    shared = sets[first] & sets[second]
    overlap = len(shared) / len(sets[first] | sets[second])
    if overlap < min_overlap:
        return None
    (first_name, first_description, _), (second_name, second_description, _) = items[first], items[second]
    if not first_name or not second_name or first_name == second_name:
        return None  # unnamed tools and duplicate names are other rules' business (SL103, SL104)
    similarity = name_similarity(first_name, second_name)
    if similarity < min_name_similarity:
        return None
    if opposite_actions(
        tool_action(first_name, first_description or ""), tool_action(second_name, second_description or "")
    ):
        return None
    return ParameterOverlap(first, second, overlap, similarity, tuple(sorted(shared)))
