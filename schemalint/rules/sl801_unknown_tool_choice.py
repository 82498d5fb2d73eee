from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import Request, Severity
from schemalint.rules.base import LintContext, RequestRule


class UnknownToolChoice(RequestRule):
    """
    ## What it does
    Flags a request body whose tool choice names a tool the request does not send: OpenAI Chat
    `tool_choice: {"type": "function", "function": {"name": ...}}`, OpenAI Responses
    `{"type": "function", "name": ...}`, either API's `allowed_tools` list, Anthropic
    `tool_choice: {"type": "tool", "name": ...}`, and Gemini
    `toolConfig.functionCallingConfig.allowedFunctionNames` (also spelled `tool_config` /
    `function_calling_config` / `allowed_function_names`).

    ## Why is this bad?
    The API rejects the request, or (Gemini's allowed names) the model is left allowed to call
    nothing that exists. It happens when a tool is renamed or moved to another set and the request
    that forces it is not updated: the tool definitions pass review, the request fails at run time.

    ## Example
    ```json
    {"model": "gpt-4.1", "messages": [], "tools": [{"type": "function", "function": {"name": "get_order", "parameters": {"type": "object"}}}], "tool_choice": {"type": "function", "function": {"name": "lookup_order"}}}
    ```

    ## Use instead
    ```json
    {"model": "gpt-4.1", "messages": [], "tools": [{"type": "function", "function": {"name": "get_order", "parameters": {"type": "object"}}}], "tool_choice": {"type": "function", "function": {"name": "get_order"}}}
    ```

    ## Trade-off
    The names a choice may use are those of every entry of the request's `tools` (server and
    search tools included) and the functions inside OpenAI namespaces. A request that sends an MCP
    server (OpenAI `{"type": "mcp"}`, Anthropic `mcp_toolset`) is not checked: its tools' names
    are not in the body. A request body is a JSON or
    YAML document (or an array of them) with `tools` and a request key (`model`, `messages`,
    `input`, `contents`, `tool_choice`, ...).

    ## Sources
    OpenAI's `tool_choice` with a function and `allowed_tools`
    (https://platform.openai.com/docs/guides/function-calling), Anthropic's `{type: "tool", name}`
    (https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview) and Gemini's
    function-calling `mode` with `allowedFunctionNames`
    (https://ai.google.dev/gemini-api/docs/function-calling), spelled as those references spell them.

    ## Fix safety
    No automatic fix: which tool was meant is for the author to say.
    """

    severity = Severity.ERROR
    summary = "a request's tool choice names a tool the request does not send"

    def check(self, request: Request, context: LintContext) -> Iterable[Finding]:
        choice = request.tool_choice
        if choice is None or request.has_unlisted_tools:
            return
        for name, pointer in choice.names:
            if name not in request.entry_names:
                yield Finding(
                    f"the tool choice names `{name}`, which this request does not send; "
                    "name one of its tools or add the tool",
                    pointer,
                    data={"tool": name},
                )
