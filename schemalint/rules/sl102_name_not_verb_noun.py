from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.lazy_pattern import LazyPattern
from schemalint.model import Severity, Tool
from schemalint.rules.base import LintContext, ToolRule, rule_options, vocabulary
from schemalint.rules.sl101_generic_tool_name import GENERIC_WORDS
from schemalint.text import ALL_VERBS, is_verb_like, split_name, words_in

_GENERIC_WORDS = frozenset(GENERIC_WORDS)
#: the first word of a description (after a bracketed tag such as "[Beta]"), a word on its own: not
#: an acronym ("ECS tool") or part of a compound ("Task-aware")
_OPENING_WORD = LazyPattern(r"\W*(?:\[[^\]]*\]\W*)?([A-Za-z][a-z]+)[\s,]")


@rule_options
class Options:
    extend_verbs: tuple[str, ...] = ()
    """Extra words to accept as verbs (domain verbs such as `geocode`, `rebook`)."""


class NameNotVerbNoun(ToolRule):
    """
    ## What it does
    Flags a tool name that does not read as verb + object: a name with no verb (`order`,
    `orders_tool`, `weather_forecast`) or a verb with nothing to act on (`calculate`).
    The verb may stand anywhere, so `get_order`, `search_orders`, `kb_search` and
    `issue_write` all pass, and so do nouns made from verbs (`equation_solver`,
    `sentiment_analysis`) and conversions (`fahrenheit_to_celsius`).

    ## Why is this bad?
    A verb says what the tool does, the object says to what. With only one of them the model
    has to guess from the description, and similar tools become harder to tell apart.

    ## Example
    ```json
    {"name": "order", "description": "Order details by id."}
    ```

    ## Use instead
    `get_order`, `cancel_order`, `search_orders`.
    ```json
    {"name": "get_order", "description": "Order details by id."}
    ```

    ## Trade-off
    Verbs are recognised from a fixed English vocabulary (schemalint.text), or from the
    description when it opens with a word of the name ("Resize a node" for `figma_resize_node`);
    another domain verb the list lacks reads as a noun: add it with `extend-verbs`. Names made only of generic words are
    left to SL101 so that one name gets one finding.

    ## Fix safety
    No automatic fix: renaming a tool breaks callers.
    """

    severity = Severity.INFO
    summary = "the tool name does not read as verb + object"
    Options = Options

    verbs = vocabulary(ALL_VERBS, "extend_verbs")

    def check(self, tool: Tool, context: LintContext) -> Iterable[Finding]:
        if not tool.name or tool.name_pointer is None:
            return
        words = [w for w in split_name(tool.name) if not w.isdigit()]
        if not words or words_in(words, _GENERIC_WORDS):
            return
        verbs = self.verbs
        if "to" in words[1:-1]:
            return  # a conversion: `fahrenheit_to_celsius`
        if len(words) == 1:
            problem = "is a single word"
        elif not any(is_verb_like(w, verbs) for w in words) and not _described_verb(words, tool.description or ""):
            problem = "has no verb"
        else:
            return
        yield Finding(
            f"tool name `{tool.name}` {problem}; use verb + object such as `get_order` or `search_orders`",
            tool.name_pointer,
            data={"name": tool.name, "words": words},
        )


def _described_verb(words: list[str], description: str) -> bool:
    """Whether the description opens with a word of the name as its verb: "Regenerate the secret" for
    `regenerate_secret`, "Peeks at the queue" for `queue_peek`, verbs the vocabulary lacks."""
    match = _OPENING_WORD.match(description)
    if match is None:
        return False
    opening = match.group(1).lower()
    return any(opening in (word, f"{word}s", f"{word}es") for word in words)
