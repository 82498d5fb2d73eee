"""Evaluate SL502's final score on labelled tool pairs: ROC AUC, precision and recall per backend.

    python benchmarks/eval_similarity.py                 # held-out set + the dev set when present
    python benchmarks/eval_similarity.py --raw           # also the raw description cosine, for contrast
    python benchmarks/eval_similarity.py --errors        # list the pairs misjudged at the threshold

Sets: tests/data/similarity-heldout.jsonl (the project's own pairs) and ../shared/eval/similarity-dev.jsonl
(not part of the project; skipped when absent). Each line: {"id", "label" (1 = confusable), "kind",
"lang", "a": tool, "b": tool}.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from schemalint.rules.sl502_similar_descriptions import Options  # noqa: E402
from schemalint.similarity.backends import (  # noqa: E402
    StaticBackend,
    locate_sentence_transformers_model,
    sentence_transformers_backend,
    sentence_transformers_installed,
)
from schemalint.similarity.scoring import scale_for, score_pair, tool_view  # noqa: E402


def _dev_set() -> Path:
    """../shared/eval/similarity-dev.jsonl beside the checkout (a worktree may sit one level deeper)."""
    for base in (ROOT.parent, ROOT.parent.parent):
        candidate = base / "shared" / "eval" / "similarity-dev.jsonl"
        if candidate.is_file():
            return candidate
    return ROOT.parent / "shared" / "eval" / "similarity-dev.jsonl"


SETS = {
    "held-out": ROOT / "tests" / "data" / "similarity-heldout.jsonl",
    "dev": _dev_set(),
}


def roc_auc(scores: list[float], labels: list[int]) -> float:
    positives = [s for s, y in zip(scores, labels, strict=True) if y]
    negatives = [s for s, y in zip(scores, labels, strict=True) if not y]
    wins = sum((p > n) + 0.5 * (p == n) for p in positives for n in negatives)
    return wins / (len(positives) * len(negatives))


def precision_recall(scores: list[float], labels: list[int], threshold: float) -> tuple[float, float]:
    flagged = [y for s, y in zip(scores, labels, strict=True) if s >= threshold]
    true_positives = sum(flagged)
    precision = true_positives / len(flagged) if flagged else 1.0
    recall = true_positives / sum(labels) if sum(labels) else 1.0
    return precision, recall


def load_pairs(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def evaluate(pairs: list[dict], backend, threshold: float, raw: bool = False) -> dict:
    """Scores of every pair; `raw` also computes the plain description cosine for contrast."""
    views = [(tool_view(**_fields(p["a"])), tool_view(**_fields(p["b"]))) for p in pairs]
    texts = sorted(
        {t for a, b in views for v in (a, b) for t in (v.embedding_text(), v.name_text())}
        | ({v.description for pair in views for v in pair} if raw else set())
    )
    vectors = dict(zip(texts, backend.encode(texts), strict=True))

    def cosine(left: str, right: str) -> float:
        return float(vectors[left] @ vectors[right])

    scored = [
        score_pair(  # each pair is a set of two tools: no centring, the backend's own scale
            a,
            b,
            cosine(a.embedding_text(), b.embedding_text()),
            scale_for(backend.name),
            cosine(a.name_text(), b.name_text()),
        )
        for a, b in views
    ]
    scores = [s.score for s in scored]
    labels = [int(p["label"]) for p in pairs]
    precision, recall = precision_recall(scores, labels, threshold)
    raw_auc = roc_auc([cosine(a.description, b.description) for a, b in views], labels) if raw else None
    return {
        "auc": roc_auc(scores, labels),
        "raw_auc": raw_auc,
        "precision": precision,
        "recall": recall,
        "scored": scored,
        "labels": labels,
    }


def _fields(tool: dict) -> dict:
    return {"name": tool.get("name"), "description": tool.get("description"), "parameters": tool.get("parameters")}


def backends() -> list:
    found: list = [StaticBackend()]
    if sentence_transformers_installed():
        found.append(sentence_transformers_backend(locate_sentence_transformers_model(None)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threshold", type=float, default=Options().threshold)
    parser.add_argument("--raw", action="store_true", help="also print the raw description-cosine AUC")
    parser.add_argument("--errors", action="store_true", help="list misjudged pairs")
    parser.add_argument("--set", action="append", help="only these sets (held-out, dev)")
    args = parser.parse_args()
    print(f"threshold {args.threshold}")
    for backend in backends():
        for set_name, path in SETS.items():
            if args.set and set_name not in args.set:
                continue
            if not path.is_file():
                print(f"{backend.name:22} {set_name:9} skipped ({path} not found)")
                continue
            pairs = load_pairs(path)
            result = evaluate(pairs, backend, args.threshold, raw=args.raw)
            line = (
                f"{backend.name:22} {set_name:9} n={len(pairs):3}  AUC {result['auc']:.3f}  "
                f"precision {result['precision']:.3f}  recall {result['recall']:.3f}"
            )
            if args.raw:
                line += f"  (raw cosine AUC {result['raw_auc']:.3f})"
            print(line)
            if args.errors:
                for pair, score, label in zip(pairs, result["scored"], result["labels"], strict=True):
                    if (score.score >= args.threshold) != bool(label):
                        print(
                            f"    {pair['id']} label={label} {pair['kind']:26} score={score.score:.3f} "
                            f"cos={score.cosine:.3f} act={score.action:.2f} bnd={score.boundary:.2f} "
                            f"{pair['a']['name']} / {pair['b']['name']}"
                        )


if __name__ == "__main__":
    main()
