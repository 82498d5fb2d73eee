"""Tool-set similarity: embeddings (static or sentence-transformers), an on-disk vector cache,
nearest-neighbour pairs, and the action/boundary signals SL502 combines with cosine.

Importing this package is cheap: numpy, model2vec and torch are imported only when vectors must be
computed. The CLI prints `take_notices()` (backend fallbacks) on stderr after a run.
"""

from __future__ import annotations

from schemalint.similarity.embed import Embeddings, embed_texts, take_notices

__all__ = ["Embeddings", "embed_texts", "take_notices"]
