"""SL501 too-many-tools, SL503 token-budget (and its estimator), SL504 overlapping-parameters."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from schemalint.rules.sl501_too_many_tools import Options as ToolsOptions
from schemalint.rules.sl501_too_many_tools import TooManyTools
from schemalint.rules.sl503_token_budget import Options as BudgetOptions
from schemalint.rules.sl503_token_budget import TokenBudget
from schemalint.rules.sl504_overlapping_parameters import Options as OverlapOptions
from schemalint.rules.sl504_overlapping_parameters import OverlappingParameters
from schemalint.similarity.actions import opposite_actions, tool_action
from schemalint.similarity.overlap import (
    ParameterOverlap,
    _Candidate,
    _candidate_pairs,
    different_jobs,
    name_similarity,
    name_words,
    overlapping_parameter_pairs,
    parameter_names,
)
from schemalint.testing import run_rule
from schemalint.token_estimate import PER_TOOL_OVERHEAD, _estimate_pieces, estimate_text_tokens, estimate_tool_tokens


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


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=80))
def test_token_estimate_ascii_fast_path_matches_the_definition(text: str) -> None:
    assert estimate_text_tokens(text) == _estimate_pieces(text)


def test_token_estimate_ascii_fast_path_keeps_underscore_runs_apart() -> None:
    for text in ['"_"', "a__b", "x1_2y", "\x1c{}\x1f", "___,,,"]:
        assert estimate_text_tokens(text) == _estimate_pieces(text), text


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


def test_sl504_leaves_names_that_say_the_jobs_differ_alone() -> None:
    params = ("account_id", "body", "confirm")
    separated = [
        ("create_invoice", "update_invoice"),  # other verbs on the same object
        ("forward_chat_message", "update_chat_message"),  # `message` is a verb too, but not the action
        ("install_cert", "uninstall_cert"),  # a word of one undoes one of the other
        ("list_inbound_events", "list_outbound_events"),  # each has an object word the other lacks
        ("get_ticket", "get_ticket_comments"),  # the longer one names a part of the object
        ("archive_note", "archive_note_list"),  # `list` after an object word is a noun
        ("rest_put", "rest_patch"),  # HTTP methods: a replace and an edit are different requests
        ("gateway.send_post", "gateway.send_put"),
        ("cinema.find_showings", "book.find_showings"),  # a namespace names a thing, not the action
    ]
    for left, right in separated:
        assert run_rule(OverlappingParameters(), [_tool(left, "", *params), _tool(right, "", *params)]) == []
    alike = [
        ("get_weather", "get_current_weather"),
        ("fetch_order", "get_order"),
        ("verify_address", "validate_address"),
        ("export_report", "export_report2"),
        ("list_members", "list_team_members"),
        ("rest_patch", "rest_update"),  # `update` is no HTTP method: as alike as before
        ("venue.find_showings", "venue.find_showings2"),
    ]
    for left, right in alike:
        assert len(run_rule(OverlappingParameters(), [_tool(left, "", *params), _tool(right, "", *params)])) == 1


def test_name_similarity_sets_verbs_aside() -> None:
    assert name_similarity("get_user_profile", "fetchUserProfile") == 1.0
    assert name_similarity("get_user", "get_order") == 0.0


def test_sl504_candidates_match_brute_force_on_many_tools() -> None:
    rng = random.Random(7)
    vocabulary = [f"p{i}" for i in range(40)]
    items: list[tuple[str, str, dict]] = []
    modifiers = ["red", "big", "old", "hot", "x1", "x2"]
    for i in range(300):
        params = rng.sample(vocabulary[: 8 + i % 30], rng.randint(2, 5))
        name = "_".join(["get", *rng.sample(modifiers, rng.randint(0, 3)), f"thing{i % 4}"])
        items.append((name, "", {"properties": {p: {} for p in params}}))
    fast = {(p.first, p.second) for p in overlapping_parameter_pairs(items, 0.6, 0.3, 2)}
    slow = set()
    for i in range(len(items)):
        for j in range(i + 1, len(items)):
            a, b = set(items[i][2]["properties"]), set(items[j][2]["properties"])
            names = items[i][0], items[j][0]
            alike = names[0] != names[1] and name_similarity(*names) >= 0.3 and not different_jobs(*names)
            if alike and len(a & b) / len(a | b) >= 0.6:
                slow.add((i, j))
    assert fast == slow and fast


def test_sl504_matches_comparing_every_pair() -> None:
    """Candidate generation drops no pair: verb-only names (`get_list`), unnamed and duplicate tools,
    thresholds whose products round up (0.7 x 10) and a name threshold of 0 included."""
    rng = random.Random(11)
    words = ["get", "list", "set", "lock", "unlock", "create", "order", "user", "profile", "item", "x1", "x2"]
    params = [f"p{i}" for i in range(10)] + ["userId", "user_id", "fields"]
    checked = 0
    for _ in range(150):
        items: list[tuple[str | None, str | None, dict]] = [
            (
                "_".join(rng.choices(words, k=rng.randint(0, 4))) or None,
                rng.choice(["", "Lock the door.", "Unlock it.", None]),
                {"properties": {key: {} for key in rng.sample(params, rng.randint(0, 10))}},
            )
            for _ in range(rng.randint(2, 40))
        ]
        min_overlap = rng.choice([0.0, 0.3, 0.5, 0.7, 0.8, 1.0])
        min_name = rng.choice([0.0, 0.2, 1 / 3, 0.5, 0.7, 1.0])
        min_parameters = rng.choice([0, 2, 3])
        expected = []
        for second in range(len(items)):
            for first in range(second):
                pair = _compare_directly(items, first, second, min_overlap, min_name, min_parameters)
                if pair is not None:
                    expected.append(pair)
        found = overlapping_parameter_pairs(items, min_overlap, min_name, min_parameters)
        assert found == expected
        checked += len(found)
    assert checked > 200
    # names sharing 3 of 15 words reach 0.2 exactly, though 2 * 0.2 / 1.2 * 9 rounds up past 3: they
    # are candidates (then told apart, as each has object words the other lacks)
    left, right = "_".join([*"abcdef", "x", "y", "z"]), "_".join([*"ghijkl", "x", "y", "z"])
    candidates = {i: _Candidate(name, "", frozenset("pq"), name_words(name)) for i, name in enumerate((left, right))}
    assert _candidate_pairs(candidates, 0.8, 0.2) == {(0, 1)}


def _compare_directly(
    items: list, first: int, second: int, min_overlap: float, min_name: float, min_parameters: int
) -> ParameterOverlap | None:
    (left_name, left_text, left_params), (right_name, right_text, right_params) = items[first], items[second]
    left, right = parameter_names(left_params), parameter_names(right_params)
    if min(len(left), len(right)) < max(1, min_parameters) or not left & right:
        return None
    if not left_name or not right_name or left_name == right_name:
        return None
    overlap, similarity = len(left & right) / len(left | right), name_similarity(left_name, right_name)
    if overlap < min_overlap or similarity < min_name or different_jobs(left_name, right_name):
        return None
    if opposite_actions(tool_action(left_name, left_text or ""), tool_action(right_name, right_text or "")):
        return None
    return ParameterOverlap(first, second, overlap, similarity, tuple(sorted(left & right)))


def test_sl504_compares_only_tools_sharing_rare_names_and_parameters() -> None:
    # 10k tools with the same parameters: only the names' rare words (the numbers) tell them apart
    tools = [_tool(f"get_item_{i}", "", f"id_{i % 7}", "fields", "limit") for i in range(10_000)]
    items = [(t["name"], t["description"], t["parameters"]) for t in tools]
    assert overlapping_parameter_pairs(items, 0.8, 0.5, 2) == []
    candidates = {i: _Candidate(n, d, parameter_names(p), name_words(n)) for i, (n, d, p) in enumerate(items)}
    assert _candidate_pairs(candidates, 0.8, 0.5) == set()
