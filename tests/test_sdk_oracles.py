"""schemalint against the real SDKs: compatibility verdicts and SL404's rewrite predictions.

The logic lives in benchmarks/provider_agreement.py (which prints the full report); these tests pin it.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

for module in ("agents", "pydantic_ai", "anthropic", "google.genai"):
    pytest.importorskip(module)

_PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "provider_agreement.py"
_SPEC = importlib.util.spec_from_file_location("provider_agreement", _PATH)
assert _SPEC is not None and _SPEC.loader is not None
agreement = importlib.util.module_from_spec(_SPEC)
sys.modules["provider_agreement"] = agreement
_SPEC.loader.exec_module(agreement)

#: generated-set floors: raw agreement of "strict-compatible" verdicts (the rest are accepted disagreements)
COMPATIBILITY_FLOORS = {"openai-agents": 0.75, "pydantic-ai (OpenAI)": 0.70, "anthropic": 0.75, "google-genai": 0.95}


@pytest.fixture(scope="module")
def hand_written() -> dict:
    return agreement.hand_written()


@pytest.fixture(scope="module")
def hand_written_compatibility(hand_written: dict) -> dict:
    return agreement.compatibility(hand_written)


@pytest.fixture(scope="module")
def generated() -> dict:
    return agreement.generated(100, seed=11)


def test_every_hand_written_disagreement_is_an_accepted_one(hand_written: dict, hand_written_compatibility) -> None:
    tallies = hand_written_compatibility
    assert {name: t.unexplained for name, t in tallies.items()} == {name: [] for name in tallies}
    # and the cases that must agree do: a realistic strict-ready schema is compatible everywhere
    for oracle in agreement.ORACLES:
        assert oracle.compatible(hand_written["realistic_weather"])
        assert agreement.schemalint_errors(hand_written["realistic_weather"], oracle.target) == []


def test_every_accepted_disagreement_still_happens(hand_written: dict, hand_written_compatibility) -> None:
    """An accepted reason for a hand-written case that now agrees is stale: the SDK or schemalint changed."""
    tallies = hand_written_compatibility
    seen = {(name, line.split(": SDK")[0]) for name, t in tallies.items() for line in t.disagreements}
    generated_only = {"open"}
    for oracle, tag in agreement.ACCEPTED:
        if tag in generated_only:
            continue
        case = tag if tag in hand_written else f"fragment:{tag}"
        assert (oracle, case) in seen, f"accepted disagreement ({oracle}, {tag}) no longer happens"


def test_sl404_predicts_every_hand_written_rewrite(hand_written: dict) -> None:
    tallies = agreement.rewrite_prediction(hand_written)
    assert {name: t.disagreements for name, t in tallies.items()} == {name: [] for name in tallies}
    places = agreement.rewrite_places(hand_written)
    assert {name: t.disagreements for name, t in places.items()} == {name: [] for name in places}


def test_generated_agreement_floors(generated: dict) -> None:
    compatibility = agreement.compatibility(generated)
    for name, tally in compatibility.items():
        assert tally.rate >= COMPATIBILITY_FLOORS[name], (name, tally.rate, tally.unexplained[:5])
        assert tally.unexplained == [], (name, tally.unexplained[:5])
    for name, tally in agreement.rewrite_prediction(generated).items():
        assert tally.rate >= 0.95, (name, tally.disagreements[:5])


def test_sl404_on_fuzzed_schemas() -> None:
    """Deeper random schemas (some invalid): SL404's outcome and changed places track the SDKs."""
    cases = agreement.fuzzed(120, seed=2)
    for name, tally in agreement.rewrite_prediction(cases).items():
        assert tally.rate >= 0.97, (name, tally.disagreements[:3])
    for name, tally in agreement.rewrite_places(cases).items():
        assert tally.rate >= 0.95, (name, tally.disagreements[:3])
    for name, tally in agreement.compatibility(cases).items():
        assert tally.rate >= 0.8, (name, tally.rate)
