from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import Request, Severity
from schemalint.rules.base import LintContext, RequestRule


class ToolChoiceNone(RequestRule):
    """
    ## What it does
    Flags a request body that sends tools while forbidding the model to call any: OpenAI
    `tool_choice: "none"`, Anthropic `tool_choice: {"type": "none"}`, Gemini
    `functionCallingConfig.mode: NONE`.

    ## Why is this bad?
    The definitions are still sent and paid for on every request (a set of a few dozen tools costs
    thousands of input tokens), and a model that sees tools it may not call sometimes describes
    the call in text instead. When no call is wanted, leaving the tools out is cheaper and clearer.

    ## Example
    ```json
    {"model": "claude-sonnet-4-5", "messages": [], "tools": [{"name": "get_order", "input_schema": {"type": "object"}}], "tool_choice": {"type": "none"}}
    ```

    ## Use instead
    ```json
    {"model": "claude-sonnet-4-5", "messages": []}
    ```

    ## Trade-off
    Keeping the tools in a "none" turn can be deliberate: the prompt cache keys on the tool list,
    so a conversation that calls tools in other turns may keep them to stay cached. Suppress the
    finding for such a request.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.INFO
    summary = "a request sends tools but forbids calling any of them"

    def check(self, request: Request, context: LintContext) -> Iterable[Finding]:
        choice = request.tool_choice
        if choice is None or choice.mode != "none" or not request.tools:
            return
        yield Finding(
            f"the tool choice forbids calls but the request sends {len(request.tools)} tool definition(s), "
            "paid for as input tokens; leave the tools out of requests that must not call them",
            choice.pointer,
            data={"tools": len(request.tools)},
        )
