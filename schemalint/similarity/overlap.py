"""SL504's lexical comparison: tools with nearly the same parameter names and similar names.

A pair is reported when both Jaccard overlaps reach their thresholds, parameter names and name
words (verbs set aside), unless the names say the jobs differ (`different_jobs`). Candidates come
from prefix filtering on both at once. With a set's words ordered rarest first, two sets whose
Jaccard overlap is at least t share one of the first |s| - ceil(t*|s|) + 1 words of each (the
probing prefix); when the sets are visited from the smallest up, the earlier (smaller) one's first
|s| - ceil(2t/(1+t)*|s|) + 1 words suffice (the indexing prefix). A tool is indexed under every
(parameter, name word) pair of its prefixes, so only tools sharing a rare parameter *and* a rare
name word are ever compared: 10k tools named `get_order_17`, `get_order_18`, ... that all take
`order_id` stay fast. Every candidate is then checked exactly, so the pairs found are those of
comparing every pair.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Any, NamedTuple

from schemalint.similarity.actions import (
    VERBS,
    are_opposite,
    are_synonyms,
    identifier_words,
    normalized_identifier,
    opposite_actions,
    tool_action,
)

#: keeps ceil(t * n) from rounding up a product such as 0.7 * 10 = 7.000000000000001
_EPSILON = 1e-9


@dataclass(frozen=True)
class ParameterOverlap:
    first: int
    second: int
    parameter_overlap: float
    name_similarity: float
    shared: tuple[str, ...]


class NameWords(NamedTuple):
    """A tool name's words, those of them that name its object, and the last of these (the head:
    `list` in `create_task_list`).

    Named tuples, this and `_Candidate`, not frozen dataclasses: one is built for every tool of a
    set, and a frozen dataclass's __init__ sets each field through object.__setattr__ (3x slower)."""

    words: frozenset[str]
    objects: frozenset[str]
    head: str


class _Candidate(NamedTuple):
    """What the comparison needs of one tool, computed once."""

    name: str
    description: str
    parameters: frozenset[str]
    name_words: NameWords


def property_keys(parameters: Any) -> tuple[str, ...]:
    """The keys of the parameters' properties, as written."""
    if not isinstance(parameters, Mapping) or not isinstance(parameters.get("properties"), Mapping):
        return ()
    return tuple(map(str, parameters["properties"]))


def parameter_names(parameters: Any) -> frozenset[str]:
    """The names of the parameters' properties, normalised (`userId` = `user_id`)."""
    return frozenset(map(normalized_identifier, property_keys(parameters)))


#: a number stuck to a word (`analysis1`, `ride2`): a numbered copy of a tool names the same thing
_NUMBERED = re.compile(r"(?<=[a-z])[0-9]+$")


@lru_cache(maxsize=65536)
def name_words(name: str) -> NameWords:
    """The name's words; its object words are those that are not verbs, and a verb that follows an
    object word after the name's first verb, since a name has one action (`list` in `create_task_list`).
    A dotted namespace names a thing, never the action (`store` in `store.find_nearby`)."""
    words = tuple(_NUMBERED.sub("", word) for word in identifier_words(name))
    namespace = len(identifier_words(name.rpartition(".")[0]))
    first_verb = next((i for i, word in enumerate(words) if word in VERBS and i >= namespace), len(words))
    objects = [
        word
        for i, word in enumerate(words)
        if word not in VERBS or i < namespace or (i > first_verb and words[i - 1] not in VERBS)
    ]
    if namespace:  # the head is what the last segment acts on; none there: no head (`currency_exchange.convert`)
        head = next((word for i, word in reversed(list(enumerate(words))) if i >= namespace and word in objects), "")
        return NameWords(frozenset(words), frozenset(objects), head)
    return NameWords(frozenset(words), frozenset(objects), (objects or words or ("",))[-1])


def _compared_words(left: NameWords, right: NameWords) -> tuple[frozenset[str], frozenset[str]]:
    """Object words when both names have some, else all words."""
    if left.objects and right.objects:
        return left.objects, right.objects
    return left.words, right.words


