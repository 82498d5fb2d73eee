"""Eval fixtures: the cases a tool set is evaluated on, in the guide's shape.

`{"name": ..., "tools": ["get_order", ...], "cases": [{"input": ..., "expect": {"tool": "get_order",
"args": {...}, "requiresConfirmation": true}}]}`, or a JSON Lines file (or a JSON array) of such cases.
A negative case expects no call: `"tool": null`. A case's kinds come from `kind`/`kinds`/`type`/
`category`/`tags`; positive and negative also from whether it expects a tool.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from schemalint.model import JSON, EvalCase, EvalFixture, is_mapping, join_pointer

KINDS = ("positive", "negative", "boundary", "adversarial")
#: labels a case may carry, by the kind they stand for
_KIND_LABELS = {
    label: kind
    for kind, labels in {
        "positive": "positive 正例",
        "negative": "negative 负例",
        "boundary": "boundary edge edge-case edge_case 边界",
        "adversarial": "adversarial red-team redteam injection prompt-injection jailbreak attack 对抗",
    }.items()
    for label in labels.split()
}
_KIND_KEYS = ("kind", "kinds", "type", "category", "tags", "tag")
_CONFIRMATION_KEYS = ("requiresConfirmation", "requires_confirmation")


def detect_fixture(data: JSON, path: str) -> EvalFixture | None:
    """The fixture a document holds, or None when it is not one."""
    if is_mapping(data) and isinstance(data.get("cases"), list) and _holds_cases(data["cases"]):
        listed = data.get("tools")
        names = None
        if isinstance(listed, list):
            names = tuple((name, f"/tools/{i}") for i, name in enumerate(listed) if isinstance(name, str))
        return EvalFixture(path, _cases(data["cases"], "/cases"), "/cases", names)
    if isinstance(data, list) and data and all(is_mapping(item) and "expect" in item for item in data):
        return EvalFixture(path, _cases(data, ""), "")
    return None


def _holds_cases(items: list[Any]) -> bool:
    return any(is_mapping(item) and is_mapping(item.get("expect")) for item in items)


def _cases(items: list[Any], pointer: str) -> list[EvalCase]:
    cases = []
    for i, item in enumerate(items):
        if is_mapping(item) and is_mapping(item.get("expect")):
            cases.append(_case(item, join_pointer(pointer, i)))
    return cases


def _case(item: Mapping[str, Any], pointer: str) -> EvalCase:
    expect = item["expect"]
    expect_pointer = join_pointer(pointer, "expect")
    tool = expect.get("tool")
    named = "tool" in expect and (tool is None or isinstance(tool, str))
    kinds = set(_labels(item)) | set(_labels(expect))
    if named:
        kinds.add("negative" if tool is None else "positive")
    args = expect.get("args", expect.get("arguments"))
    args_key = "args" if "args" in expect else "arguments"
    return EvalCase(
        pointer=pointer,
        tool=tool if isinstance(tool, str) else None,
        tool_pointer=join_pointer(expect_pointer, "tool") if named else None,
        args=args,
        args_pointer=join_pointer(expect_pointer, args_key) if is_mapping(args) else None,
        requires_confirmation=any(expect.get(key) is True for key in _CONFIRMATION_KEYS),
        kinds=frozenset(kinds),
    )


def _labels(holder: Mapping[str, Any]) -> list[str]:
    labels: list[str] = []
    for key in _KIND_KEYS:
        value = holder.get(key)
        values = value if isinstance(value, list) else [value]
        texts = [v.strip().lower() for v in values if isinstance(v, str)]
        labels.extend(_KIND_LABELS[text] for text in texts if text in _KIND_LABELS)
    return labels
