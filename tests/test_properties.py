"""Property-based tests: no input makes schemalint raise, and output is deterministic.

The default run keeps the example counts small; `python benchmarks/fuzz.py` runs the same
properties with 20,000+ examples.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schemalint.config import Config
from schemalint.engine import load_source, run_rules

from .strategies import json_values, python_tool_sources, tool_documents

EXAMPLES = int(os.environ.get("SCHEMALINT_PROPERTY_EXAMPLES", "60"))
PROPERTY_SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
CONFIG = Config(root=Path.cwd())


def lint_text(text: str | bytes, filename: str) -> str:
    """Lint one buffer the way the CLI does and return the JSON output; must never raise."""
    source = load_source(filename, text, CONFIG, explicit=True, skip_non_tool_files=False)
    result = run_rules([source])
    return json.dumps([d.to_json() for d in result.diagnostics], sort_keys=True, default=str)


def check_invariants(text: str | bytes, filename: str) -> None:
    first = lint_text(text, filename)
    assert first == lint_text(text, filename), "output differs between two runs"
    for finding in json.loads(first):
        assert finding["line"] >= 1 and finding["column"] >= 1
        assert (finding["end_line"], finding["end_column"]) >= (finding["line"], finding["column"])


@PROPERTY_SETTINGS
@given(tool_documents)
def test_arbitrary_schemas_in_every_dialect(text: str) -> None:
    check_invariants(text, "tools.json")


@PROPERTY_SETTINGS
@given(json_values)
def test_arbitrary_json_values(value: object) -> None:
    check_invariants(json.dumps(value), "any.json")


@PROPERTY_SETTINGS
@given(json_values)
def test_arbitrary_values_as_yaml(value: object) -> None:
    import io

    from ruamel.yaml import YAML

    buffer = io.StringIO()
    YAML(typ="safe", pure=True).dump(value, buffer)
    check_invariants(buffer.getvalue(), "any.yaml")


@PROPERTY_SETTINGS
@given(tool_documents, st.integers(0, 10_000), st.text(min_size=1, max_size=3))
def test_corrupted_documents(text: str, position: int, junk: str) -> None:
    position %= len(text) + 1
    corrupted = text[:position] + junk + text[position:]
    for name in ("tools.json", "tools.yaml"):
        check_invariants(corrupted, name)


@PROPERTY_SETTINGS
@given(st.binary(max_size=200))
def test_arbitrary_bytes(raw: bytes) -> None:
    for name in ("tools.json", "tools.yaml"):
        check_invariants(raw, name)


@PROPERTY_SETTINGS
@given(python_tool_sources(), st.integers(0, 10_000), st.sampled_from(["", "(", "\x00", "\\", '"""', "\t"]))
def test_python_sources_from_decorator_templates(source: str, position: int, junk: str) -> None:
    """Read with libcst, never imported: the first statement of every source would write the marker."""
    marker = Path(tempfile.gettempdir()) / "schemalint-property-imported"
    marker.unlink(missing_ok=True)
    source = source.replace("PYTHON_IMPORT_MARKER", repr(str(marker)))
    position %= len(source) + 1
    for text in (source, source[:position] + junk + source[position:]):
        check_invariants(text, "tools.py")
    assert not marker.exists()