def different_jobs(left: str, right: str) -> bool:
    """Whether two names with much in common still say their tools do different jobs: each leads
    with a verb the other lacks, synonyms aside (`create_contact` / `update_contact`); a word of one
    undoes a word of the other (`install_cert` / `uninstall_cert`); each has an object word the other
    lacks (`list_access_logs` / `list_audit_logs`; synonyms are SL502's to weigh); each names an HTTP
    method the other lacks (`http_put` / `http_patch`); or the longer one ends on an object word the other
    lacks, a part of that object (`get_task_list` / `get_task`)."""
    left_shape, right_shape = name_words(left), name_words(right)
    left_words, right_words = _compared_words(left_shape, right_shape)
    if left_words <= right_words:
        shorter, longer = left_words, right_shape
    elif right_words <= left_words:
        shorter, longer = right_words, left_shape
    else:
        return True
    only_left, only_right = left_shape.words - right_shape.words, right_shape.words - left_shape.words
    return (
        (longer.head not in shorter and bool(longer.head))
        or not (only_left.isdisjoint(_HTTP_METHODS) or only_right.isdisjoint(_HTTP_METHODS))
        or _other_verbs(left, right)
        or any(are_opposite(a, b) for a in only_left for b in only_right)
    )


def _other_verbs(left: str, right: str) -> bool:
    """Whether each name leads with a verb the other lacks, synonyms aside."""
    left_verb, right_verb = _first_verb(left), _first_verb(right)
    if left_verb is None or right_verb is None:
        return False
    if are_synonyms(left_verb, right_verb):
        return False
    return left_verb not in identifier_words(right) and right_verb not in identifier_words(left)


#: HTTP methods name different requests even where their verbs mean much the same: `http_put` replaces,
#: `http_patch` edits, and the API decides which one a call needs
_HTTP_METHODS = frozenset(("get", "post", "put", "patch", "delete", "head"))


def _first_verb(name: str) -> str | None:
    """The first verb after any dotted namespace."""
    return next((word for word in identifier_words(name.rpartition(".")[2]) if word in VERBS), None)


def jaccard(left: frozenset[str], right: frozenset[str]) -> float:
    shared = len(left & right)  # |A | B| = |A| + |B| - |A & B|: one set built, not two
    return shared / (len(left) + len(right) - shared)


def name_similarity(left: str, right: str) -> float:
    """Jaccard overlap of the names' object words (verbs set aside; all words when only verbs)."""
    left_words, right_words = _compared_words(name_words(left), name_words(right))
    if not left_words or not right_words:
        return 0.0
    return jaccard(left_words, right_words)


def overlapping_parameter_pairs(
    items: Sequence[tuple[str | None, str | None, Any]],
    min_overlap: float,
    min_name_similarity: float,
    min_parameters: int,
) -> list[ParameterOverlap]:
    """The pairs (earlier, later) of `(name, description, parameters)` items that reach both
    thresholds, ordered by the later item, then the earlier one."""
    tools: dict[int, _Candidate] = {}
    fewest = max(1, min_parameters)
    for position, (name, description, parameters) in enumerate(items):
        names = parameter_names(parameters)
        if name and len(names) >= fewest:  # unnamed tools are SL103's business
            tools[position] = _Candidate(name, description or "", names, name_words(name))
    found = []
    for first, second in _candidate_pairs(tools, min_overlap, min_name_similarity):
        pair = _compare(first, second, tools[first], tools[second], min_overlap, min_name_similarity)
        if pair is not None:
            found.append(pair)
    return sorted(found, key=lambda pair: (pair.second, pair.first))


def _compare(
    first: int,
    second: int,
    left: _Candidate,
    right: _Candidate,
    min_overlap: float,
    min_name_similarity: float,
) -> ParameterOverlap | None:
    overlap = jaccard(left.parameters, right.parameters)
    if overlap < min_overlap or left.name == right.name:
        return None  # duplicate names are SL104's business
    left_words, right_words = _compared_words(left.name_words, right.name_words)
    similarity = jaccard(left_words, right_words) if left_words and right_words else 0.0
    if similarity < min_name_similarity or different_jobs(left.name, right.name):
        return None
    if opposite_actions(tool_action(left.name, left.description), tool_action(right.name, right.description)):
        return None
    return ParameterOverlap(first, second, overlap, similarity, tuple(sorted(left.parameters & right.parameters)))


