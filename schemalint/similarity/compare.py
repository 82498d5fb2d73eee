"""Score the confusable pairs of a tool set: embed, centre, find cosine neighbours, apply scoring.py."""

from __future__ import annotations

import math
import os
import struct
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from schemalint.similarity.cache import float32_row
from schemalint.similarity.embed import embed_texts, resolve_backend
from schemalint.similarity.pairs import candidate_pairs, pair_cosines
from schemalint.similarity.scoring import (
    PARAMETER_BONUS,
    PairScore,
    Scale,
    cross_language,
    drop_common_sentences,
    scale_for,
    score_pair,
    tool_view,
)

if TYPE_CHECKING:
    from schemalint.similarity.pairs import Vectors

#: how many tools' worth of zeros (no domain) the other tools' mean is weighed against
CENTRING_PRIOR = 1


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
    spin-waiting) than it saves (measured in the commit that set it). A setting of the user's, or a
    numpy already imported by a host program, is left as it is."""
    if count <= SINGLE_THREAD_TEXTS and "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def cosine_floor(threshold: float, scale: Scale) -> float:
    """The lowest cosine whose pair can still reach `threshold` (the score is at most calibrated + bonus)."""
    if threshold <= 0:
        return -2.0
    low, high = scale
    return low + max(0.0, threshold - PARAMETER_BONUS) * (high - low)


def centring_share(tools: int) -> float:
    """The share of the other tools' mean taken out of a pair's vectors: 0 for two tools (there are
    no others to show a domain), growing towards 1 as the other tools outnumber CENTRING_PRIOR, so a
    set of a few tools is partly centred and the scale has no jump."""
    others = max(0, tools - 2)
    return others / (others + CENTRING_PRIOR)


def similar_pairs(
    items: Sequence[tuple[str | None, str | None, Any]],
    settings: Mapping[str, Any],
    threshold: float,
    top_k: int | None,
    titles: Sequence[str | None] = (),
) -> SimilarityResult:
    """Pairs of `(name, description, parameters)` items whose final score reaches `threshold`;
    `titles`, when given, holds each item's title (a description may name a sibling by it)."""
    if len(items) < 2:
        return SimilarityResult()
    resolved = resolve_backend(settings)
    named = titles or [None] * len(items)
    views = [
        tool_view(name, description, parameters, title)
        for (name, description, parameters), title in zip(items, named, strict=True)
    ]
    drop_common_sentences(views)
    texts = [v.embedding_text() for v in views]
    mixed = len({v.is_cjk for v in views}) == 2
    if mixed:  # Chinese and English descriptions side by side: names are compared too
        texts += [v.name_text() for v in views]
    one_blas_thread_for(len(texts))
    embeddings = embed_texts(texts, settings, resolved)
    count = len(views)
    share = centring_share(count)
    scale = scale_for(embeddings.backend, share)
    raw = embeddings.vectors[:count]
    sums = column_sums(raw) if share else []
    vectors = centre(raw, sums, share) if share else raw
    # neighbours are found on vectors centred on the whole set, whose mean holds the pair itself; a
    # pair is then scored apart from it (`cosines_apart`), which can only lift its cosine by about
    # the pair's own weight in that mean, so the search floor is lowered by twice that
    floor = cosine_floor(threshold, scale) - 4 / (count + CENTRING_PRIOR) if share else cosine_floor(threshold, scale)
    candidates = candidate_pairs(vectors, floor, top_k)

    def cosines(pairs: list[tuple[int, int]]) -> list[float]:
        return cosines_apart(raw, sums, pairs) if share else pair_cosines(raw, pairs)

    if share:
        candidates = dict(zip(candidates, cosines(list(candidates)), strict=True))
    name_cosines: dict[tuple[int, int], float] = {}
    if mixed:
        all_rows = embeddings.vectors
        names = (all_rows if isinstance(all_rows, list) else all_rows.tolist())[count:]
        crossing = [
            p
            for p in candidate_pairs(names, cosine_floor(threshold, scale_for(embeddings.backend)), top_k)
            if cross_language(views[p[0]], views[p[1]])
        ]
        added = [p for p in crossing if p not in candidates]
        candidates.update(zip(added, cosines(added), strict=True))
        cross = [p for p in candidates if cross_language(views[p[0]], views[p[1]])]
        name_cosines = dict(zip(cross, pair_cosines(names, cross), strict=True))
    result = SimilarityResult(backend=embeddings.backend, notice=embeddings.notice)
    # visited in the findings' order: by the later tool, then the earlier one
    for right, left, cosine in sorted((right, left, cosine) for (left, right), cosine in candidates.items()):
        score = score_pair(views[left], views[right], cosine, scale, name_cosines.get((left, right)))
        if score.score >= threshold:
            result.pairs.append((left, right, score))
    return result


