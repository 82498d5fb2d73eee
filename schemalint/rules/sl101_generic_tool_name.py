from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import Severity, Tool
from schemalint.rules.base import LintContext, ToolRule, rule_options, vocabulary
from schemalint.text import split_name, words_in

GENERIC_WORDS = tuple(
    """
    search query lookup look up get fetch find run execute exec process handle do perform call invoke
    tool tools data info information function func action api request helper util utils utility main
    default general generic misc thing stuff manage manager handler
    """.split()
)


@rule_options
class Options:
    generic_words: tuple[str, ...] = GENERIC_WORDS
    """Words that say nothing about what a tool does (replaces the default list)."""
    extend_generic_words: tuple[str, ...] = ()
    """Words added to `generic-words` (e.g. your company's product name)."""


class GenericToolName(ToolRule):
    """
    ## What it does
    Flags a tool whose name is made only of generic words: `search`, `query`, `lookup`, `get_data`,
    `run_tool`, `process_request`. Names are split on snake_case, camelCase, kebab-case and dots.

    ## Why is this bad?
    The name is the first thing a model matches a request against. A generic name competes with
    every other tool in the set, and two servers that both expose `search` collide outright.

    ## Example
    ```json
    {"name": "search", "description": "Search for information."}
    ```

    ## Use instead
    Say what is searched, and where: `search_orders`, `kb_search`, `lookup_user`.
    ```json
    {"name": "search_orders", "description": "Search the customer's orders by status or date."}
    ```

    ## Trade-off
    Only names made *entirely* of generic words are flagged: `web_search` and `get_order` pass,
    because one specific word is enough for the model to tell tools apart. A verb with a domain
    noun (`get_task`, `get_item`, `list_results`, `run_operation`) is what the guide recommends and
    passes: the nouns a server is built around (tasks, items, resources) are its domain.

    ## Fix safety
    No automatic fix: a rename is a breaking change for callers (see SL902).
    """

    severity = Severity.WARNING
    summary = "the tool name is made only of generic words (search, query, get_data, run_tool...)"
    Options = Options

    generic_words = vocabulary("generic_words", "extend_generic_words")

    def check(self, tool: Tool, context: LintContext) -> Iterable[Finding]:
        if not tool.name or tool.name_pointer is None:
            return
        words = split_name(tool.name)
        if words_in(words, self.generic_words):
            yield Finding(
                f"tool name `{tool.name}` is only generic words; name the object and domain "
                f"(e.g. `search_orders` rather than `search`)",
                tool.name_pointer,
                data={"name": tool.name, "words": words},
            )
