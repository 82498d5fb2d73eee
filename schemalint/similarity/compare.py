"""Score the confusable pairs of a tool set: embed, find cosine neighbours, apply scoring.py."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from schemalint.math_threads import one_math_thread
from schemalint.similarity import store as store_module
from schemalint.similarity.cache import text_key
from schemalint.similarity.embed import SMALL_SET_TEXTS, Embeddings, ResolvedBackend, embed_texts, note, resolve_backend
from schemalint.similarity.scoring import (
    CALIBRATION,
    PARAMETER_BONUS,
    PairScore,
    ToolView,
    cross_language,
    score_pair,
    tool_view,
)


@dataclass
class SimilarityResult:
    #: (index, index, score) with the first index the smaller, ordered by the later tool
    pairs: list[tuple[int, int, PairScore]] = field(default_factory=list)
    backend: str = "static"
    notice: str | None = None


#: up to this many texts, numpy's BLAS on one thread is faster than on several (below)
SINGLE_THREAD_TEXTS = 20_000


def one_blas_thread_for(count: int) -> None:
    """numpy's OpenBLAS sizes its thread pool once, when numpy is imported: one thread per core,
    which for the matrices of up to `SINGLE_THREAD_TEXTS` texts costs more (thread start-up,
    spin-waiting) than it saves. 1,000 tools on 2 cores, alternating: 1.15 s wall / 1.25 s CPU with
    the default pool, 0.97 s / 0.88 s with one thread. A setting of the user's, or a numpy already
    imported by a host program, is left as it is."""
    if count <= SINGLE_THREAD_TEXTS and "numpy" not in sys.modules:
        one_math_thread(("OPENBLAS_NUM_THREADS",))


def cosine_floor(threshold: float, backend: str) -> float:
    """The lowest cosine whose pair can still reach `threshold` (the score is at most calibrated + bonus)."""
    if threshold <= 0:
        return -2.0
    low, high = CALIBRATION.get(backend, CALIBRATION["static"])
    return low + max(0.0, threshold - PARAMETER_BONUS) * (high - low)


class _BackendChanged(Exception):
    """The vectors came from the static backend, not the one asked for (it could not be loaded)."""


class _LazyEmbeddings:
    """The texts' vectors, read (and embedded) on first use: a warm run may need none."""

    def __init__(self, texts: list[str], settings: Mapping[str, Any], resolved: ResolvedBackend) -> None:
        self.texts = texts
        self.settings = settings
        self.resolved = resolved
        self.model_key = resolved.model_key
        self.loaded: Embeddings | None = None

    def get(self, rows: bool = False) -> Embeddings:
        """The embeddings, as Python rows when `rows` (any size: few cosines will be computed), else
        in the form `embed_texts` picks for the size. Raises _BackendChanged the first time vectors
        come from a fallback model (the callers' floor and store were for the requested one)."""
        if self.loaded is None:
            self.loaded = embed_texts(self.texts, self.settings, self.resolved, rows=rows)
        elif not rows and isinstance(self.loaded.vectors, list) and len(self.texts) > SMALL_SET_TEXTS:
            import numpy as np

            self.loaded.vectors = np.array(self.loaded.vectors, dtype=np.float32)  # the same float32 values
        if self.loaded.model_key != self.model_key:
            self.model_key = self.loaded.model_key
            raise _BackendChanged
        return self.loaded

    def backend(self) -> tuple[str, str | None]:
        """The backend's name and notice (as they will be once vectors are read, when none were)."""
        if self.loaded is None:
            return self.resolved.choice.backend.name, self.resolved.choice.notice
        return self.loaded.backend, self.loaded.notice


