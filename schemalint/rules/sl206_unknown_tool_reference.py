from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from schemalint.diagnostics import Finding
from schemalint.lazy_pattern import LazyPattern
from schemalint.model import JSON, Dialect, Severity, Tool, ToolSet, mappings_in
from schemalint.rules.base import LintContext, ToolSetRule
from schemalint.text import analysed, is_verb_like, lists_values, name_style, properties_of, split_name

# An identifier that can only be a code name: snake_case, kebab-case with an underscore-free
# word pair, camelCase, or dotted (`math.factorial`).
_IDENT = r"[A-Za-z][A-Za-z0-9]*(?:[_.][A-Za-z0-9]+)+|[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+"
_QUOTE = r"[`'\"“‘]?"
# `use the 'endCursor' from the response`, `use the nextPage value`: a field, not a tool
_NOT_A_TOOL_AFTER = (
    r"(?![`'\"”’]?\s*(?i:from|of|in|as|field|fields|value|values|parameter|parameters|param|property|key|cursor|argument|"
    r"attribute|option|flag|header|column|columns|variable|table|tables|schema|database|collection|index|view|file"
    r"|files|folder|directory|module|package|library|class|bucket|recipe)\b)"
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
#: Final words of a field name, not of a tool name (`merge_request_iid`, `order_by`, `created_at`).
_FIELD_WORDS = frozenset(
    "id ids iid key keys name names type value values cursor page token count url uri path by at".split()
)
#: Last parts of a dotted name that make it a file or a site (`diff.json`, `draw.io`), not a tool.
_FILE_OR_SITE = frozenset("json yaml yml md txt csv xml html py js ts io com org net dev ai app".split())


#: what every _IDENT match contains (a `_`/`.` between letters or digits, or a lower-upper step): texts
#: without one, most descriptions, are answered by one cheap search instead of the full pattern
_IDENT_PART = LazyPattern(r"[A-Za-z0-9][_.][A-Za-z0-9]|[a-z0-9][A-Z]")


def referenced_tool_names(text: str) -> Iterator[str]:
    """Identifiers the text presents as tools: `use list_orders`, "the `get_order` tool", "请用 get_order"."""
    if not _IDENT_PART.search(text):
        return
    for match in _REFERENCE.finditer(text):
        name = next(g for g in match.groups() if g).rstrip(".")
        if "." in name and text.startswith("(", match.end()):
            continue  # `use auth.signUp({...})`, `node.remove()`: a method called in code
        words = split_name(name)
        # tools do things; fields (`endCursor`, `block_id`) and files (`diff.json`) do not
        if (
            words
            and words[-1] not in _FIELD_WORDS
            and not ("." in name and words[-1] in _FILE_OR_SITE)
            and any(is_verb_like(word) for word in words)
        ):
            yield name


#: Parameters that pick what a multiplexed tool does (`gitlab_job(action="retry")`): the names its
#: description mentions are its own actions, not other tools.
_ACTION_PARAMETERS = frozenset("action actions operation op method command subcommand cmd mode tool verb".split())
_IDENTIFIER = LazyPattern(_IDENT)


def _schema_words(schema: JSON) -> set[str]:
    """Property names, string enum and const values, identifiers in the descriptions of action
    parameters and in descriptions that list values, anywhere in a schema (they are not tool names)."""
    found: set[str] = set()
    for node in mappings_in(schema):
        properties = properties_of(node)
        found.update(properties)
        for name, value in properties.items():
            described = value.get("description") if isinstance(value, dict) else None
            if isinstance(described, str) and (
                set(split_name(name)) & _ACTION_PARAMETERS or lists_values(described, loosely=True)
            ):
                found.update(_IDENTIFIER.findall(described))
        for value in node.get("enum", []) if isinstance(node.get("enum"), list) else []:
            if isinstance(value, str):
                found.add(value)
        if isinstance(node.get("const"), str):
            found.add(node["const"])
    return found


def _is_multiplexed(tool: Tool) -> bool:
    """A tool with an `action`-like parameter: one tool standing for several operations."""
    return any(set(split_name(p)) & _ACTION_PARAMETERS for p in properties_of(tool.parameters))


#: "- list_runs: ...", "* `retry`: ...", "- cancel.project_id: ...": the entries of a description's list
_LIST_KEY = LazyPattern(r"^[ \t]*[-*•][ \t]*[`'\"]?([A-Za-z][\w.]*)[`'\"]?[ \t]*[:\-–]", re.MULTILINE)
#: "- file_create: project_id*, file_path*, content, start_branch": an action's parameters, one entry
_PARAMETER_LIST = LazyPattern(
    r"^[ \t]*[-*•][ \t]*[\w.`]+[ \t]*:[ \t]*((?:[A-Za-z_]\w*\*?(?:[ \t]*\([^)\n]*\))?,[ \t]*){2,}[A-Za-z_]\w*)",
    re.MULTILINE,
)


def _actions(tool: Tool) -> set[str]:
    """What a multiplexed tool can be told to do, and with what: its action values (enum, const, action
    descriptions), the keys of the lists in its description (`- retry: ...`, `- cancel.project_id: ...`)
    and the parameters they list (`- file_create: project_id*, content, start_branch`)."""
    names = _schema_words(tool.parameters)
    description = tool.description or ""
    for key in _LIST_KEY.findall(description):
        names.update(key.split("."))
    for parameters in _PARAMETER_LIST.findall(description):
        names.update(_IDENTIFIER.findall(parameters))
    return {_normal(name) for name in names}


def _normal(name: str) -> str:
    """A name as its words: `listFollowedProjects`, `list-followed-projects` and `list_followed_projects`
    are one name."""
    return "_".join(split_name(name))


def _shape(name: str) -> str | None:
    """How a name is written: `dotted`, or its case style (None for one word)."""
    return "dotted" if "." in name.strip(".") else name_style(name)


class _KnownNames:
    """The tool set's names as a reference to them may be written."""

    def __init__(self, tools: list[Tool]) -> None:
        names = [tool.name for tool in tools if tool.name]
        self.normal = {_normal(name) for name in names}
        #: the ways the set writes multi-word names; an identifier written otherwise is a field or code
        self.shapes = {shape for shape in map(_shape, names) if shape is not None}
        self._multiplexed = [tool for tool in tools if tool.name and _is_multiplexed(tool)]
        #: normalised name -> actions of each multiplexed tool, read only for a name that is not a tool
        self._actions: dict[str, set[str]] | None = None

    def knows(self, reference: str) -> bool:
        """A tool of the set, written in any case style or without the server's prefix (`get_ticket`
        for `acme_get_ticket`), or an action of a multiplexed tool: bare (`retry_run`), after the
        tool (`ci_job_retry_run`) or after the tool's last words (`job.retry_run`)."""
        normal = _normal(reference)
        if normal in self.normal or any(name.endswith("_" + normal) for name in self.normal):
            return True
        if self._actions is None:
            self._actions = {_normal(tool.name or ""): _actions(tool) for tool in self._multiplexed}
        for tool_name, actions in self._actions.items():
            if normal in actions:
                return True
            for split in (m.start() for m in re.finditer("_", normal)):
                prefix, action = normal[:split], normal[split + 1 :]
                if action in actions and (tool_name == prefix or tool_name.endswith("_" + prefix)):
                    return True
        return False

    def could_name_a_tool(self, reference: str) -> bool:
        """Written as the set writes its tool names (any way when no name shows a way)."""
        shape = _shape(reference)
        return not self.shapes or shape is None or shape in self.shapes


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
    phrase count, only those with a verb in them (tools do things; `block_id` and `endCursor`
    are fields), and only those written the way the set writes its tool names: in a snake_case
    set, `startDateTime` is a field and `node.remove()` or `diff.json` is code or a file. Names
    followed by "table", "file", "column"... are not tools either. A tool counts as named in any
    case style (`listOrders` for `list_orders`) and without the server's prefix (`get_ticket`
    for `acme_get_ticket`). Property names, enum and const values of the tool's own schema are
    ignored, as are values a parameter lists ("recipe: hotspots, instruction_mix or all"), and
    the actions of multiplexed tools (with an `action`/`operation`/`method` parameter): their
    enum values, the entries listed in their descriptions ("- retry_run: ..."), alone or after
    the tool's name (`ci_job_retry_run`, `job.retry_run`). A set assembled from several files
    must be linted together (config `toolsets`) or cross-file references will look unknown.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.WARNING
    summary = "a description names another tool that is not in the set"

    def check(self, toolset: ToolSet, context: LintContext) -> Iterable[Finding]:
        known = _KnownNames(toolset.tools)
        for tool in toolset.tools:
            yield from self._check_tool(tool, known)

    def _check_tool(self, tool: Tool, known: _KnownNames) -> Iterable[Finding]:
        if not tool.description or tool.description_pointer is None:
            return
        own_words: set[str] | None = None  # walked only when a reference is not a known tool (rare)
        reported: set[str] = set()
        for name in referenced_tool_names(analysed(tool.description)):
            lowered = name.lower()
            if lowered in reported or not known.could_name_a_tool(name) or known.knows(name):
                continue
            if own_words is None:
                own_words = {_normal(w) for w in _schema_words(tool.parameters)}
            if _normal(name) in own_words or self._is_own_action(tool, name):
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

    @staticmethod
    def _is_own_action(tool: Tool, name: str) -> bool:
        """A multiplexed tool naming one of its actions in its own description ("actions: list, retry,
        download_artifact", or a list of them one per line)."""
        if not _is_multiplexed(tool):
            return False
        listed = _ACTIONS_LIST.search(analysed(tool.description or ""))
        return listed is not None and name.lower() in listed.group(0).lower()
