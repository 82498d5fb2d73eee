"""The shape of a rule. A rule module defines one subclass; its docstring is the user documentation.

Docstring sections, in this order: What it does / Why is this bad? / Example / Use instead /
Options / Fix safety. `schemalint rule CODE` prints it and SARIF uses it as the rule's help.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
from collections.abc import Iterable, Mapping, Set
from functools import lru_cache
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
    it is lighter than a plain `@dataclass(frozen=True)`, because every run imports every rule module
    and Python writes and compiles the source of each generated method: no `__setattr__`/`__delattr__`
    guards, no `__eq__`/`__hash__` (options are never compared), and a class docstring of its own (the
    one dataclass writes is built with `inspect.signature`). Together 8% of the work of a 10-tool run.
    """
    if not cls.__doc__:
        cls.__doc__ = f"The options of {cls.__module__.rpartition('.')[2]}."
    return dataclasses.dataclass(eq=False)(cls)


@rule_options
class NoOptions:
    pass


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

    def is_strict(self, tool: Tool) -> bool:
        """Whether a strict variant (`openai-strict`) is among the tool's targets."""
        return _has_strict(self.targets(tool))


@lru_cache(maxsize=64)
def _has_strict(targets: frozenset[str]) -> bool:
    """Cached per set of targets: SL303 asks it for every object schema, and a run has a handful of sets."""
    return any(t.endswith("-strict") for t in targets)


class Rule:
    code: ClassVar[str]
    slug: ClassVar[str]
    scope: ClassVar[Scope]
    severity: ClassVar[Severity]
    summary: ClassVar[str]
    Options: ClassVar[type] = NoOptions
    #: the kinds of fix the rule offers ("safe", "unsafe"), as its `## Fix safety` docs say
    fixable: ClassVar[tuple[str, ...]] = ()

    def __init__(self, options: Any = None) -> None:
        self.options = options if options is not None else self.Options()

    @classmethod
    def docs(cls) -> str:
        return inspect.cleandoc(cls.__doc__ or cls.summary)

    @classmethod
    def option_fields(cls) -> tuple[dataclasses.Field[Any], ...]:
        return dataclasses.fields(cls.Options)


class Nodes(enum.Enum):
    """Which schema nodes a NodeRule looks at. The engine calls `check` only on those, so that a
    rule about property names is not called on every `items` or `anyOf` branch. It is a filter in
    front of `check`, not a replacement for the rule's own guards: `check` must stay correct on any
    node (tests call it directly), and must yield nothing on the nodes its filter leaves out."""

    #: every node, whatever its schema (a rule that reports malformed schemas)
    ALL = "all"
    #: nodes whose schema is a JSON object (not `true`/`false` or a malformed value)
    OBJECTS = "objects"
    #: nodes reached through `properties`, whatever their name or schema (`node.is_property`)
    PROPERTIES = "properties"
    #: properties with a non-empty name and an object schema (`text.property_schema(node)` is not None)
    NAMED_PROPERTIES = "named-properties"

    @staticmethod
    def of(node: SchemaNode) -> frozenset[Nodes]:
        """The filters `node` passes (one of a few shared sets, so callers can key a cache on it)."""
        is_object, is_property = node.is_mapping, node.is_property
        return _PASSED[is_object, is_property, is_property and is_object and bool(node.property_name)]


def _passed(is_object: bool, is_property: bool, is_named_property: bool) -> frozenset[Nodes]:
    passed = {Nodes.ALL}
    if is_object:
        passed.add(Nodes.OBJECTS)
    if is_property:
        passed.add(Nodes.PROPERTIES)
    if is_named_property:
        passed.add(Nodes.NAMED_PROPERTIES)
    return frozenset(passed)


_PASSED = {
    (is_object, is_property, is_named): _passed(is_object, is_property, is_named)
    for is_object in (False, True)
    for is_property in (False, True)
    for is_named in (False, True)
}


#: the keywords of a schema that is not an object
NO_KEYWORDS: frozenset[str] = frozenset()


class NodeRule(Rule):
    scope = Scope.NODE
    #: the nodes this rule can report on (see Nodes); the engine skips the others
    nodes: ClassVar[Nodes] = Nodes.ALL
    #: narrower still (optional): the rule reports only on a schema that has one of these types (as
    #: `schema_types` reads them) or one of these keywords; the engine skips the others. As with
    #: `nodes`, `check` stays correct on any node. Both empty: every node `nodes` lets through.
    types: ClassVar[frozenset[str]] = frozenset()
    keywords: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def wants(cls, passed: frozenset[Nodes], types: frozenset[str], keywords: Set[str]) -> bool:
        """Whether the engine calls `check` on a node that passes the `passed` filters (`Nodes.of`) and
        whose schema has `types` and `keywords` (enough of them to include this rule's own)."""
        if cls.nodes not in passed:
            return False
        if not cls.types and not cls.keywords:
            return True
        return not cls.types.isdisjoint(types) or not cls.keywords.isdisjoint(keywords)

    def wants_name(self, name: str) -> bool:
        """Whether the rule can report on a property called `name` (asked of properties only, once per
        name and kind of node): a rule about names says no to the names it has nothing to say about,
        and its `check` asks the same question. The default wants every name."""
        return True

    def wants_targets(self, targets: frozenset[str]) -> bool:
        """Whether the rule can report on a tool checked against `targets` (asked once per set of targets
        and kind of node): a rule about one target's mode says no when it is not among them, and its
        `check` asks the same question. The default wants every set."""
        return True

    def wants_kind(
        self,
        passed: frozenset[Nodes],
        types: frozenset[str],
        keywords: Set[str],
        name: str | None,
        targets: frozenset[str],
    ) -> bool:
        """`wants`, `wants_name` (for a property, `name` not None) and `wants_targets` together: whether
        the engine calls `check` on a node of this kind."""
        return (
            self.wants(passed, types, keywords)
            and (name is None or self.wants_name(name))
            and self.wants_targets(targets)
        )

    def wants_node(self, node: SchemaNode, targets: frozenset[str]) -> bool:
        """`wants_kind` for one node of a tool checked against `targets` (tests and benchmarks; the
        engine keeps its answers per kind of node)."""
        keywords = frozenset(node.schema) if node.is_mapping else NO_KEYWORDS
        return self.wants_kind(Nodes.of(node), node.types, keywords, node.property_name, targets)

    def check(self, node: SchemaNode, context: LintContext) -> Iterable[Finding]:
        raise NotImplementedError


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
