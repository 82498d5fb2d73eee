from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property

from schemalint.diagnostics import Finding
from schemalint.model import Severity, Tool
from schemalint.rules.base import LintContext, ToolRule, rule_options, vocabulary
from schemalint.text import (
    ALL_VERBS,
    WRITING_VERBS,
    action_verb,
    analysed,
    hands_off,
    split_name,
    text_mentions_side_effects,
)

#: Verbs that start work or remove registrations somewhere: writes for SL205, though SL606 does not hold a
#: read-only hint on them (`run_query` may well be read-only).
RUNNING_VERBS = frozenset(
    "run rerun execute exec invoke launch dispatch trigger deregister unregister provision deprovision spawn "
    "reboot shutdown rotate regenerate scale redeploy retry".split()
)
#: MCP annotations that document side effects for the client and the model.
SIDE_EFFECT_ANNOTATIONS = ("readOnlyHint", "destructiveHint", "idempotentHint")


@rule_options
class Options:
    writing_verbs: tuple[str, ...] = tuple(sorted(WRITING_VERBS | RUNNING_VERBS))
    """Verbs that mark a tool as writing (replaces the default list)."""
    extend_writing_verbs: tuple[str, ...] = ()
    """Verbs added to `writing-verbs`."""


class WritingVerbs:
    """The writing verbs of these options, for the rules that share them (SL205, SL803, SL815)."""

    options: Options

    writing_verbs = vocabulary("writing_verbs", "extend_writing_verbs")

    @cached_property
    def _verbs(self) -> frozenset[str]:
        return ALL_VERBS | self.writing_verbs

    def writing_verb(self, name: str | None) -> str | None:
        """The action verb of a tool's name (`text.action_verb`) when it writes, else None: a hand-off
        to a person (`transfer_to_human_agents`) is not a write."""
        words = split_name(name or "")
        verb = action_verb(words, self._verbs)
        return verb if verb in self.writing_verbs and not hands_off(words) else None


class UndocumentedSideEffects(WritingVerbs, ToolRule):
    """
    ## What it does
    Flags a writing tool whose description says nothing about side effects, idempotency,
    reversibility or confirmation. A tool is writing when the action verb of its name is a
    writing verb (`create`, `update`, `delete`, `send`, `pay`, `refund`, `cancel`, `book`, and
    verbs that start work or drop a registration: `run`, `execute`, `trigger`, `deregister`...);
    a hand-off to a person (`transfer_to_human_agents`) is not a write.
    MCP annotations that state `readOnlyHint`, `destructiveHint` or `idempotentHint` count as
    documentation, and so does description text such as "cannot be undone", "idempotent",
    "safe to retry", "asks for confirmation", "charges the card", "不可撤销", "幂等".

    ## Why is this bad?
    Models retry, and run calls in parallel. A write that is not idempotent, sends money or
    cannot be undone needs the model to know that before it calls it a second time or without
    asking the user.

    ## Example
    ```json
    {"name": "refund_order", "description": "Refund an order to the original payment method."}
    ```

    ## Use instead
    ```json
    {"name": "refund_order", "description": "Refund an order to the original payment method. Moves money and cannot be undone: confirm the amount with the user first. Idempotent per order_id."}
    ```

    ## Trade-off
    Only the name's action verb counts: the first verb, unless it is a word that is as often a
    noun (`store`, `book`, `order`) and another verb follows (`grocery_store_find` reads as
    `find`). So `get_or_create_user` reads as a read, and a tool named without a verb passes.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.WARNING
    summary = "a writing tool says nothing of side effects or idempotency"
    Options = Options

    def check(self, tool: Tool, context: LintContext) -> Iterable[Finding]:
        annotations = tool.annotations
        if isinstance(annotations, dict) and any(isinstance(annotations.get(k), bool) for k in SIDE_EFFECT_ANNOTATIONS):
            return
        verb = self.writing_verb(tool.name)
        if verb is None:
            return
        text = analysed(tool.description)
        if text_mentions_side_effects(text):
            return
        yield Finding(
            f"`{tool.display_name}` changes state (`{verb}`) but its description says nothing of side effects; "
            "say what changes, whether it can be undone, and whether repeating the call is safe",
            (tool.description_pointer if tool.description else None) or tool.name_pointer or tool.pointer,
            data={"tool": tool.name, "verb": verb},
        )
