"""Score the confusable pairs of a tool set: embed, find cosine neighbours, apply scoring.py."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from schemalint.math_threads import one_math_thread
from schemalint.similarity.embed import embed_texts
from schemalint.similarity.scoring import CALIBRATION, PARAMETER_BONUS, PairScore, cross_language, score_pair, tool_view


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


def similar_pairs(
    items: Sequence[tuple[str | None, str | None, Any]],
    settings: Mapping[str, Any],
    threshold: float,
    top_k: int | None,
) -> SimilarityResult:
    """Pairs of `(name, description, parameters)` items whose final score reaches `threshold`."""
    from schemalint.similarity.pairs import candidate_pairs, pair_cosines

    views = [tool_view(name, description, parameters) for name, description, parameters in items]
    if len(views) < 2:
        return SimilarityResult()
    texts = [v.embedding_text() for v in views]
    mixed = len({v.is_cjk for v in views}) == 2
    if mixed:  # Chinese and English descriptions side by side: names are compared too
        texts += [v.name_text() for v in views]
    one_blas_thread_for(len(texts))
    embeddings = embed_texts(texts, settings)
    count = len(views)
    full = embeddings.vectors[:count]
    floor = cosine_floor(threshold, embeddings.backend)
    candidates = candidate_pairs(full, floor, top_k)
    names = embeddings.vectors[count:] if mixed else None
    name_cosines: dict[tuple[int, int], float] = {}
    if names is not None:
        crossing = [p for p in candidate_pairs(names, floor, top_k) if cross_language(views[p[0]], views[p[1]])]
        added = [p for p in crossing if p not in candidates]
        candidates.update(zip(added, pair_cosines(full, added), strict=True))
        cross = [p for p in candidates if cross_language(views[p[0]], views[p[1]])]  # score_pair reads only these
        name_cosines = dict(zip(cross, pair_cosines(names, cross), strict=True))
    result = SimilarityResult(backend=embeddings.backend, notice=embeddings.notice)
    # visited in the findings' order: by the later tool, then the earlier one
    for right, left, cosine in sorted((right, left, cosine) for (left, right), cosine in candidates.items()):
        name_cosine = name_cosines.get((left, right)) if name_cosines else None
        score = score_pair(views[left], views[right], cosine, embeddings.backend, name_cosine)
        if score.score >= threshold:
            result.pairs.append((left, right, score))
    return result
