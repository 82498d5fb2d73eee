from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import Severity, Tool
from schemalint.rules.base import LintContext, ToolRule, rule_options
from schemalint.text import analysed, text_units


@rule_options
class Options:
    min_words: int = 6
    """Shortest acceptable description, in words (two CJK characters count as one word)."""


class ShortDescription(ToolRule):
    """
    ## What it does
    Flags a tool description shorter than `min-words` words. Chinese, Japanese and Korean text
    has no spaces, so every two CJK characters count as one word: `查询订单` is two words, like
    "look up orders".

    ## Why is this bad?
    The description is how the model decides *when* to call the tool. A few words ("Book a
    reservation.") cannot say when to use it, when not to, where the inputs come from, what comes
    back and whether it changes anything.

    ## Example
    ```json
    {"name": "get_order", "description": "查询订单"}
    ```

    ## Use instead
    ```json
    {"name": "get_order", "description": "Look up one order by its id when the user asks about its status, amount or delivery. Not for reports or exports; use export_orders. Read-only."}
    ```

    ## Trade-off
    Length is a proxy: a six-word description can still be useless, and SL203 checks for the
    most often missing part (when not to use the tool). A missing description is SL201's finding,
    not this one's.

    ## Fix safety
    No automatic fix: only a person knows what the tool is for.
    """

    severity = Severity.WARNING
    summary = "the tool description is too short to say when to use the tool (CJK-aware length)"
    Options = Options

    def check(self, tool: Tool, context: LintContext) -> Iterable[Finding]:
        text = analysed(tool.description).strip()
        if not text or tool.description_pointer is None:
            return
        length = text_units(text)
        if length < self.options.min_words:
            yield Finding(
                f"description is {length} word(s) long (min-words is {self.options.min_words}); say when to use "
                "the tool, when not to, and what it returns",
                tool.description_pointer,
                data={"words": length, "min_words": self.options.min_words},
            )
