from __future__ import annotations

import re
from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.lazy_pattern import LazyPattern
from schemalint.model import SchemaNode, Severity
from schemalint.rules.base import LintContext, NodeRule, Nodes
from schemalint.text import sibling_names, split_name

#: Name words that are code whatever the description says.
CODE_WORDS = frozenset("script shell sql bash powershell cmd javascript python jscode pycode".split())
#: Name words that are code only when the description says so (`code` may be a country code).
MAYBE_CODE_WORDS = frozenset(
    "code command commands query expression expr statement snippet program source eval".split()
)
_CODE_TEXT = LazyPattern(
    r"\b(?:sql|cypher|sparql|graphql|shell|bash|powershell|terminal)\b"
    r"|\b(?:python|javascript|js|typescript|ruby|perl|php|lua)\s+(?:code|script|expression|snippet|function|statement)"
    r"|\b(?:code|script|commands?|statements?|expressions?)\s+(?:to|that\s+will\s+be|which\s+will\s+be)\s+"
    r"(?:be\s+)?(?:run|execute|executed|evaluate|evaluated)\b"
    r"|\b(?:execute|run|evaluate|eval)\b[^.]{0,30}\b(?:code|script|commands?|statement)\b"
    r"|执行|脚本|命令行",
    re.IGNORECASE,
)
#: A description that states the limits the execution runs in: "must be in the allowlist", "runs sandboxed"
_STATED_LIMIT = LazyPattern(r"\b(?:allow-?list(?:ed)?|white-?list(?:ed)?|sandbox(?:ed)?|read-?only)\b", re.IGNORECASE)
#: Words in the name that make `code` something else (`country_code`, `zip_code`).
_NOT_CODE = frozenset(
    "country zip postal post currency language lang airport iata icao status error promo coupon discount "
    "verification auth otp access product area region state color colour referral invite iso tax hs naics sic "
    "sku bar qr branch swift bank station stock ticker exit response http phone dial unit prompt factory name "
    "id path file url type description title search".split()
)
_CODE_OR_MAYBE = CODE_WORDS | MAYBE_CODE_WORDS
#: `shell` that names the shell the command beside it runs in (`{"command": ..., "shell": "bash"}`), not code.
_SHELL_CHOICE_WORDS = frozenset("shell type name kind path program binary executable".split())
_COMMAND_WORDS = frozenset("command commands cmd script code".split())
_NAMES_A_SHELL = LazyPattern(
    r"\b(?:which|what)\s+shell\b|\bshell\s+(?:to\s+use|binary|executable|program|interpreter)\b", re.IGNORECASE
)


def _sibling_words(node: SchemaNode) -> frozenset[str]:
    return frozenset(w for sibling in sibling_names(node) for w in split_name(sibling))


def _names_the_shell(node: SchemaNode) -> bool:
    """`shell` beside a `command` (or described as the shell to use): it picks the interpreter."""
    words = node.words
    if "shell" not in words or not _SHELL_CHOICE_WORDS.issuperset(words):
        return False
    return bool(_sibling_words(node) & _COMMAND_WORDS) or bool(_NAMES_A_SHELL.search(node.description))


class CodeExecutionParameter(NodeRule):
    """
    ## What it does
    Flags a string parameter that takes code to run: shell commands, SQL, scripts, Python or
    JavaScript. Names that are code on their own (`script`, `shell`, `sql`, `bash`, `cmd`)
    are flagged directly; ambiguous names (`code`, `command`, `query`, `expression`) only when
    the description says the value is executed or names a language ("SQL query to run",
    "Python code to execute"). `country_code`, `zip_code` and similar are never flagged.

    ## Why is this bad?
    A code parameter turns a prompt injection into remote code execution: whatever text the
    model was steered by ends up running with the server's privileges.

    ## Example
    ```json
    {"sql": {"type": "string", "description": "SQL query to run against the orders database."}}
    ```

    ## Use instead
    Narrow, typed operations (`get_order(order_id)`, `list_orders(status, limit)`), or a
    read-only sandbox whose limits the description states.
    ```json
    {"status": {"type": "string", "enum": ["paid", "shipped"]}, "limit": {"type": "integer", "maximum": 100}}
    ```

    ## Options
    None.

    ## Trade-off
    A warning, not an error: some tools exist to run code (a code interpreter). Keep them, run
    them sandboxed, and say so in the parameter's description ("read-only", "sandboxed", "must be
    in the allowlist"): such a parameter is left alone.
    A `shell` that only names the shell a `command` beside it runs in (`bash`, `zsh`) is not
    code; that `command` is, even with no description.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.WARNING
    summary = "a parameter takes code, shell commands or SQL"
    nodes = Nodes.NAMED_PROPERTIES
    types = frozenset({"string"})

    def applies_to_name(self, name: str) -> bool:
        words = frozenset(split_name(name))
        return bool(words & _CODE_OR_MAYBE) and not words & _NOT_CODE

    def check(self, node: SchemaNode, context: LintContext) -> Iterable[Finding]:
        schema = node.schema
        if "enum" in schema or "const" in schema:
            return
        if _names_the_shell(node):
            return
        # a word such as "query" or "expression" is code only when the description says so, or when a
        # `shell` beside it names the shell it runs in
        if (
            CODE_WORDS.isdisjoint(node.words)
            and not _CODE_TEXT.search(node.description)
            and not ("command" in node.words and "shell" in _sibling_words(node))
        ):
            return
        if _STATED_LIMIT.search(node.description):
            return
        yield Finding(
            f"`{node.property_name}` takes code or commands to execute; prefer narrow typed parameters, or "
            "sandbox the execution and say so",
            node.pointer,
            key=True,
            data={"parameter": node.property_name},
        )
