from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import Severity, Tool
from schemalint.providers import label
from schemalint.rules.base import LintContext, ToolRule, rule_options
from schemalint.sdk_rewrites import SDK_MODELS, Change, SdkModel, outcome

_SDK_NAMES = frozenset(model.runs_in for model in SDK_MODELS)
#: how many changes a message spells out before "and N more"
SHOWN_CHANGES = 4


@rule_options
class Options:
    report_lossless: bool = False
    """Also report rewrites that lose nothing (a `title` dropped, `additionalProperties: false` added)."""


class SdkRewrite(ToolRule):
    """
    ## What it does
    Predicts what the official SDKs will do to the tool's parameters on the way to the provider,
    and says what is lost. Modelled functions (versions checked against the real SDKs by
    `benchmarks/provider_agreement.py`):

    | target | SDK function |
    |---|---|
    | `openai-strict` | openai-agents `ensure_strict_json_schema` (strict function tools, the default) |
    | `openai-strict` | pydantic-ai `_OpenAIJsonSchemaTransformer(strict=True)` (every model but `ft:` ones) |
    | `anthropic-strict` | anthropic `transform_schema`, as pydantic-ai runs it on strict tools |
    | `gemini` | pydantic-ai `GoogleJsonSchemaTransformer` |

    The anthropic SDK itself does not rewrite tools: `messages.create(tools=[...])` sends a strict
    tool's `input_schema` as written (it runs `transform_schema` on output formats only), so the
    Anthropic row is about tools sent through pydantic-ai.

    Typical losses: an optional property made required without becoming nullable (the model must
    invent a value); `oneOf` turned into `anyOf` (exclusivity lost); `minLength`, `pattern`,
    `minimum`, `default` or an unsupported `format` moved into the description, where nothing
    enforces them; a `description` beside `$ref` dropped; `exclusiveMinimum` dropped. When the SDK
    raises instead, the message says so.

    ## Why is this bad?
    The schema you review is not the schema the model sees. Constraints you rely on silently stop
    being enforced, and the model may be forced to send values you meant to be optional.

    ## Example
    A strict OpenAI tool used through openai-agents:
    ```json
    {"name": "get_weather", "strict": true, "parameters": {
      "type": "object", "additionalProperties": false, "required": ["city"],
      "properties": {"city": {"type": "string"}, "note": {"type": "string"}}}}
    ```
    openai-agents makes `note` required, still as a plain string.

    ## Use instead
    Write the schema the SDK would produce, on purpose: `"required": ["city", "note"]` and
    `"note": {"type": ["string", "null"]}`.

    ## Trade-off
    An info finding per SDK, only for the targets the tool is checked against: schemalint cannot
    know which SDK you use, except for tools extracted from Python written for openai-agents or
    pydantic-ai, which go through that SDK only. A pydantic-generated `title` that an SDK drops is
    not reported as a loss. The models cover the rewrites of the SDK versions named above; a new SDK
    release may change them (the benchmark shows it).

    ## Fix safety
    No automatic fix: the right schema depends on what the constraint was for.
    """

    severity = Severity.INFO
    summary = "the target's official SDK will silently rewrite this schema (and what is lost)"
    Options = Options

    def check(self, tool: Tool, context: LintContext) -> Iterable[Finding]:
        if tool.parameters_pointer is None:
            return
        targets = context.targets(tool)
        for model in SDK_MODELS:
            if model.target not in targets:
                continue
            if tool.framework in _SDK_NAMES and tool.framework != model.runs_in:
                continue  # a tool written for one SDK goes through that SDK only
            changes = model.predict(tool.parameters)
            result = outcome(changes)
            if result == "rejected":
                shown = [c for c in changes if c.rejects]
                verb = "will refuse these parameters"
            else:
                shown = changes if self.options.report_lossless else [c for c in changes if c.lossy]
                verb = "will rewrite these parameters before sending them"
            if not shown:
                continue
            lost = any(c.lossy for c in shown)
            who, not_by = _who(model)
            yield Finding(
                f"{who}, {label(model.target)}) {verb}: {_describe(shown)}"
                + ("; information is lost" if lost and result != "rejected" else "")
                + not_by,
                tool.parameters_pointer,
                data={
                    "sdk": model.name,
                    "caller": model.runs_in,
                    "function": model.function,
                    "target": model.target,
                    "outcome": result,
                    "changes": [
                        {"pointer": c.pointer, "what": c.what, "lossy": c.lossy, "rejects": c.rejects} for c in shown
                    ],
                },
            )


def _who(model: SdkModel) -> tuple[str, str]:
    """Who rewrites (`openai-agents (`ensure_strict_json_schema``, or for a function another SDK runs,
    `pydantic-ai (anthropic `transform_schema``), and then who does not: the function's own package
    when it does not run it on tools."""
    if model.runs_in == model.name:
        return f"{model.name} (`{model.function}`", ""
    return (
        f"{model.runs_in} ({model.name} `{model.function}`",
        f" (the {model.name} SDK itself sends a tool's schema unchanged)",
    )


def _describe(changes: list[Change]) -> str:
    parts = [c.what + (f" (at `{c.pointer}`)" if c.pointer else "") for c in changes[:SHOWN_CHANGES]]
    more = len(changes) - SHOWN_CHANGES
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")
