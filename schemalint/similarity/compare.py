"""Score the confusable pairs of a tool set: embed, centre, find cosine neighbours, apply scoring.py."""

from __future__ import annotations

import math
import struct
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from schemalint.math_threads import one_math_thread
from schemalint.similarity.cache import float32_row
from schemalint.similarity.embed import embed_texts, resolve_backend
from schemalint.similarity.pairs import candidate_pairs, pair_cosines
from schemalint.similarity.scoring import (
    CALIBRATION,
    PARAMETER_BONUS,
    PairScore,
    common_sentences,
    cross_language,
    score_pair,
    tool_view,
)

if TYPE_CHECKING:
    from schemalint.similarity.pairs import Vectors

#: sets of at least this many tools are compared on centred vectors (`centre`): with fewer, the
#: mean is mostly the tools themselves
CENTRED_SET_TOOLS = 8


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
    if len(items) < 2:
        return SimilarityResult()
    resolved = resolve_backend(settings)
    views = [tool_view(name, description, parameters) for name, description, parameters in items]
    common = common_sentences(views)
    texts = [v.embedding_text(common) for v in views]
    mixed = len({v.is_cjk for v in views}) == 2
    if mixed:  # Chinese and English descriptions side by side: names are compared too
        texts += [v.name_text() for v in views]
    one_blas_thread_for(len(texts))
    embeddings = embed_texts(texts, settings, resolved)
    count = len(views)
    centred = count >= CENTRED_SET_TOOLS
    scale = "centred" if centred else embeddings.backend
    vectors = centre(embeddings.vectors[:count]) if centred else embeddings.vectors[:count]
    candidates = candidate_pairs(vectors, cosine_floor(threshold, scale), top_k)
    name_cosines: dict[tuple[int, int], float] = {}
    if mixed:
        rows = embeddings.vectors if isinstance(embeddings.vectors, list) else embeddings.vectors.tolist()
        vectors_rows = vectors if isinstance(vectors, list) else vectors.tolist()
        names = rows[count:]
        crossing = [
            p
            for p in candidate_pairs(names, cosine_floor(threshold, embeddings.backend), top_k)
            if cross_language(views[p[0]], views[p[1]])
        ]
        added = [p for p in crossing if p not in candidates]
        candidates.update(zip(added, pair_cosines(vectors_rows, added), strict=True))
        cross = [p for p in candidates if cross_language(views[p[0]], views[p[1]])]
        name_cosines = dict(zip(cross, pair_cosines(names, cross), strict=True))
    result = SimilarityResult(backend=embeddings.backend, notice=embeddings.notice)
    # visited in the findings' order: by the later tool, then the earlier one
    for right, left, cosine in sorted((right, left, cosine) for (left, right), cosine in candidates.items()):
        score = score_pair(views[left], views[right], cosine, scale, name_cosines.get((left, right)))
        if score.score >= threshold:
            result.pairs.append((left, right, score))
    return result


def centre(vectors: Vectors) -> Vectors:
    """The vectors less their mean, each scaled back to unit length and rounded to float32: what every
    tool of one server shares (its domain, its house style) is taken out, so a cosine measures how
    alike two tools are *within* their set. The sums are `math.fsum`s (correctly rounded) and the rest
    is element-wise IEEE arithmetic, so rows of Python floats and a numpy matrix give the same bits
    (a zero row stays zero)."""
    if isinstance(vectors, list):
        mean = [math.fsum(column) / len(vectors) for column in zip(*vectors, strict=True)]
        rows = []
        for row in vectors:
            shifted = [value - m for value, m in zip(row, mean, strict=True)]
            norm = math.sqrt(math.fsum(value * value for value in shifted)) or 1.0
            rows.append(float32_row(struct.pack(f"<{len(row)}f", *(value / norm for value in shifted))))
        return rows
    import numpy as np

    wide = vectors.astype(np.float64)
    shifted = wide - np.array([math.fsum(column) / len(wide) for column in wide.T.tolist()])
    norms = np.array([math.sqrt(math.fsum(row)) or 1.0 for row in (shifted * shifted).tolist()])
    return (shifted / norms[:, None]).astype(np.float32)
