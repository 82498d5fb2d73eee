from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding, Fix, PatchOperation
from schemalint.model import Severity, Tool
from schemalint.rules._provider_support import name_finding
from schemalint.rules.base import LintContext, ToolRule


class InvalidToolName(ToolRule):
    """
    ## What it does
    Checks the tool's name against the name rule of every target it is checked against:

    | target | allowed characters | length |
    |---|---|---|
    | OpenAI (Chat, Responses, strict or not) | `^[a-zA-Z0-9_-]+$` | 1-64 |
    | Anthropic | `^[a-zA-Z0-9_-]+$` | 1-128 |
    | Gemini | starts with a letter or `_`; then `[a-zA-Z0-9_.:-]` | 1-128 |
    | MCP (2025-11-25) | `[A-Za-z0-9_.-]` | 1-128 |

    The length limits come from the provider table in `schemalint/providers.py` and can be changed
    per target with `target-limits` (`max-tool-name-length`).

    ## Why is this bad?
    The provider rejects the whole request (OpenAI: `invalid_value` / `string_above_max_length`), not
    just this tool. Rules diverge: an MCP server may legally name a tool `files.read`, and every
    OpenAI request that forwards it then fails.

    ## Example
    ```json
    {"name": "files.read", "description": "...", "inputSchema": {"type": "object"}}
    ```

    ## Use instead
    ```json
    {"name": "files_read", "description": "...", "inputSchema": {"type": "object"}}
    ```

    ## Options
    None. Targets come from the dialect, `--target` or `targets`; limits from `target-limits`.

    ## Trade-off
    One finding per tool lists every target that objects. On an MCP tool, objections of the other
    providers are warnings (any client may forward the tool, but it may never reach that provider).

    ## Fix safety
    The fix renames the tool to a name every target accepts (`files.read` -> `files_read`). It is
    unsafe: the name is the tool's API, callers, prompts and evals that use the old name break.
    """

    severity = Severity.ERROR
    summary = "the tool name breaks a target's name rule (characters or length)"
    fixable = ("unsafe",)

    def check(self, tool: Tool, context: LintContext) -> Iterable[Finding]:
        if tool.name is None:
            return
        pointer = tool.name_pointer or tool.pointer
        if tool.name == "":
            yield Finding("the tool name is empty; every provider requires 1 or more characters", pointer)
            return
        finding = name_finding("tool name", tool.name, tool, context, "tool-name", pointer, allow_dash=True)
        if finding is None:
            return
        suggestion = finding.data["suggestion"]
        finding.fix = Fix(
            f"rename the tool to `{suggestion}`", (PatchOperation("replace", pointer, suggestion),), False
        )
        yield finding
