"""Identities of findings that survive unrelated edits: used by the baseline, SARIF and GitLab output.

A finding is identified by rule + file + tool name + the JSON pointer below that tool + a hash of
the offending content, never by its line number or its tool's position, so adding a tool above it
does not change its identity, while editing the offending schema does.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from schemalint.diagnostics import Diagnostic
from schemalint.loaders import Document
from schemalint.model import JSON, is_mapping, parent_pointer, resolve_pointer


def _shallow(value: JSON) -> Any:
    """The value with nested containers reduced to markers: a finding on an object is about its own
    keywords; an edit deep inside one of its properties should not change its identity."""
    if is_mapping(value):
        return {str(k): _marker(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_marker(v) for v in value]
    return value


def _marker(value: JSON) -> Any:
    if is_mapping(value):
        return {"{}": sorted(str(k) for k in value)}
    if isinstance(value, list):
        return ["[]", len(value)]
    return value


def content_hash(document: Document | None, pointer: str) -> str:
    """A short hash of what is at `pointer` in the document's data ("" when it is not there)."""
    if document is None:
        return ""
    try:
        value = resolve_pointer(document.data, pointer)
    except (KeyError, TypeError):
        return ""
    canonical = json.dumps(_shallow(value), sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()[:16]


Key = tuple[str, ...]


def finding_keys(
    diagnostics: Sequence[Diagnostic],
    documents: Mapping[str, Document],
    paths: Mapping[str, str] | None = None,
    below_tool: bool = True,
) -> list[Key]:
    """(code, path, tool name, pointer below the tool, content hash) of each diagnostic: its identity.
    `paths` renames the files (the baseline stores them relative to itself). Without `below_tool`, the
    pointer from the document root, as version 1 baselines recorded it (the tool's position in its
    file was part of the identity)."""
    names: dict[str, dict[str, str | None]] = {}  # each document's tools, pointer -> name, read once

    def below(d: Diagnostic) -> str:
        """The pointer relative to the named tool it lies in, so that inserting, reordering or rewrapping
        tools (`[...]` becoming `{"tools": [...]}`) leaves it alone; the whole pointer when it lies in none
        (a file-level finding, an unnamed tool)."""
        if d.path not in names:
            from schemalint.dialects import detect_tools

            document = documents.get(d.path)
            names[d.path] = {} if document is None else {t.pointer: t.name for t in detect_tools(document)}
        pointer = d.pointer
        while names[d.path].get(pointer) != d.tool:
            if not pointer:
                return d.pointer
            pointer = parent_pointer(pointer)
        return d.pointer[len(pointer) :]

    return [
        (
            d.code,
            paths[d.path] if paths else d.path,
            d.tool or "",
            below(d) if below_tool and d.tool else d.pointer,
            content_hash(documents.get(d.path), d.pointer),
        )
        for d in diagnostics
    ]


def fingerprints(diagnostics: Sequence[Diagnostic], documents: Mapping[str, Document]) -> list[str]:
    """A hex digest of each diagnostic's `finding_keys`, unique in the list: the second and later
    findings with one identity (two tools of one name with one problem) get `-2`, `-3`, ... in the
    order given, since GitLab drops, and code scanning merges, results that share a fingerprint."""
    seen: Counter[str] = Counter()
    out = []
    for key in finding_keys(diagnostics, documents):
        digest = _digest(key)
        seen[digest] += 1
        out.append(digest if seen[digest] == 1 else f"{digest}-{seen[digest]}")
    return out


def _digest(key: Sequence[str]) -> str:
    return hashlib.sha256("\0".join(key).encode("utf-8", "surrogatepass")).hexdigest()[:32]
