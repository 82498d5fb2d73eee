from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from schemalint.diagnostics import Finding
from schemalint.lazy_pattern import LazyPattern
from schemalint.model import JSON, Dialect, Severity, Tool, ToolSet
from schemalint.rules.base import LintContext, ToolSetRule
from schemalint.text import analysed, is_verb_like, split_name

# An identifier that can only be a code name: snake_case, kebab-case with an underscore-free
# word pair, camelCase, or dotted (`math.factorial`).
_IDENT = r"[A-Za-z][A-Za-z0-9]*(?:[_.][A-Za-z0-9]+)+|[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+"
_QUOTE = r"[`'\"“‘]?"
# `use the 'endCursor' from the response`, `use the nextPage value`: a field, not a tool
_NOT_A_TOOL_AFTER = (
    r"(?![`'\"”’]?\s*(?i:from|of|in|as|field|fields|value|values|parameter|parameters|param|property|key|cursor|argument|"
    r"attribute|option|flag|header|column|variable)\b)"
)
_REFERENCE = LazyPattern(
    rf"""
      \b(?i:use|call|invoke|try|run|prefer|see|first)\s+(?i:the\s+)?{_QUOTE}(?P<a>{_IDENT})\b{_QUOTE}{_NOT_A_TOOL_AFTER}
    | {_QUOTE}\b(?P<b>{_IDENT})\b{_QUOTE}\s+(?i:tool|function)\b
    | (?:请用|请使用|请改用|改用|调用|使用|参见)\s*{_QUOTE}(?P<c>{_IDENT})\b{_QUOTE}
    | {_QUOTE}\b(?P<d>{_IDENT})\b{_QUOTE}\s*(?:工具|函数)
    """,
    re.VERBOSE,
)


#: "actions: a, b, c" / "operations - a | b" / "supported commands are a, b": up to the end of the paragraph.
_ACTIONS_LIST = LazyPattern(
    r"\b(?:actions?|operations?|methods?|commands?|subcommands?|modes?)\b[^\n]{0,40}?[:\-–]\s*[^\n]{1,600}",
    re.IGNORECASE,
)
#: Final words of a field name, not of a tool name.
_FIELD_WORDS = frozenset("id ids key keys name names type value values cursor page token count url uri path".split())


#: what every _IDENT match contains (a `_`/`.` between letters or digits, or a lower-upper step): texts
#: without one, most descriptions, are answered by one cheap search instead of the full pattern
_IDENT_PART = LazyPattern(r"[A-Za-z0-9][_.][A-Za-z0-9]|[a-z0-9][A-Z]")


def referenced_tool_names(text: str) -> Iterator[str]:
    """Identifiers the text presents as tools: `use list_orders`, "the `get_order` tool", "请用 get_order"."""
    if not _IDENT_PART.search(text):
        return
    for match in _REFERENCE.finditer(text):
        name = next(g for g in match.groups() if g).rstrip(".")
        words = split_name(name)
        # tools do things; fields (`endCursor`, `block_id`) do not
        if words and words[-1] not in _FIELD_WORDS and any(is_verb_like(word) for word in words):
            yield name


#: Parameters that pick what a multiplexed tool does (`gitlab_job(action="retry")`): the names its
#: description mentions are its own actions, not other tools.
_ACTION_PARAMETERS = frozenset("action actions operation op method command subcommand cmd mode tool verb".split())
_IDENTIFIER = LazyPattern(_IDENT)


def _schema_words(schema: JSON) -> set[str]:
    """Property names, string enum values and identifiers in the descriptions of action parameters,
    anywhere in a schema (they are not tool names)."""
    found: set[str] = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            properties = node.get("properties")
            if isinstance(properties, dict):
                found.update(properties)
                for name, value in properties.items():
                    if set(split_name(name)) & _ACTION_PARAMETERS and isinstance(value, dict):
                        described = value.get("description")
                        found.update(_IDENTIFIER.findall(described) if isinstance(described, str) else ())
            for value in node.get("enum", []) if isinstance(node.get("enum"), list) else []:
                if isinstance(value, str):
                    found.add(value)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


class UnknownToolReference(ToolSetRule):
    """
    ## What it does
    Finds other tools named in a tool's description ("use `list_orders` instead", "call
    get_user first", "the report_orders tool", "请用 export_orders") and flags names that are
    not in the tool set.

    ## Why is this bad?
    Pointing at a sibling is the best way to draw a boundary, but a pointer to a tool that was
    renamed or never shipped sends the model looking for something that does not exist: it
    invents a call, or gives up on the right tool.

    ## Example
    ```json
    [{"name": "get_order", "description": "... For many orders use list_orders instead."}]
    ```

    ## Use instead
    Reference a tool that is in the set, or ship `list_orders` alongside `get_order`.

    ## Options
    None.

    ## Severity
    Warning for tools from JSON/YAML definitions, where a file normally holds the whole set;
    info for tools extracted from Python, where a server is often split across modules and the
    sibling may live in a file the set does not include.

    ## Trade-off
    Only identifiers written as code (`snake_case`, `camelCase`, `dotted.name`) in a referring
    phrase count, and only those with a verb in them (tools do things; `block_id` and
    `endCursor` are fields), so ordinary words are never mistaken for tools. Property names and enum values
    of the tool's own schema are ignored (they are often quoted the same way), and so are the
    actions of a multiplexed tool (one with an `action`/`operation`/`method` parameter): names in
    that parameter's description or in its own "actions: ..." list. A set assembled
    from several files must be linted together (config `toolsets`) or cross-file references will
    look unknown.

    ## Fix safety
    No automatic fix.
    """

    @staticmethod
    def _is_own_action(tool: Tool, name: str) -> bool:
        """A multiplexed tool (one with an `action`-like parameter) naming one of its actions in its own
        description ("actions: list, retry, download_artifact")."""
        properties = tool.parameters.get("properties") if isinstance(tool.parameters, dict) else None
        if not isinstance(properties, dict) or not any(set(split_name(p)) & _ACTION_PARAMETERS for p in properties):
            return False
        listed = _ACTIONS_LIST.search(analysed(tool.description or ""))
        return listed is not None and name.lower() in listed.group(0).lower()

    code = "SL206"
    slug = "unknown-tool-reference"
    severity = Severity.WARNING
    summary = "a description names another tool that is not in the set"

    def check(self, toolset: ToolSet, context: LintContext) -> Iterable[Finding]:
        known = {tool.name for tool in toolset.tools if tool.name}
        known_lower = {name.lower() for name in known}
        for tool in toolset.tools:
            yield from self._check_tool(tool, known_lower)

    def _check_tool(self, tool: Tool, known_lower: set[str]) -> Iterable[Finding]:
        if not tool.description or tool.description_pointer is None:
            return
        own_words: set[str] | None = None  # walked only when a reference is not a known tool (rare)
        reported: set[str] = set()
        for name in referenced_tool_names(analysed(tool.description)):
            lowered = name.lower()
            if lowered in known_lower or lowered in reported:
                continue
            if own_words is None:
                own_words = {w.lower() for w in _schema_words(tool.parameters)}
            if lowered in own_words or self._is_own_action(tool, name):
                continue
            reported.add(lowered)
            from_python = tool.dialect is Dialect.PYTHON
            yield Finding(
                f"description of `{tool.display_name}` refers to `{name}`, which is not a tool in this set"
                + (" (if another module defines it, group the files with `toolsets`)" if from_python else ""),
                tool.description_pointer,
                severity=Severity.INFO if from_python else None,
                data={"tool": tool.name, "reference": name, "path": tool.path},
            )
