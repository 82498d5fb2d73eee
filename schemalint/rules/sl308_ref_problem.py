from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import JSON, SchemaNode, Severity, join_pointer
from schemalint.rules.base import LintContext, NodeRule, Nodes
from schemalint.schema_facts import DEFINITION_KEYS, refs_in, resolve_local_ref

_MAX_FOLLOWED = 1000  # refs followed from one $ref before giving up (hostile inputs)


def _inside_definitions(node: SchemaNode) -> bool:
    current: SchemaNode | None = node
    while current is not None:
        if current.via in DEFINITION_KEYS:
            return True
        current = current.parent
    return False


def _chain(root: JSON, start: str) -> tuple[bool, int]:
    """(recursive, hops): whether following refs from `start` comes back to a ref already on the way,
    and how many further refs the target pulls in."""
    seen: set[str] = {start}
    try:
        stack = [(r, {start}) for r in refs_in(resolve_local_ref(root, start))]
    except KeyError:
        return False, 0
    followed = 0
    while stack and followed < _MAX_FOLLOWED:
        ref, path = stack.pop()
        followed += 1
        if ref in path:
            return True, followed
        if ref in seen or not ref.startswith("#"):
            continue
        seen.add(ref)
        try:
            target = resolve_local_ref(root, ref)
        except KeyError:
            continue
        stack.extend((r, path | {ref}) for r in refs_in(target))
    return False, len(seen) - 1


class RefProblem(NodeRule):
    """
    ## What it does
    Checks every `$ref` in the parameters:
    - error: it does not resolve inside the parameters schema (`#/$defs/...`,
      `#/definitions/...`, `#/components/...` and any other local JSON pointer are resolved);
    - error: it is remote or a file (`https://...`, `other.json#/X`): never fetched, and the
      provider will not fetch it either;
    - warning: it is recursive (a definition reaches itself), or deeper than one hop (the
      definition it points to holds further `$ref`s).

    ## Why is this bad?
    Only the parameters object is sent to the model: a pointer into the rest of your document
    dangles, and a remote ref is an error at the provider. Recursive and chained refs are what
    strict modes fail to compile, and what models fill in worst.

    ## Example
    ```json
    {"type": "object", "properties": {"address": {"$ref": "#/components/schemas/Address"}}}
    ```

    ## Use instead
    Put the definition under the parameters' own `$defs`, or inline it:
    ```json
    {"type": "object", "properties": {"address": {"$ref": "#/$defs/Address"}},
     "$defs": {"Address": {"type": "object", "properties": {"city": {"type": "string"}}}}}
    ```

    ## Options
    None.

    ## Trade-off
    Refs inside `$defs`/`definitions` are checked for resolving only; recursion and depth are
    reported once, at the ref outside the definitions that starts the chain. Following stops
    after 1,000 refs, so a hostile schema cannot hang the linter.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.ERROR
    summary = "$ref unresolvable or remote (error); recursive or deeper than one hop (warning)"
    nodes = Nodes.OBJECTS
    keywords = frozenset({"$ref"})

    def check(self, node: SchemaNode, context: LintContext) -> Iterable[Finding]:
        schema = node.schema
        if not isinstance(schema["$ref"], str):
            return
        ref: str = schema["$ref"]
        pointer = join_pointer(node.pointer, "$ref")
        root = node.tool.parameters
        if not ref.startswith("#"):
            yield Finding(
                f"`$ref` `{ref}` is remote or points into another file; it is never fetched: inline the "
                "definition under the parameters' `$defs`",
                pointer,
                data={"ref": ref, "problem": "remote"},
            )
            return
        try:
            resolve_local_ref(root, ref)
        except KeyError:
            yield Finding(
                f"`$ref` `{ref}` does not resolve inside the parameters schema (only the parameters are sent "
                "to the model)",
                pointer,
                data={"ref": ref, "problem": "unresolvable"},
            )
            return
        if _inside_definitions(node):
            return
        recursive, hops = _chain(root, ref)
        if recursive or ref == "#":
            yield Finding(
                f"`$ref` `{ref}` is recursive; strict modes and several providers reject recursive schemas",
                pointer,
                severity=Severity.WARNING,
                data={"ref": ref, "problem": "recursive"},
            )
        elif hops:
            yield Finding(
                f"`$ref` `{ref}` pulls in {hops} more `$ref`(s); keep references one hop deep or inline them",
                pointer,
                severity=Severity.WARNING,
                data={"ref": ref, "problem": "deep", "hops": hops},
            )
