"""Extract tools from the real Python corpus and compare with the counts in SOURCES.txt.

    PYTHONPATH=. python benchmarks/bench_python_corpus.py [CORPUS_DIR ...]

Prints, per file: tools extracted, the `decorated=N` count from SOURCES.txt, SL004 notes and the
time; then the totals and the median and 90th percentile of the CPU time per parsed module. A
folder is read recursively, so installed packages or checkouts of multi-module servers can be
named; their modules share one process, as in a lint run over the package. Files that
`might_contain_tools` rejects are not parsed at all.
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[1]
#: `shared/` sits beside the checkout (or beside the folder of worktrees)
CORPUS_CANDIDATES = [base / "shared" / "corpus" / "python-tools" for base in (_ROOT.parent, _ROOT.parent.parent)]


def default_corpus() -> Path:
    return next((c for c in CORPUS_CANDIDATES if c.is_dir()), CORPUS_CANDIDATES[0])


@dataclass
class FileResult:
    name: str
    expected: int | None
    extracted: int
    notes: int
    seconds: float
    cpu_seconds: float
    error: str | None = None
    parsed: bool = False


def expected_counts(corpus: Path) -> dict[str, int]:
    counts: dict[str, int] = {}
    sources = corpus / "SOURCES.txt"
    if not sources.exists():
        return counts
    for line in sources.read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        for field in fields:
            if field.startswith("decorated="):
                counts[fields[0]] = int(field.split("=", 1)[1])
    return counts


def run(corpus: Path) -> list[FileResult]:
    from schemalint.loaders import LoadError
    from schemalint.loaders.python import load_python, might_contain_tools

    expected = expected_counts(corpus)
    results: list[FileResult] = []
    for path in sorted(corpus.rglob("*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        started = time.perf_counter()
        cpu_started = time.process_time()
        extracted = notes = 0
        error = None
        parsed = might_contain_tools(text)
        if parsed:
            try:
                document = load_python(text, str(path))
                extracted = len(document.tools or [])
                notes = len(document.notes)
            except LoadError as problem:
                error = problem.message
        results.append(
            FileResult(
                str(path.relative_to(corpus)),
                expected.get(path.name),
                extracted,
                notes,
                time.perf_counter() - started,
                time.process_time() - cpu_started,
                error,
                parsed,
            )
        )
    return results


def main(argv: list[str]) -> int:
    corpora = [Path(arg) for arg in argv[1:]] or [default_corpus()]
    missing = [corpus for corpus in corpora if not corpus.is_dir()]
    if missing:
        print(f"corpus not found: {missing[0]}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    import libcst  # noqa: F401  - timed apart: a lint run pays it once, and only when a tool file is parsed

    import_seconds = time.perf_counter() - started
    started = time.perf_counter()
    cpu_started = time.process_time()
    results = [result for corpus in corpora for result in run(corpus)]
    total_seconds = time.perf_counter() - started
    cpu_seconds = time.process_time() - cpu_started
    width = max(len(r.name) for r in results)
    print(f"{'file':<{width}}  extracted  expected  SL004  cpu ms")
    for r in results:
        expected = "-" if r.expected is None else str(r.expected)
        flag = "" if r.expected is None or r.expected == r.extracted else "  <-"
        print(f"{r.name:<{width}}  {r.extracted:>9}  {expected:>8}  {r.notes:>5}  {r.cpu_seconds * 1000:6.0f}{flag}")
        if r.error:
            print(f"    error: {r.error}")
    extracted = sum(r.extracted for r in results)
    expected_total = sum(r.expected or 0 for r in results)
    print(f"total: {extracted} tools extracted, {expected_total} decorated per SOURCES.txt, {len(results)} files")
    print(
        f"time: {total_seconds:.2f} s wall, {cpu_seconds:.2f} s CPU for the folder; "
        f"importing libcst took {import_seconds:.2f} s before that"
    )
    parsed = sorted(r.cpu_seconds * 1000 for r in results if r.parsed)
    if len(parsed) >= 2:
        p90 = statistics.quantiles(parsed, n=10)[8]
        print(f"per parsed module ({len(parsed)}): p50 {statistics.median(parsed):.1f} ms, p90 {p90:.1f} ms CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
