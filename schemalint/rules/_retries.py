"""What makes repeating a call safe: an idempotency key parameter, or a statement that retries are
safe. Shared by SL702 (a write that retries) and SL803 (a write that runs in parallel)."""

from __future__ import annotations

import re

from schemalint.lazy_pattern import LazyPattern
from schemalint.model import Tool, is_mapping
from schemalint.text import analysed, properties_of, split_name, word_set

#: parameter-name words that make a request its own identity; alone, only the first two do
_KEY_ALONE = word_set("idempotency idempotent")
_KEY_OWNER = word_set("request client dedup dedupe deduplication operation transaction unique nonce")
_KEY_WORDS = word_set("id key token")
_SAFE_RETRY = LazyPattern(
    r"""
    \bidempoten | \bsafe\s+to\s+(?:retry|repeat|call\s+(?:again|twice|more\s+than\s+once)|re-?run)
    | \b(?:retr(?:y|ies|ying)|repeat(?:ing)?(?:\s+(?:the|this|a))?\s+(?:call|request)s?)\s+(?:is|are)\s+safe
    | \breplac(?:es|ing)\s+(?:any|the)\s+(?:earlier|previous|existing) | \bde-?duplicat | \bat\s+most\s+once
    | \b(?:called|calling|repeat(?:ed|ing)?)\s+(?:\w+\s+){0,3}(?:has|have)\s+no\s+(?:further\s+|additional\s+)?effect
    """,
    re.VERBOSE | re.IGNORECASE,
)
_SAFE_RETRY_ZH = LazyPattern(r"幂等|可(?:以)?安全(?:地)?重试|重复调用(?:不会|无)", needs_non_ascii=True)


#: a parameter of any name described as the request's dedupe key: "so the request is not processed twice"
_DEDUPE_TEXT = LazyPattern(
    r"(?<!\bnot\s)(?<!\bnon-)(?<!\bnon)\bidempoten|\bde-?dup|\bnot\s+(?:be\s+)?(?:processed|applied|executed|run|charged|sent)\s+"
    r"(?:more\s+than\s+once|twice|multiple\s+times|again)|\bprevents?\s+duplicate",
    re.IGNORECASE,
)


def has_idempotency_key(tool: Tool) -> bool:
    """A top-level parameter such as `idempotency_key`, `client_request_id`, `dedupe_key`, `clientToken`, or one
    whose description says it keeps a repeat from being processed twice."""
    for name, schema in properties_of(tool.parameters).items():
        words = set(split_name(name)) if isinstance(name, str) else set()
        if words & _KEY_ALONE or (words & _KEY_OWNER and words & _KEY_WORDS):
            return True
        description = schema.get("description") if is_mapping(schema) else None
        if isinstance(description, str) and _DEDUPE_TEXT.search(description):
            return True
    return False


def states_safe_retry(tool: Tool) -> bool:
    """The description says repeating the call is safe ("idempotent", "safe to retry", "幂等"), or MCP
    `idempotentHint: true` does."""
    annotations = tool.annotations
    if is_mapping(annotations) and annotations.get("idempotentHint") is True:
        return True
    text = analysed(tool.description)
    return bool(_SAFE_RETRY.search(text) or _SAFE_RETRY_ZH.search(text))
