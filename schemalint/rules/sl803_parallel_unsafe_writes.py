from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import Dialect, Request, Severity, Tool
from schemalint.rules._retries import has_idempotency_key, states_safe_retry
from schemalint.rules.base import LintContext, RequestRule
from schemalint.rules.sl205_undocumented_side_effects import Options, WritingVerbs
from schemalint.rules.sl702_missing_idempotency_key import REPEAT_UNSAFE_VERBS

#: the APIs whose parallel calls are on unless the request turns them off: OpenAI's
#: `parallel_tool_calls` defaults to true, Anthropic's `disable_parallel_tool_use` to false
_PARALLEL_BY_DEFAULT = frozenset({Dialect.OPENAI_CHAT, Dialect.OPENAI_RESPONSES, Dialect.ANTHROPIC})


class ParallelUnsafeWrites(WritingVerbs, RequestRule):
    """
    ## What it does
    Flags a request body that lets the model call tools in parallel (OpenAI `parallel_tool_calls:
    true` or left out, which defaults to true; Anthropic `tool_choice` without
    `disable_parallel_tool_use: true`, which defaults to false) while it sends a writing tool that
    is neither documented as idempotent nor takes an idempotency key. A tool writes when its name's
    action verb is one of SL205's writing verbs (`create`, `update`, `delete`, `send`, `pay`,
    `run`, ...); it is safe when it takes a key (`idempotency_key`, `client_request_id`, ...) or its
    description says retries are safe ("idempotent", "safe to retry", "幂等"), the vocabulary SL702
    uses. The finding names the tools, those that do something again when repeated (SL702's verbs:
    `create`, `send`, `pay`, `book`, ...) first.

    ## Why is this bad?
    Parallel calls are safe when they have no data dependency and are read-only or idempotent.
    Two writes in one turn race each other: the model that charges an account twice, or books the
    same slot from two calls, cannot pair the results back into a consistent state. Turning
    parallel calls off for requests that carry such writes (or making the writes idempotent) keeps
    them one at a time.

    ## Example
    ```json
    {"model": "gpt-4.1", "messages": [], "tools": [{"type": "function", "function": {"name": "charge_card", "description": "Charges the customer's card.", "parameters": {"type": "object", "properties": {"amount_cents": {"type": "integer"}}}}}]}
    ```

    ## Use instead
    ```json
    {"model": "gpt-4.1", "messages": [], "tools": [{"type": "function", "function": {"name": "charge_card", "description": "Charges the customer's card.", "parameters": {"type": "object", "properties": {"amount_cents": {"type": "integer"}}}}}], "parallel_tool_calls": false}
    ```

    ## Trade-off
    Gemini has no switch for parallel calls in the request, so Gemini bodies are not flagged (make
    the tool idempotent instead). The defaults come from the OpenAI API reference
    (`parallel_tool_calls`, default true; https://platform.openai.com/docs/guides/function-calling)
    and the Anthropic SDKs' `disable_parallel_tool_use` (default false;
    https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview). A request whose tool
    choice is "none" is left alone.

    ## Fix safety
    No automatic fix: turning parallel calls off slows down the read-only calls too.
    """

    severity = Severity.WARNING
    summary = "a request allows parallel calls while it sends writes that are not idempotent"
    Options = Options

    def check(self, request: Request, context: LintContext) -> Iterable[Finding]:
        parallel = request.parallel_calls
        if parallel is False or (parallel is None and request.api not in _PARALLEL_BY_DEFAULT):
            return
        if request.tool_choice is not None and request.tool_choice.mode == "none":
            return
        verbs = {tool.display_name: self._unsafe_verb(tool) for tool in request.tools}
        # the writes that do something again when repeated (SL702's verbs: create, send, pay...) first
        unsafe = sorted(
            (name for name, verb in verbs.items() if verb), key=lambda n: verbs[n] not in REPEAT_UNSAFE_VERBS
        )
        if not unsafe:
            return
        shown = ", ".join(f"`{name}`" for name in unsafe[:5]) + (
            f" and {len(unsafe) - 5} more" if len(unsafe) > 5 else ""
        )
        switch = (
            "`disable_parallel_tool_use: true` in `tool_choice`"
            if request.api is Dialect.ANTHROPIC
            else ("`parallel_tool_calls: false`")
        )
        how = "allows parallel calls" if parallel else "leaves parallel calls on (the API's default)"
        yield Finding(
            f"this request {how} while {shown} {'writes' if len(unsafe) == 1 else 'write'} without an idempotency key or a statement "
            f"that repeating is safe; set {switch} or make the writes idempotent",
            request.parallel_pointer or request.tools_pointer,
            key=True,
            data={"tools": unsafe},
        )

    def _unsafe_verb(self, tool: Tool) -> str | None:
        """The writing verb of a tool that is neither keyed nor documented idempotent, else None."""
        verb = self.writing_verb(tool.name)
        if verb is None or has_idempotency_key(tool) or states_safe_retry(tool):
            return None
        return verb
