"""The shape of a rule. A rule module defines one subclass; its docstring is the user documentation.

Docstring sections, in this order: What it does / Why is this bad? / Example / Use instead /
Options / Fix safety. `schemalint rule CODE` prints it and SARIF uses it as the rule's help. The
list under `## Options` is written from the rule's Options class (each field's docstring), so a
docstring's own `## Options` section, if any, holds only what the fields do not say.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import inspect
import json
import re
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from schemalint.model import EvalFixture, Request, SchemaNode, Severity, Tool, ToolSet

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform

    from schemalint.diagnostics import Finding
else:

    def dataclass_transform(**_: Any) -> Any:  # only a marker for type checkers
        return lambda decorated: decorated


class Scope(str, enum.Enum):
    NODE = "schema node"  # called for every sub-schema of every tool's parameters
    TOOL = "tool"
    TOOLSET = "tool set"
    REQUEST = "request"  # called for every request body that sends tools
    FIXTURE = "eval fixture"  # called for every eval fixture, with the tools it is linked to
    FILE = "file"  # emitted by the engine itself (parse errors, suppressions); no check method
    CHANGE = "change"  # emitted by `schemalint diff`


_Options = TypeVar("_Options")


@dataclass_transform(frozen_default=True, eq_default=False)
def rule_options(cls: type[_Options]) -> type[_Options]:
    """Makes a rule's `Options` class a dataclass: typed fields with defaults, one docstring each.

    Options are read-only: type checkers see a frozen dataclass and reject an assignment. At run time
    it is lighter than a plain `@dataclass(frozen=True)`, because a run imports the rule modules it runs
    and Python writes and compiles the source of each generated method: no `__setattr__`/`__delattr__`
    guards, no `__eq__`/`__hash__` (options are never compared), and a class docstring of its own (the
    one dataclass writes is built with `inspect.signature`).
    """
    if not cls.__doc__:
        cls.__doc__ = f"The options of {cls.__module__.rpartition('.')[2]}."
    return dataclasses.dataclass(eq=False)(cls)


@rule_options
class NoOptions:
    pass


def vocabulary(words: str | Iterable[str], extend: str) -> cached_property[frozenset[str]]:
    """A rule's word list, built once per rule: `words` (an option's name, or fixed words) plus the
    words of the option `extend` (a user's `extend-*` list), lower-cased."""

    def build(rule: Rule) -> frozenset[str]:
        default = getattr(rule.options, words) if isinstance(words, str) else words
        return frozenset(w.lower() for w in (*default, *getattr(rule.options, extend)))

    return cached_property(build)


_NO_TARGETS: frozenset[str] = frozenset()


class LintContext:
    """What a rule may ask about its surroundings; rules never do I/O."""

    def __init__(
        self,
        targets: dict[int, frozenset[str]] | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> None:
        self._targets = targets or {}
        #: global config values (`embedding-backend`, `cache-dir`, ...), keyed as in the config file
        self.settings: Mapping[str, Any] = settings or {}

    def targets(self, tool: Tool) -> frozenset[str]:
        """The provider targets the tool is checked against (see schemalint.targets)."""
        return self._targets.get(id(tool), _NO_TARGETS)


def code_and_slug(module: str) -> tuple[str, str] | None:
    """What a rule module's name says: `sl301_nesting_too_deep` holds SL301, `nesting-too-deep`."""
    if re.fullmatch(r"sl\d{3}_\w+", module) is None:
        return None
    return f"SL{module[2:5]}", module[6:].replace("_", "-")


class Rule:
    #: the code and slug of a rule defined in a rule module are its module's (`code_and_slug`)
    code: ClassVar[str]
    slug: ClassVar[str]
    scope: ClassVar[Scope]
    severity: ClassVar[Severity]
    summary: ClassVar[str]
    Options: ClassVar[type] = NoOptions
    #: the kinds of fix the rule offers ("safe", "unsafe"), as its `## Fix safety` docs say
    fixable: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        named = code_and_slug(cls.__module__.rpartition(".")[2])
        if named is not None:
            cls.code, cls.slug = named

    def __init__(self, options: Any = None) -> None:
        self.options = options if options is not None else self.Options()

    @classmethod
    def docs(cls) -> str:
        """The docstring, with the options listed under `## Options` (after `## Use instead`)."""
        return _with_options(inspect.cleandoc(cls.__doc__ or cls.summary), cls.Options)


@cache
def _with_options(docs: str, options: type) -> str:
    if not dataclasses.fields(options):
        return docs
    listed = "\n".join(_option_line(field, options) for field in dataclasses.fields(options))
    own = re.search(r"^## Options\n\n?", docs, re.MULTILINE)
    if own is not None:
        return f"{docs[: own.end()]}{listed}\n\n{docs[own.end() :]}"
    after = re.search(r"^## Use instead\n.*?(?=^## |\Z)", docs, re.MULTILINE | re.DOTALL)
    at = after.end() if after is not None else len(docs)
    return f"{docs[:at].rstrip()}\n\n## Options\n{listed}\n\n{docs[at:]}".rstrip()


def _option_line(field: dataclasses.Field[Any], options: type) -> str:
    """`- `name` (type, default value): what its docstring says`, wrapped."""
    kind = str(field.type).replace("tuple[str, ...]", "list of str").replace(" | None", "")
    default = getattr(options(), field.name)
    if default == () or not isinstance(default, tuple):
        shown = "`[]`" if default == () else "none" if default is None else json.dumps(default)
        kind += f", default {shown}"
    line = f"- `{field.name.replace('_', '-')}` ({kind}): {option_docs(options).get(field.name, '')}"
    return textwrap.fill(line, width=100, subsequent_indent="  ", break_on_hyphens=False, break_long_words=False)


@cache
def option_docs(options: type) -> dict[str, str]:
    """Each field's docstring (the string under it in the class body), on one line."""
    body = ast.parse(textwrap.dedent(inspect.getsource(options))).body[0]
    assert isinstance(body, ast.ClassDef)
    return {
        statement.target.id: " ".join(following.value.value.split())
        for statement, following in zip(body.body, body.body[1:], strict=False)
        if isinstance(statement, ast.AnnAssign)
        and isinstance(statement.target, ast.Name)
        and isinstance(following, ast.Expr)
        and isinstance(following.value, ast.Constant)
        and isinstance(following.value.value, str)
    }


class Nodes(enum.Enum):
    """Which schema nodes a NodeRule reports on."""

    #: every node, whatever its schema (a rule that reports malformed schemas)
    ALL = "all"
    #: nodes whose schema is a JSON object (not `true`/`false` or a malformed value)
    OBJECTS = "objects"
    #: nodes reached through `properties`, whatever their name or schema (`node.is_property`)
    PROPERTIES = "properties"
    #: properties with a non-empty name and an object schema
    NAMED_PROPERTIES = "named-properties"

    def admit(self, node: SchemaNode) -> bool:
        if self is Nodes.OBJECTS:
            return node.is_mapping
        if self is Nodes.PROPERTIES:
            return node.is_property
        if self is Nodes.NAMED_PROPERTIES:
            return node.is_property and node.is_mapping and bool(node.property_name)
        return True


class NodeRule(Rule):
    """A rule called on the sub-schemas of every tool's parameters that its declarations admit.

    The declarations below say once which nodes the rule reports on, and only the engine tests
    them (`applies`): `check` is never called on any other node and does not ask again.
    """

    scope = Scope.NODE
    #: the kind of node (see Nodes)
    nodes: ClassVar[Nodes] = Nodes.ALL
    #: a schema with one of these types (as `schema_types` reads them) or one of these keywords;
    #: both empty: any schema
    types: ClassVar[frozenset[str]] = frozenset()
    keywords: ClassVar[frozenset[str]] = frozenset()
    #: a tool checked against one of these targets; empty: any tool
    targets: ClassVar[frozenset[str]] = frozenset()

    def applies_to_name(self, name: str) -> bool:
        """Whether the rule reports on a property called `name` (asked of properties only): a rule
        about names says no to the names it has nothing to say about. The default takes every name."""
        return True

    def check(self, node: SchemaNode, context: LintContext) -> Iterable[Finding]:
        raise NotImplementedError


def applies(rule: NodeRule, node: SchemaNode, targets: frozenset[str]) -> bool:
    """Whether `rule` is called on `node` of a tool checked against `targets`: its declarations admit it."""
    if not rule.nodes.admit(node):
        return False
    if rule.types or rule.keywords:
        keywords = node.schema.keys() if node.is_mapping else NO_KEYWORDS
        if rule.types.isdisjoint(node.types) and rule.keywords.isdisjoint(keywords):
            return False
    if rule.targets and rule.targets.isdisjoint(targets):
        return False
    return node.property_name is None or rule.applies_to_name(node.property_name)


#: the keywords of a schema that is not an object
NO_KEYWORDS: frozenset[str] = frozenset()
#: what decides whether a node rule applies to a node: (its schema is an object, it is a property,
#: its property name, its schema types, the dispatch keywords it has, the tool's targets)
_NodeKind = tuple[bool, bool, str | None, frozenset[str], frozenset[str], frozenset[str]]


class NodeDispatch:
    """The node rules that apply to each node (`applies`), in rule order. The answer is kept per kind
    of node: property names recur across tools and a run has a few sets of targets, so a run meets
    far fewer kinds than nodes."""

    #: kinds kept at most (names that never repeat: memory stays bounded)
    MAX_KINDS = 65_536

    def __init__(self, rules: Sequence[NodeRule]) -> None:
        self.rules = rules
        #: the keywords some rule is dispatched on
        self._keywords = frozenset().union(*(r.keywords for r in rules))
        self._by_kind: dict[_NodeKind, list[NodeRule]] = {}

    def rules_for(self, node: SchemaNode, targets: frozenset[str]) -> list[NodeRule]:
        schema, is_object = node.schema, node.is_mapping
        dispatch = self._keywords
        # most schemas have none: then no new set is made and hashed for the key
        keywords = NO_KEYWORDS if not is_object or dispatch.isdisjoint(schema) else dispatch.intersection(schema)
        kind = (is_object, node.is_property, node.property_name, node.types, keywords, targets)
        rules = self._by_kind.get(kind)
        if rules is None:
            if len(self._by_kind) >= self.MAX_KINDS:
                self._by_kind.clear()
            rules = self._by_kind[kind] = [r for r in self.rules if applies(r, node, targets)]
        return rules


class ToolRule(Rule):
    scope = Scope.TOOL

    def check(self, tool: Tool, context: LintContext) -> Iterable[Finding]:
        raise NotImplementedError


class ToolSetRule(Rule):
    scope = Scope.TOOLSET

    def check(self, toolset: ToolSet, context: LintContext) -> Iterable[Finding]:
        raise NotImplementedError


class RequestRule(Rule):
    """A rule about a request body (`tool_choice`, parallel calls, deferred loading) and the tools it sends."""

    scope = Scope.REQUEST

    def check(self, request: Request, context: LintContext) -> Iterable[Finding]:
        raise NotImplementedError


class FixtureRule(Rule):
    """A rule about an eval fixture; `fixture.tools` holds the definitions it is linked to (None: not linked)."""

    scope = Scope.FIXTURE

    def check(self, fixture: EvalFixture, context: LintContext) -> Iterable[Finding]:
        raise NotImplementedError


class EngineRule(Rule):
    """Emitted by the engine or a loader (file scope); registered so it can be selected and documented."""

    scope = Scope.FILE


class ChangeRule(EngineRule):
    """Reported by `schemalint diff`: a change between two versions of a tool set."""

    scope = Scope.CHANGE
