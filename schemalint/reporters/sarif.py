"""SARIF 2.1.0 (GitHub code scanning, Azure DevOps, VS Code SARIF viewer).

Rules carry their documentation as `help` (markdown); results point at `%SRCROOT%`-relative URIs
(the working directory), regions use code-point columns, and `partialFingerprints` come from
schemalint.fingerprints, so a finding keeps its identity when lines above it move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote

from schemalint import __version__
from schemalint.diagnostics import Diagnostic
from schemalint.fingerprints import fingerprints
from schemalint.loaders import Document
from schemalint.model import Severity
from schemalint.paths import split_git_spec
from schemalint.reporters import older_version
from schemalint.reporters._json_text import json_report

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"
#: v2: keyed by tool name and the pointer below the tool (v1 used the pointer from the file's root)
FINGERPRINT_KEY = "schemalintFingerprint/v2"
_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _rule_descriptor(code: str, docs_url: str) -> dict[str, Any]:
    from schemalint.docs_site import catalogue_folder, rule_url
    from schemalint.rules import find_rule

    rule = find_rule(code)
    if rule is None:  # a diagnostic from a rule that is not registered here (e.g. a plugin): still valid
        return {"id": code}
    docs = rule.docs()
    return {
        "id": rule.code,
        "name": rule.slug,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.summary},
        "help": {"text": docs, "markdown": docs},
        "helpUri": rule_url(rule.code, rule.slug, docs_url),
        "defaultConfiguration": {"level": _LEVELS[rule.severity]},
        "properties": {"scope": rule.scope.value, "catalogue": catalogue_folder(rule.code, rule.slug)},
    }


def _artifact_location(path: str) -> dict[str, Any]:
    """The file's URI; for `REF:path` (a file as it was at a git revision) the path in the working tree,
    the only place code scanning can show."""
    revision = split_git_spec(path)
    if revision is not None:
        path = revision[1]
    posix = PurePosixPath(path)
    if posix.is_absolute() or Path(path).is_absolute():
        return {"uri": Path(path).resolve().as_uri()}
    return {"uri": quote(posix.as_posix()), "uriBaseId": SRCROOT}


def _result(
    diagnostic: Diagnostic, rule_index: int, fingerprint: str, artifact_location: dict[str, Any]
) -> dict[str, Any]:
    span = diagnostic.span
    region = {
        "startLine": span.line,
        "startColumn": span.column,
        "endLine": span.end_line,
        "endColumn": max(span.end_column, span.column + 1 if span.end_line == span.line else 1),
    }
    message = diagnostic.message
    properties: dict[str, Any] = {"pointer": diagnostic.pointer, "tool": diagnostic.tool, "slug": diagnostic.slug}
    older = older_version(diagnostic)
    if older is not None:  # the result points at the working-tree file and says where the finding was
        message += older.note
        properties.update(ref=older.ref, refLine=span.line)
        region = {"startLine": 1}
    location: dict[str, Any] = {"physicalLocation": {"artifactLocation": artifact_location, "region": region}}
    if diagnostic.pointer or diagnostic.tool:
        location["logicalLocations"] = [
            {"name": diagnostic.tool or "", "fullyQualifiedName": f"{diagnostic.path}#{diagnostic.pointer}"}
        ]
    return {
        "ruleId": diagnostic.code,
        "ruleIndex": rule_index,
        "level": _LEVELS[diagnostic.severity],
        "message": {"text": message},
        "locations": [location],
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint},
        "properties": properties,
    }


def render(
    diagnostics: Sequence[Diagnostic], documents: Mapping[str, Document], color: bool = False, docs_url: str = ""
) -> str | bytes:
    """The SARIF log; `docs_url` is the `docs-url` setting, where each rule's `helpUri` points."""
    codes = sorted({d.code for d in diagnostics})
    index = {code: i for i, code in enumerate(codes)}
    # once per file, not per finding: resolving an absolute path stats every directory on the way
    artifact_locations = {path: _artifact_location(path) for path in {d.path for d in diagnostics}}
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "schemalint",
                "version": __version__,
                "semanticVersion": __version__,
                "rules": [_rule_descriptor(code, docs_url) for code in codes],
            }
        },
        "originalUriBaseIds": {SRCROOT: {"uri": Path.cwd().resolve().as_uri() + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": [
            _result(d, index[d.code], fingerprint, artifact_locations[d.path])
            for d, fingerprint in zip(diagnostics, fingerprints(diagnostics, documents), strict=True)
        ],
    }
    log = {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}
    return json_report(log)