def _candidate_pairs(
    tools: Mapping[int, _Candidate], min_overlap: float, min_name_similarity: float
) -> set[tuple[int, int]]:
    """A superset of the pairs reaching both thresholds (each pair as (smaller, larger) position)."""
    parameters = _rarest_first({i: t.parameters for i, t in tools.items()})
    parameter_prefix = {i: _prefix(ordered, min_overlap) for i, ordered in parameters.items()}
    if min_name_similarity <= 0:  # names rule nothing out: pairs sharing a prefix parameter
        keys = {i: [(p,) for p in prefix] for i, prefix in parameter_prefix.items()}
        return _join(sorted(tools), keys, keys)

    # both names have object words: visit the smallest sets first, index the shorter prefixes
    objects = _rarest_first({i: t.name_words.objects for i, t in tools.items() if t.name_words.objects})
    order = sorted(objects, key=lambda i: (len(objects[i]), i))
    index_threshold = 2 * min_name_similarity / (1 + min_name_similarity)
    pairs = _join(
        order,
        {i: list(product(parameter_prefix[i], _prefix(objects[i], index_threshold))) for i in order},
        {i: list(product(parameter_prefix[i], _prefix(objects[i], min_name_similarity))) for i in order},
    )

    # a name made of verbs only (`get`, `list_get`) is compared by all its words, with any tool
    # sharing a prefix parameter and a word with it
    verbs_only = [i for i, t in tools.items() if not t.name_words.objects and t.name_words.words]
    if verbs_only:
        by_parameter = defaultdict(list)
        for position, prefix in parameter_prefix.items():
            for name in prefix:
                by_parameter[name].append(position)
        for position in verbs_only:
            words = tools[position].name_words.words
            for name in parameter_prefix[position]:
                for other in by_parameter[name]:
                    if other != position and words & tools[other].name_words.words:
                        pairs.add((other, position) if other < position else (position, other))
    return pairs


def _rarest_first(sets: Mapping[int, frozenset[str]]) -> dict[int, list[str]]:
    """Each set's words ordered rarest first across all the sets (ties by the word): one global order."""
    frequency = Counter(word for words in sets.values() for word in words)
    rank = {word: order for order, word in enumerate(sorted(frequency, key=lambda w: (frequency[w], w)))}
    return {position: sorted(words, key=rank.__getitem__) for position, words in sets.items()}


def _prefix(ordered: list[str], threshold: float) -> list[str]:
    """The first words of a set, one of which a set reaching Jaccard `threshold` with it must share."""
    required = math.ceil(threshold * len(ordered) - _EPSILON) if threshold > 0 else 0
    return ordered[: max(0, len(ordered) - required + 1)]


def _join(
    order: Iterable[int],
    index_keys: Mapping[int, Sequence[Hashable]],
    probe_keys: Mapping[int, Sequence[Hashable]],
    probe_after_indexing: bool = False,
) -> set[tuple[int, int]]:
    """Pairs of positions whose probe keys meet an index key of the other. Positions are visited in
    `order`, each probing those visited before it; with `probe_after_indexing`, all are indexed
    first and the probing positions meet every other position."""
    index: dict[Hashable, list[int]] = defaultdict(list)
    pairs: set[tuple[int, int]] = set()

    def probe(position: int) -> None:
        for key in probe_keys.get(position, ()):
            for other in index.get(key, ()):
                if other != position:
                    pairs.add((other, position) if other < position else (position, other))

    for position in order:
        if not probe_after_indexing:
            probe(position)
        for key in index_keys[position]:
            index[key].append(position)
    if probe_after_indexing:
        for position in probe_keys:
            probe(position)
    return pairs
