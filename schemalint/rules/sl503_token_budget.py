from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import Severity, ToolSet
from schemalint.rules.base import LintContext, ToolSetRule, rule_options
from schemalint.token_estimate import estimate_tool_tokens


@rule_options
class Options:
    max_tokens: int = 10000
    """Estimated tokens the whole set's definitions may take."""


class TokenBudget(ToolSetRule):
    """
    ## What it does
    Estimates the tokens the set's tool definitions (name, description and parameters schema of
    every tool) take in the model's context and flags the set when the total is over `max-tokens`.
    The finding sits on the tool at which the running total crosses the budget and lists the
    largest tools. Tools a request body defers (`defer_loading: true`) are not counted: their
    definitions stay out of the context until a search loads them.

    The estimate (schemalint/token_estimate.py) is a documented heuristic, CJK-aware: one token per
    CJK character, per 8 Latin letters of a word (at least one), per 3 digits and per 2 symbol
    characters, plus 8 tokens of framing per tool. No tokenizer of the models that read tools is
    available offline, so it is an estimate, not a count.

    ## Why is this bad?
    The definitions are sent with every request: a large set costs money and latency on every
    call, leaves less room for the conversation, and a five-server MCP setup can reach ~55k tokens
    before the user says anything.

    ## Example
    Forty tools whose descriptions each paste a page of API documentation.

    ## Use instead
    Shorten descriptions to what the model needs to choose and call the tool, drop rarely used
    tools, or load tools on demand (deferred loading / tool search).

    ## Trade-off
    The estimate can be off by 20% or more against a given provider's tokenizer; set `max-tokens`
    with that margin in mind.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.WARNING
    summary = "the set's definitions are estimated over max-tokens (default 10,000)"
    Options = Options

    def check(self, toolset: ToolSet, context: LintContext) -> Iterable[Finding]:
        budget = self.options.max_tokens
        loaded = [tool for tool in toolset.tools if not tool.deferred]  # deferred ones are loaded on demand
        costs = [estimate_tool_tokens(t.name, t.description, t.parameters) for t in loaded]
        total = sum(costs)
        if total <= budget:
            return
        running = 0
        crossing = loaded[-1]
        for tool, cost in zip(loaded, costs, strict=True):
            running += cost
            if running > budget:
                crossing = tool
                break
        largest = sorted(zip(costs, (t.display_name for t in loaded), strict=True), key=lambda c: -c[0])[:5]
        listed = ", ".join(f"{name} (~{cost})" for cost, name in largest)
        yield Finding(
            f"the {len(costs)} tool definitions of this set take an estimated ~{total} tokens (max-tokens is "
            f"{budget}), sent with every request; the largest: {listed}. Shorten descriptions, drop rarely used "
            "tools, or load tools on demand",
            crossing.pointer,
            data={
                "estimated_tokens": total,
                "max_tokens": budget,
                "estimator": "heuristic",
                "largest": [{"tool": name, "tokens": cost} for cost, name in largest],
                "path": crossing.path,
            },
        )
