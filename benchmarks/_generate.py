"""Deterministic generated tool sets for the benchmarks (no corpus needed)."""

from __future__ import annotations

import json
import random
from pathlib import Path

VERBS = ["get", "list", "create", "update", "delete", "search", "send", "cancel", "refund", "export"]
NOUNS = ["order", "invoice", "customer", "ticket", "shipment", "payment", "report", "user", "message", "event"]


def make_tool(i: int, rng: random.Random) -> dict:
    verb, noun = rng.choice(VERBS), rng.choice(NOUNS)
    properties: dict = {
        f"{noun}_id": {"type": "string", "description": f"The {noun} id, from list_{noun}s", "pattern": "^[A-Z0-9]+$"},
        "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20, "description": "Page size"},
        "status": {"type": "string", "enum": ["open", "closed", "pending"], "description": "Filter by status"},
    }
    if i % 3 == 0:
        properties["note"] = {"anyOf": [{"type": "string"}, {"type": "null"}]}
    if i % 5 == 0:
        properties["filters"] = {
            "type": "object",
            "properties": {"range": {"type": "object", "properties": {"from": {"type": "string"}}}},
        }
    return {
        "type": "function",
        "function": {
            "name": f"{verb}_{noun}_{i}",
            "description": f"{verb.title()} a {noun} (variant {i}). Use for {noun}s only; not for other records.",
            "parameters": {"type": "object", "properties": properties, "required": [f"{noun}_id"]},
        },
    }


def tool_file(path: Path, count: int, seed: int = 7) -> Path:
    rng = random.Random(seed)
    path.write_text(json.dumps([make_tool(i, rng) for i in range(count)], indent=2), encoding="utf-8")
    return path