def similar_pairs(
    items: Sequence[tuple[str | None, str | None, Any]],
    settings: Mapping[str, Any],
    threshold: float,
    top_k: int | None,
) -> SimilarityResult:
    """Pairs of `(name, description, parameters)` items whose final score reaches `threshold`; read
    back from the cache when the set is unchanged since it was last scored."""
    from schemalint.similarity.scored_pairs import ScoredPairsStore, set_digest, tool_digests

    if len(items) < 2:
        return SimilarityResult()
    resolved = resolve_backend(settings)
    small = len(items) < store_module.MIN_STORED_SET
    remembered = ScoredPairsStore(None if small else resolved.cache_dir, resolved.model_key)
    tools = tool_digests(items)
    digest = set_digest(tools, threshold, top_k)
    pairs = remembered.read(tools, digest)
    if pairs is not None:
        note(resolved.choice.notice)  # as embed_texts would have
        return SimilarityResult(pairs, resolved.choice.backend.name, resolved.choice.notice)
    result = _scored_pairs(items, settings, resolved, threshold, top_k, lambda: remembered.nearest(tools), tools)
    if result.backend == resolved.choice.backend.name and top_k is not None:  # not a fallback's, nor every pair
        remembered.write(tools, digest, result.pairs)
    return result


def _scored_pairs(
    items: Sequence[tuple[str | None, str | None, Any]],
    settings: Mapping[str, Any],
    resolved: ResolvedBackend,
    threshold: float,
    top_k: int | None,
    known_scores: Callable[[], dict[tuple[bytes, bytes], PairScore]],
    tools: list[bytes],
) -> SimilarityResult:
    """Embed, find the candidates, score them. `known_scores()`: scores of an earlier run by the pair's
    tool digests (`tools`), reused for a pair of the same tools with the same cosine."""
    views = [tool_view(name, description, parameters) for name, description, parameters in items]
    texts = [v.embedding_text() for v in views]
    mixed = len({v.is_cjk for v in views}) == 2
    if mixed:  # Chinese and English descriptions side by side: names are compared too
        texts += [v.name_text() for v in views]
    one_blas_thread_for(len(texts))
    embeddings = _LazyEmbeddings(texts, settings, resolved)
    while True:
        try:
            candidates, name_cosines = _candidates(views, texts, embeddings, threshold, top_k, mixed)
            break
        except _BackendChanged:
            continue  # again, with the floor and the stored neighbours of the model used
    backend, notice = embeddings.backend()
    if embeddings.loaded is None:
        note(notice)  # as embed_texts would have
    known = known_scores() if not mixed and backend == resolved.choice.backend.name else {}  # (not name cosines)
    result = SimilarityResult(backend=backend, notice=notice)
    # visited in the findings' order: by the later tool, then the earlier one
    for right, left, cosine in sorted((right, left, cosine) for (left, right), cosine in candidates.items()):
        score = known.get((tools[left], tools[right])) if known else None
        if score is None or score.cosine != cosine:
            name_cosine = name_cosines.get((left, right)) if name_cosines else None
            score = score_pair(views[left], views[right], cosine, backend, name_cosine)
        if score.score >= threshold:
            result.pairs.append((left, right, score))
    return result


def _candidates(
    views: list[ToolView],
    texts: list[str],
    embeddings: _LazyEmbeddings,
    threshold: float,
    top_k: int | None,
    mixed: bool,
) -> tuple[dict[tuple[int, int], float], dict[tuple[int, int], float]]:
    """The candidate pairs with their cosines, and for a mixed-language set the name cosines of the
    pairs across languages."""
    from schemalint.similarity.neighbours import NeighbourStore, neighbour_pairs
    from schemalint.similarity.pairs import pair_cosines

    backend, _ = embeddings.backend()
    floor = cosine_floor(threshold, backend)
    store = NeighbourStore(embeddings.resolved.cache_dir, embeddings.model_key)
    keys = [text_key(text) for text in texts]
    count = len(views)
    candidates = neighbour_pairs(keys[:count], lambda rows: embeddings.get(rows).vectors[:count], floor, top_k, store)
    name_cosines: dict[tuple[int, int], float] = {}
    if mixed:
        names = neighbour_pairs(keys[count:], lambda rows: embeddings.get(rows).vectors[count:], floor, top_k, store)
        crossing = [p for p in names if cross_language(views[p[0]], views[p[1]])]
        added = [p for p in crossing if p not in candidates]
        cross = [p for p in (*candidates, *added) if cross_language(views[p[0]], views[p[1]])]  # score_pair reads these
        vectors = embeddings.get(rows=True).vectors if added or cross else []
        candidates.update(zip(added, pair_cosines(vectors[:count], added), strict=True))
        name_cosines = dict(zip(cross, pair_cosines(vectors[count:], cross), strict=True))
    return candidates, name_cosines
