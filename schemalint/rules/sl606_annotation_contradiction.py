from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import Severity, Tool, join_pointer
from schemalint.rules.base import LintContext, ToolRule
from schemalint.text import (
    ALL_VERBS,
    DESTRUCTIVE_VERBS,
    READING_VERBS,
    WRITING_VERBS,
    action_verb,
    split_name,
    word_set,
)

#: what `resolve_*` finds rather than settles: `resolve_user_id`, `resolve_hostname`
_LOOKED_UP = word_set("id ids name names hostname url uri path address handle")


class AnnotationContradiction(ToolRule):
    """
    ## What it does
    Flags MCP annotations that contradict the tool:
    - `readOnlyHint: true` on a tool whose name's action verb writes (`delete_file`,
      `create_issue`, `send_email`);
    - `destructiveHint: false` on a tool whose action verb destroys (`delete`, `remove`, `drop`,
      `purge`, `wipe`, `overwrite`);
    - `readOnlyHint: true` together with `destructiveHint: true`.

    ## Why is this bad?
    Clients use the hints to decide whether to ask the user before a call. A `delete_*` tool
    that claims to be read-only is run without confirmation, whether by mistake or by design of
    a malicious server.

    ## Example
    ```json
    {"name": "delete_branch", "annotations": {"readOnlyHint": true}}
    ```

    ## Use instead
    ```json
    {"name": "delete_branch", "annotations": {"readOnlyHint": false, "destructiveHint": true}}
    ```

    ## Options
    None.

    ## Trade-off
    The verb is read from the name (the first verb, skipping noun-like ones such as `store` in
    `grocery_store_find`); a tool whose name hides what it does is not caught. A writing verb that
    starts a read (`start_search`) or a `resolve_*` of an id or name (`resolve_user_id`, a look-up)
    is not a contradiction.

    ## Fix safety
    No automatic fix: the name or the annotation may be the wrong one.
    """

    severity = Severity.ERROR
    summary = "MCP annotations contradict the tool (a delete_* tool with readOnlyHint: true)"

    def check(self, tool: Tool, context: LintContext) -> Iterable[Finding]:
        annotations = tool.annotations
        if not isinstance(annotations, dict) or tool.annotations_pointer is None:
            return
        read_only = annotations.get("readOnlyHint")
        destructive = annotations.get("destructiveHint")
        words = split_name(tool.name or "")
        verb = action_verb(words, ALL_VERBS)
        if read_only is True and destructive is True:
            yield Finding(
                "annotations say both `readOnlyHint: true` and `destructiveHint: true`",
                join_pointer(tool.annotations_pointer, "destructiveHint"),
                data={"verb": verb},
            )
        elif read_only is True and verb in WRITING_VERBS and not _names_a_read(words, verb):
            yield Finding(
                f"`{tool.display_name}` is marked `readOnlyHint: true` but its name says it writes (`{verb}`)",
                join_pointer(tool.annotations_pointer, "readOnlyHint"),
                data={"verb": verb},
            )
        if destructive is False and verb in DESTRUCTIVE_VERBS:
            yield Finding(
                f"`{tool.display_name}` is marked `destructiveHint: false` but its name says it destroys (`{verb}`)",
                join_pointer(tool.annotations_pointer, "destructiveHint"),
                data={"verb": verb},
            )


def _names_a_read(words: tuple[str, ...], verb: str) -> bool:
    """`start_search` starts a read; `resolve_library_id` looks an identifier up."""
    following = words[words.index(verb) + 1 :]
    if following and following[0] in READING_VERBS:
        return True
    return verb == "resolve" and bool(following) and following[-1] in _LOOKED_UP
