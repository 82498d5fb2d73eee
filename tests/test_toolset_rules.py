"""SL501 too-many-tools, SL503 token-budget (and its estimator), SL504 overlapping-parameters."""

from __future__ import annotations

import random
import time

from schemalint.rules.sl501_too_many_tools import Options as ToolsOptions
from schemalint.rules.sl501_too_many_tools import TooManyTools
from schemalint.rules.sl503_token_budget import Options as BudgetOptions
from schemalint.rules.sl503_token_budget import TokenBudget
from schemalint.rules.sl504_overlapping_parameters import Options as OverlapOptions
from schemalint.rules.sl504_overlapping_parameters import OverlappingParameters
from schemalint.similarity.overlap import name_similarity, overlapping_parameter_pairs
from schemalint.testing import run_rule
from schemalint.token_estimate import PER_TOOL_OVERHEAD, estimate_text_tokens, estimate_tool_tokens


def _tool(name: str, description: str = "Does one thing.", *params: str) -> dict:
    return {
        "name": name,
        "description": description,
        "parameters": {"type": "object", "properties": {p: {"type": "string"} for p in params}},
    }


def test_sl501_flags_the_first_tool_past_the_limit() -> None:
    tools = [_tool(f"tool_{i}") for i in range(5)]
    (finding,) = run_rule(TooManyTools(ToolsOptions(max_tools=3)), tools)
    assert finding.pointer == "/3"
    assert finding.data == {"tools": 5, "max_tools": 3, "first_extra_tool": "tool_3", "path": "<test>"}
    assert "deferred loading / tool search" in finding.message
    assert run_rule(TooManyTools(ToolsOptions(max_tools=5)), tools) == []
    assert run_rule(TooManyTools(), [_tool(f"tool_{i}") for i in range(30)]) == []


def test_token_estimate_is_cjk_aware() -> None:
    assert estimate_text_tokens("") == 0
    assert estimate_text_tokens("get the weather") == 3
    assert estimate_text_tokens("internationalization") == 3  # 20 letters: one token per 8, rounded up
    assert estimate_text_tokens("查询天气") == 4  # one per ideograph
    assert estimate_text_tokens("2026") == 2
    assert estimate_text_tokens('{"a":"b"}') == 2 + 1 + 2 + 1  # two letters; symbol runs {" / ":" / "}
    english = estimate_text_tokens("Look up the weather for a city")
    chinese = estimate_text_tokens("查询某个城市的天气")
    assert chinese > english  # the same content costs more tokens in Chinese
    assert estimate_tool_tokens("a", "", None) > PER_TOOL_OVERHEAD
    assert estimate_text_tokens("word " * 100_000) == 100_000  # sampled and scaled past SAMPLE_CHARS


def test_sl503_reports_total_and_largest_tools() -> None:
    tools = [_tool(f"tool_{i}", "word " * 50, "x") for i in range(10)]
    tools.append(_tool("huge_tool", "长" * 400, "y"))
    total = sum(estimate_tool_tokens(t["name"], t["description"], t["parameters"]) for t in tools)
    (finding,) = run_rule(TokenBudget(BudgetOptions(max_tokens=total - 1)), tools)
    assert finding.data["estimated_tokens"] == total
    assert finding.data["largest"][0]["tool"] == "huge_tool"
    assert finding.pointer == "/10"  # the running total crosses the budget at the last tool
    assert f"~{total} tokens" in finding.message
    assert run_rule(TokenBudget(BudgetOptions(max_tokens=total)), tools) == []


def test_sl504_flags_same_parameters_and_similar_names() -> None:
    tools = [
        _tool("get_user_profile", "Get a profile.", "user_id", "fields"),
        _tool("fetchUserProfile", "Fetch a profile.", "userId", "fields"),
        _tool("lock_door", "Lock a door.", "device_id", "pin"),
        _tool("unlock_door", "Unlock a door.", "device_id", "pin"),
        _tool("get_order", "Get an order.", "user_id", "fields"),
        _tool("get_user_settings", "Get settings.", "user_id"),
    ]
    (finding,) = run_rule(OverlappingParameters(), tools)
    assert finding.pointer == "/1/name"
    assert finding.data["sibling"] == "get_user_profile"
    assert finding.data["shared_parameters"] == ["fields", "user_id"]
    assert "merge the two tools" in finding.message
    assert run_rule(OverlappingParameters(OverlapOptions(min_name_similarity=0.0)), tools[4:]) == []


def test_name_similarity_sets_verbs_aside() -> None:
    assert name_similarity("get_user_profile", "fetchUserProfile") == 1.0
    assert name_similarity("get_user", "get_order") == 0.0


def test_sl504_candidates_match_brute_force_on_many_tools() -> None:
    rng = random.Random(7)
    vocabulary = [f"p{i}" for i in range(40)]
    items = []
    for i in range(300):
        params = rng.sample(vocabulary[: 8 + i % 30], rng.randint(2, 5))
        items.append((f"get_thing_{i % 4}_{i}", "", {"properties": {p: {} for p in params}}))
    fast = {(p.first, p.second) for p in overlapping_parameter_pairs(items, 0.6, 0.3, 2)}
    slow = set()
    for i in range(len(items)):
        for j in range(i + 1, len(items)):
            a, b = set(items[i][2]["properties"]), set(items[j][2]["properties"])
            if len(a & b) / len(a | b) >= 0.6 and name_similarity(items[i][0], items[j][0]) >= 0.3:
                slow.add((i, j))
    assert fast == slow and fast


def test_sl504_scales_to_10k_tools() -> None:
    tools = [_tool(f"get_item_{i}", "", f"id_{i}", "fields", "limit") for i in range(10_000)]
    start = time.perf_counter()
    run_rule(OverlappingParameters(), tools)
    assert time.perf_counter() - start < 10
