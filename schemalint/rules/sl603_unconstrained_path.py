from __future__ import annotations

import re
from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.lazy_pattern import LazyPattern
from schemalint.model import SchemaNode, Severity, schema_types
from schemalint.rules.base import LintContext, NodeRule, Nodes, rule_options, vocabulary
from schemalint.text import (
    description_of,
    is_constrained_string,
    last_word_in,
    properties_of,
    sibling_names,
    split_name,
)

PATH_WORDS = tuple(
    "path paths file files filename filenames filepath filepaths dir dirs directory folder url urls uri uris".split()
)
#: A description that confines the value: relative to a root, within a workspace, an allow-list.
_STATED_CONSTRAINT = LazyPattern(
    r"\brelative\s+to\b|\bwithin\s+(?:the\s+)?(?:\w+\s+){0,2}(?:workspace|project|root|repository|repo|directory|"
    r"folder|sandbox|bucket)\b|\bunder\s+(?:the\s+)?(?:\w+\s+){0,2}(?:workspace|project|root|directory|folder)\b"
    r"|\bmust\s+(?:start|begin)\s+with\b|\ballow(?:ed|-?list)\b|\bwhitelist|\bonly\s+(?:https?|files?|paths?)\b"
    r"|\bin\s+the\s+(?:repository|repo)\b|\bsandbox"
    r"|相对于|仅限|只允许|白名单",
    re.IGNORECASE,
)


#: a field the server sets (a description whose last sentence is "Read-only."): the model sends nothing there
_READ_ONLY = LazyPattern(r"(?:^|[.!]\s+)read-only\.?\s*$", re.IGNORECASE)


#: A path beside one of these names lives inside a remote container (a repository, a bucket), not on the
#: server's file system: the container's API confines it.
_CONTAINER_SIBLINGS = frozenset("repo repository bucket container drive share gist".split())
_URL_WORDS = frozenset("url urls uri uris".split())


def _inside_remote_container(node: SchemaNode) -> bool:
    """The tool's name, or a parameter beside this one or at the top level, names a remote container."""
    names = [node.tool.name or "", *sibling_names(node), *properties_of(node.tool.parameters)]
    return any(set(split_name(name)) & _CONTAINER_SIBLINGS for name in names)


@rule_options
class Options:
    extend_path_words: tuple[str, ...] = ()
    """Extra final name words that mark a path or URL parameter."""


class UnconstrainedPath(NodeRule):
    """
    ## What it does
    Flags a string parameter whose name ends in a path or URL word (`path`, `file`, `filename`,
    `dir`, `directory`, `folder`, `url`, `uri`, also `image_url`, `filePath`) that has no
    `pattern`, `enum`, `const` or `format`, and whose description does not confine it ("relative
    to the workspace root", "within the project", "allowed hosts").

    ## Why is this bad?
    The model writes whatever the conversation steers it to: `../../etc/passwd`, `~/.ssh/id_rsa`,
    or an internal URL such as `http://169.254.169.254/`. A prompt injection in a document the
    model read is enough. A pattern or an allow-list in the schema is the first line of defence
    (the server must still check).

    ## Example
    ```json
    {"path": {"type": "string", "description": "File to read."}}
    ```

    ## Use instead
    ```json
    {"path": {"type": "string", "pattern": "^(?!/)(?!.*\\\\.\\\\.)[\\\\w./-]+$",
      "description": "File to read, relative to the workspace root."}}
    ```

    ## Trade-off
    A constraint stated only in the description is accepted: it tells the model, though it
    enforces nothing. `format: uri` counts as a constraint although it allows any host. A path
    in a tool about a `repo`/`bucket`/`gist` (by name or parameter) addresses a remote
    container whose API confines it, and is not flagged; nor is a read-only field (`readOnly: true`,
    or a description ending "Read-only."), which the server fills in.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.WARNING
    summary = "a path/file/dir/url parameter has no pattern, enum or format"
    nodes = Nodes.NAMED_PROPERTIES
    types = frozenset({"string", "array"})  # a path string, or an array of them
    Options = Options

    path_words = vocabulary(PATH_WORDS, "extend_path_words")

    def applies_to_name(self, name: str) -> bool:
        return last_word_in(name, self.path_words)

    def check(self, node: SchemaNode, context: LintContext) -> Iterable[Finding]:
        schema, words = node.schema, node.words
        strings = schema.get("items") if node.types == {"array"} else schema
        if not isinstance(strings, dict) or "string" not in schema_types(strings):
            return
        if is_constrained_string(strings) or is_constrained_string(schema):
            return
        if _STATED_CONSTRAINT.search(node.description + " " + description_of(strings)):
            return
        if schema.get("readOnly") is True or _READ_ONLY.search(node.description):
            return
        if words[-1] not in _URL_WORDS and _inside_remote_container(node):
            return
        yield Finding(
            f"`{node.property_name}` takes any path or URL; constrain it with `pattern`, `enum` or `format` "
            "(and say what root or hosts are allowed)",
            node.pointer,
            key=True,
            data={"parameter": node.property_name},
        )
