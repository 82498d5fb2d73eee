"""Baseline files: adopt schemalint in a repository with existing findings and see only new ones.

`--write-baseline FILE` records every current finding; `--baseline FILE` hides the findings it
records. An entry is keyed by rule + file + tool name + the JSON pointer below that tool + a hash
of the offending value (schemalint.fingerprints), never by line number or the tool's position, so
edits elsewhere in the file (a tool inserted above) do not resurrect it, while changing the
offending schema does. Each key carries a count, so a second,
identical finding at the same place is new. Paths are relative to the baseline file's folder,
so the baseline works from any working directory. Rewriting the file drops findings that were fixed.

Format (JSON, sorted, one entry per key, stable diffs):

    {"schemalint-baseline": 2,
     "findings": [{"code": "SL303", "path": "tools/search.json", "tool": "search_orders",
                   "pointer": "/function/parameters", "hash": "3f1c...", "count": 1,
                   "message": "the parameters object does not set ..."}]}

`pointer` is below the tool (the whole pointer when `tool` is empty: a file-level finding, an
unnamed tool). `message` is for people reading the file; it is not part of the key. Version 1 files
(pointers from the file's root) are still read and matched as they were written; the next
`--write-baseline` writes version 2.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from schemalint import UserError
from schemalint.diagnostics import Diagnostic
from schemalint.fingerprints import Key, finding_keys
from schemalint.loaders import Document

FORMAT_KEY = "schemalint-baseline"
FORMAT_VERSION = 2
#: keyed by the pointer from the document root: a tool's position was part of the identity
INDEX_KEYED_VERSION = 1


class BaselineError(UserError):
    """The baseline file cannot be read or is not a schemalint baseline; the message names it."""


def _relative(path: str, base: Path) -> str:
    absolute = Path(path).resolve()
    try:
        return absolute.relative_to(base).as_posix()
    except ValueError:
        return Path(os.path.relpath(absolute, base)).as_posix()


def _keys(
    diagnostics: Sequence[Diagnostic], documents: Mapping[str, Document], base: Path, version: int = FORMAT_VERSION
) -> list[tuple[Key, Diagnostic]]:
    relative = {path: _relative(path, base) for path in {d.path for d in diagnostics}}  # one resolve per file
    keys = finding_keys(diagnostics, documents, relative, below_tool=version != INDEX_KEYED_VERSION)
    return list(zip(keys, diagnostics, strict=True))


@dataclass
class BaselineResult:
    new: list[Diagnostic]
    hidden: int = 0
    #: entries (counting repeats) that matched nothing: fixed since the baseline was written
    stale: int = 0


def write_baseline(path: Path, diagnostics: Sequence[Diagnostic], documents: Mapping[str, Document]) -> int:
    """Record `diagnostics` in `path` (replacing it); returns the number of findings recorded."""
    base = path.absolute().parent.resolve()
    counts: Counter[Key] = Counter()
    messages: dict[Key, str] = {}
    for key, diagnostic in _keys(diagnostics, documents, base):
        counts[key] += 1
        messages.setdefault(key, diagnostic.message)
    findings: list[dict[str, Any]] = [
        {"code": k[0], "path": k[1], "tool": k[2], "pointer": k[3], "hash": k[4], "count": n, "message": messages[k]}
        for k, n in sorted(counts.items(), key=lambda item: (item[0][1], item[0][3], item[0][0], item[0][2:]))
    ]
    text = json.dumps({FORMAT_KEY: FORMAT_VERSION, "findings": findings}, indent=2, ensure_ascii=False) + "\n"
    try:
        if path.parent != Path():
            path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", errors="backslashreplace")  # a lone surrogate: its JSON escape
    except OSError as error:
        raise BaselineError(f"cannot write baseline {path}: {error.strerror or error}") from None
    return sum(counts.values())


def is_baseline(raw: bytes) -> bool:
    """Whether `raw` is a baseline file (written by `--write-baseline` or `init --baseline`, under
    any name): a JSON object whose format key gives a version. A folder walk skips it."""
    if FORMAT_KEY.encode() not in raw:  # most files: no parse
        return False
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):  # not UTF-8 or not JSON
        return False
    return isinstance(data, dict) and isinstance(data.get(FORMAT_KEY), int)


def read_baseline(path: Path) -> tuple[int, Counter[Key]]:
    """(format version, entries) of the baseline at `path`."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BaselineError(f"baseline {path} does not exist (create it with --write-baseline)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BaselineError(f"cannot read baseline {path}: {error}") from None
    version = data.get(FORMAT_KEY) if isinstance(data, dict) else None
    if version not in (INDEX_KEYED_VERSION, FORMAT_VERSION) or not isinstance(data.get("findings"), list):
        raise BaselineError(f"{path} is not a schemalint baseline (version {INDEX_KEYED_VERSION} or {FORMAT_VERSION})")
    entries: Counter[Key] = Counter()
    for index, entry in enumerate(data["findings"]):
        try:
            key = tuple(str(entry[name]) for name in ("code", "path", "tool", "pointer", "hash"))
            count = int(entry.get("count", 1))
        except (KeyError, TypeError, ValueError, AttributeError):
            raise BaselineError(f"{path}: findings[{index}] lacks code, path, tool, pointer or hash") from None
        entries[key] += count
    return version, entries


def apply_baseline(path: Path, diagnostics: Sequence[Diagnostic], documents: Mapping[str, Document]) -> BaselineResult:
    """The diagnostics the baseline at `path` does not record."""
    version, remaining = read_baseline(path)
    total = sum(remaining.values())
    result = BaselineResult([])
    for key, diagnostic in _keys(diagnostics, documents, path.absolute().parent.resolve(), version):
        if remaining[key] > 0:
            remaining[key] -= 1
            result.hidden += 1
        else:
            result.new.append(diagnostic)
    result.stale = total - result.hidden
    return result