def column_sums(vectors: Vectors) -> list[float]:
    """Each dimension's sum over the vectors, correctly rounded (`math.fsum`), for either form."""
    columns = zip(*vectors, strict=True) if isinstance(vectors, list) else vectors.T.tolist()
    return [math.fsum(column) for column in columns]


def cosines_apart(vectors: Vectors, sums: list[float], pairs: list[tuple[int, int]]) -> list[float]:
    """Each pair's cosine once both vectors are centred on the mean of the *other* tools, weighed
    against CENTRING_PRIOR tools' worth of zeros: m = (S - a - b) / (n - 2 + prior), S the sum of
    all vectors. The set's domain is taken out, but not what the two tools share with each other.
    Computed from the pair's raw cosine and each vector's dot with S (`sums`, rounded to float32),
    with `pair_cosines`, so rows of Python floats and a numpy matrix give the same bits."""
    count = len(vectors)
    total = float32_row(struct.pack(f"<{len(sums)}f", *sums))
    with_total: Vectors
    if isinstance(vectors, list):
        with_total = [*vectors, total]
    else:
        import numpy as np

        with_total = np.vstack((vectors, np.array([total], dtype=np.float32)))
    ends = sorted({index for pair in pairs for index in pair})
    dots = dict(zip(ends, pair_cosines(with_total, [(index, count) for index in ends]), strict=True))
    squares = dict(zip(ends, pair_cosines(with_total, [(index, index) for index in ends]), strict=True))
    total_square = pair_cosines(with_total, [(count, count)])[0]
    weight = 1 / (count - 2 + CENTRING_PRIOR)
    cosines = []
    for (left, right), raw in zip(pairs, pair_cosines(vectors, pairs), strict=True):
        a_a, b_b, a_s, b_s = squares[left], squares[right], dots[left], dots[right]
        m_m = weight * weight * (total_square - 2 * a_s - 2 * b_s + a_a + b_b + 2 * raw)
        a_m, b_m = weight * (a_s - a_a - raw), weight * (b_s - raw - b_b)
        norms = math.sqrt(max(0.0, a_a - 2 * a_m + m_m) * max(0.0, b_b - 2 * b_m + m_m))
        cosines.append((raw - a_m - b_m + m_m) / norms if norms else 0.0)
    return cosines


def centre(vectors: Vectors, sums: list[float], share: float = 1.0) -> Vectors:
    """The vectors less `share` of their mean (`sums`: `column_sums`), each scaled back to unit length
    and rounded to float32:
    what every tool of one server shares (its domain, its house style) is taken out, so a cosine
    measures how alike two tools are *within* their set. The sums are `math.fsum`s (correctly rounded)
    and the rest is element-wise IEEE arithmetic, so rows of Python floats and a numpy matrix give the
    same bits (a zero row stays zero)."""
    if isinstance(vectors, list):
        mean = [share * (total / len(vectors)) for total in sums]
        rows = []
        for row in vectors:
            shifted = [value - m for value, m in zip(row, mean, strict=True)]
            norm = math.sqrt(math.fsum(value * value for value in shifted)) or 1.0
            rows.append(float32_row(struct.pack(f"<{len(row)}f", *(value / norm for value in shifted))))
        return rows
    import numpy as np

    wide = vectors.astype(np.float64)
    shifted = wide - np.array([share * (total / len(wide)) for total in sums])
    norms = np.array([math.sqrt(math.fsum(row)) or 1.0 for row in (shifted * shifted).tolist()])
    return (shifted / norms[:, None]).astype(np.float32)
