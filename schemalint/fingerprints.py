"""Identities of findings that survive unrelated edits: used by the baseline, SARIF and GitLab output.

A finding is identified by rule + file + tool name + JSON pointer + a hash of the offending content,
never by its line number, so adding a tool above it does not change its identity, while editing the
offending schema does.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from schemalint.diagnostics import Diagnostic
from schemalint.loaders import Document
from schemalint.model import JSON, is_mapping, resolve_pointer


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
    data = document.data
    if data is None and document.text:  # parallel workers send documents back without their data
        data = _reparsed(document)
    try:
        value = resolve_pointer(data, pointer)
    except (KeyError, TypeError):
        return ""
    canonical = json.dumps(_shallow(value), sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _reparsed(document: Document) -> JSON:
    from schemalint.engine import parse_document
    from schemalint.loaders import LoadError

    try:
        document.data = parse_document(document.text, document.path).data
    except (LoadError, RecursionError):
        return None
    return document.data


def finding_key(
    diagnostic: Diagnostic, document: Document | None, path: str | None = None, content: str | None = None
) -> tuple[str, ...]:
    """(code, path, tool, pointer, content hash): the identity of a finding (`content`: the hash, when known)."""
    return (
        diagnostic.code,
        path if path is not None else diagnostic.path,
        diagnostic.tool or "",
        diagnostic.pointer,
        content if content is not None else content_hash(document, diagnostic.pointer),
    )


def fingerprint(diagnostic: Diagnostic, document: Document | None) -> str:
    """A hex digest of `finding_key`, stable across line shifts."""
    return _digest(finding_key(diagnostic, document))


def content_hashes(diagnostics: Sequence[Diagnostic], documents: Mapping[str, Document]) -> list[str]:
    """`content_hash` at each diagnostic; each (file, pointer) is hashed once, since several findings
    often point at one place."""
    hashes: dict[tuple[str, str], str] = {}
    for d in diagnostics:
        place = (d.path, d.pointer)
        if place not in hashes:
            hashes[place] = content_hash(documents.get(d.path), d.pointer)
    return [hashes[(d.path, d.pointer)] for d in diagnostics]


def fingerprints(diagnostics: Sequence[Diagnostic], documents: Mapping[str, Document]) -> list[str]:
    """`fingerprint` of each diagnostic."""
    return [
        _digest(finding_key(d, None, content=content))
        for d, content in zip(diagnostics, content_hashes(diagnostics, documents), strict=True)
    ]


def _digest(key: Sequence[str]) -> str:
    return hashlib.sha256("\0".join(key).encode("utf-8", "surrogatepass")).hexdigest()[:32]
