"""Tool-set similarity: embeddings (static or sentence-transformers), an on-disk vector cache,
nearest-neighbour pairs, and the action/boundary signals SL502 combines with cosine.

Importing this package is cheap: torch is imported only when vectors must be computed with
sentence-transformers, and numpy only for sets of more than `embed.SMALL_SET_TEXTS` texts (a small
set's cached vectors, pairs and cosines, and the static model's encoding, are pure Python).
The CLI prints `take_notices()` (backend fallbacks) on stderr after a run.
"""

from __future__ import annotations

from schemalint.similarity.embed import Embeddings, embed_texts, take_notices

__all__ = ["Embeddings", "embed_texts", "take_notices"]
