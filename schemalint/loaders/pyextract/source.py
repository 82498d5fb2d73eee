"""The module under analysis: positions, imports, module constants and class definitions."""

from __future__ import annotations

import ast
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, cast

import libcst as cst
from libcst.metadata import CodeRange, PositionProvider
from libcst.metadata.position_provider import PositionProvidingCodegenState

from schemalint.loaders import LoadError
from schemalint.model import Span

#: the marker for "this expression has no statically known value"
UNKNOWN: Any = object()


@dataclass
class Assumptions:
    """What had to be assumed about one tool; reported once per tool as SL004."""

    items: list[str] = field(default_factory=list)

    def add(self, text: str) -> None:
        if text not in self.items:
            self.items.append(text)


class SourceModule:
    """A parsed module plus the facts the extractor needs about it."""

    def __init__(self, module: cst.Module, lines: list[str] | None, statements: list[ast.stmt]) -> None:
        """`lines`: the module's lines (ends kept), None when they may not be CPython's (a lone CR)."""
        self.module = module
        #: local name -> fully qualified imported name (`FastMCP` -> `fastmcp.FastMCP`)
        self.imports: dict[str, str] = {}
        #: module-level `NAME = <expr>` (the last plain assignment wins)
        self.constants: dict[str, cst.BaseExpression] = {}
        #: every class defined anywhere in the file, by name (the first definition wins)
        self.classes: dict[str, cst.ClassDef] = {}
        #: every function defined anywhere in the file, by name, in source order
        self.functions: dict[str, list[cst.FunctionDef]] = {}
        #: every `name = <expr>` anywhere in the file (any scope), in source order
        self.assignments: dict[str, list[cst.BaseExpression]] = {}
        #: id(function) -> the function it is defined in (for `def register(mcp): @mcp.tool ...`)
        self.enclosing: dict[int, cst.FunctionDef] = {}
        #: id(function) -> the innermost class around it (its methods, and functions nested in them)
        self.enclosing_class: dict[int, cst.ClassDef] = {}
        #: id(statement, class, function or assigned value) -> index of its top-level statement
        self.top_index: dict[int, int] = {}
        #: the source of each top-level statement (for cheap textual checks)
        self.statement_code: list[str] = []
        self._first_lines: list[int] = []
        #: CPython's tree of each top-level statement, where the two trees line up
        self._trees: list[ast.stmt] = []
        #: top-level statement -> the functions and classes in it, in the order of the walk
        self._definitions: dict[int, list[cst.FunctionDef | cst.ClassDef]] = {}
        self._computed: dict[cst.CSTNode, CodeRange] = {}
        self._positioned: set[int] = set()
        self._pending: set[int] = set()
        self._needs_body: set[int] = set()
        self._self_assignments: dict[int, dict[str, list[tuple[cst.BaseExpression, cst.FunctionDef]]]] = {}
        aligned = _first_lines(module, lines, statements) if lines is not None else None
        if lines is not None and aligned is not None:
            first_lines = [line for line, _ in aligned]
            self._first_lines, self._trees = first_lines, [tree for _, tree in aligned]
            self.statement_code = ["".join(lines[a - 1 : b - 1]) for a, b in pairwise([*first_lines, len(lines) + 1])]
        else:  # generating the code is slower than slicing the text, and counts the same lines
            line = 1 + sum(module.code_for_node(h).count("\n") for h in module.header)
            for statement in module.body:
                self.statement_code.append(module.code_for_node(statement))
                self._first_lines.append(line)
                line += self.statement_code[-1].count("\n")
        for index, statement in enumerate(module.body):
            self._walk(statement, index, depth=0, scope=None, owner=None)

    # -- indexing: a walk over statements only (expressions are visited where tools may be) -------

    def _walk(
        self, statement: cst.CSTNode, top: int, depth: int, scope: cst.FunctionDef | None, owner: cst.ClassDef | None
    ) -> None:
        self.top_index[id(statement)] = top
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                self._small_statement(small, top, depth)
            return
        if isinstance(statement, (cst.ClassDef, cst.FunctionDef)):
            self._definitions.setdefault(top, []).append(statement)
        if isinstance(statement, cst.ClassDef):
            self.classes.setdefault(statement.name.value, statement)
            owner = statement
            depth += 1
        elif isinstance(statement, cst.FunctionDef):
            self.functions.setdefault(statement.name.value, []).append(statement)
            if scope is not None:
                self.enclosing[id(statement)] = scope
            if owner is not None:
                self.enclosing_class[id(statement)] = owner
            scope = statement
            depth += 1
        for block in _blocks(statement):
            for inner in block.body:
                self._walk(inner, top, depth, scope, owner)

    def _small_statement(self, small: cst.BaseSmallStatement, top: int, depth: int) -> None:
        if isinstance(small, cst.Import):
            for alias in small.names:
                full = dotted_name(alias.name)
                if full is None:
                    continue
                if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                    self.imports[alias.asname.name.value] = full
                else:
                    self.imports.setdefault(full.split(".")[0], full.split(".")[0])
        elif isinstance(small, cst.ImportFrom):
            self._import_from(small)
        elif isinstance(small, (cst.Assign, cst.AnnAssign)) and small.value is not None:
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
            for target in targets:
                if isinstance(target, cst.Name):
                    self.assignments.setdefault(target.value, []).append(small.value)
                    self.top_index[id(small.value)] = top
                    if depth == 0:
                        self.constants[target.value] = small.value

    def _import_from(self, node: cst.ImportFrom) -> None:
        if isinstance(node.names, cst.ImportStar):
            return
        module = "." * len(node.relative) + (dotted_name(node.module) or "")
        for alias in node.names:
            name = dotted_name(alias.name)
            if name is None:
                continue
            local = alias.asname.name.value if alias.asname and isinstance(alias.asname.name, cst.Name) else name
            # `from . import x` is `.x`, `from .m import x` is `.m.x`
            separator = "." if module.strip(".") else ""
            self.imports[local] = f"{module}{separator}{name}" if module else name

    def without_registering_calls(self, top: int) -> set[int]:
        """ids of the functions and classes in top-level statement `top` that hold no call shaped like
        a registration (CPython's tree says), for the call walk to skip; none where the trees differ."""
        definitions = self._definitions.get(top, [])
        if not self._trees or not definitions:
            return set()
        tree = self._trees[top]
        found = list(_definitions(tree))
        if [node.name for node in found] != [unicodedata.normalize("NFKC", node.name.value) for node in definitions]:
            return set()
        lines = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call) and self._may_register(node)]
        cold = set()
        for node, definition in zip(found, definitions, strict=True):
            first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
            if not any(first <= line <= (node.end_lineno or node.lineno) for line in lines):
                cold.add(id(definition))
        return cold

    def _may_register(self, call: ast.Call) -> bool:
        """A call `RegistrationFinder` may take for a registration (a superset)."""
        if not call.args or isinstance(call.args[0], ast.Starred):
            return False
        func = call.func
        if not isinstance(func, ast.Name):
            return _registers_by_shape(func)
        return not func.id.isascii() or self.imports.get(func.id, "").rsplit(".", 1)[-1] == "tool"

    # -- positions -------------------------------------------------------------------------------

    def activate(self, node: cst.CSTNode) -> None:
        """Ask for positions inside the top-level statement holding `node` (computed lazily).

        A top-level function asked for by itself only needs its decorators, signature and
        docstring: its body is left out of the (costly) position pass.
        """
        top = self.top_index.get(id(node))
        if top is None or top in self._positioned:
            return
        self._pending.add(top)
        if node is not self.module.body[top] or not isinstance(node, cst.FunctionDef):
            self._needs_body.add(top)

    def _compute(self, tops: set[int]) -> None:
        provider = PositionProvider()
        for top in sorted(tops - self._positioned):
            state = PositionProvidingCodegenState(
                default_indent=self.module.default_indent,
                default_newline=self.module.default_newline,
                provider=provider,
            )
            state.line = self._first_lines[top]
            state.column = 0
            statement = self.module.body[top]
            if top not in self._needs_body and isinstance(statement, cst.FunctionDef):
                header = _header_only(statement)
                header._codegen(state)
                if header is not statement:  # the function's own span is its header's
                    provider._computed[statement] = provider._computed[header]
            else:
                statement._codegen(state)
            self._positioned.add(top)
        self._computed.update(cast("dict[cst.CSTNode, CodeRange]", provider._computed))

    def span(self, node: cst.CSTNode) -> Span:
        """1-based line and column, end exclusive (libcst columns are 0-based)."""
        code_range = self._computed.get(node)
        if code_range is None and self._pending:
            self._compute(self._pending)
            self._pending.clear()
            code_range = self._computed.get(node)
        if code_range is None:  # a node we did not anticipate: position the whole module once
            self._needs_body.update(range(len(self.module.body)))
            self._positioned.clear()
            self._compute(set(range(len(self.module.body))))
            code_range = self._computed.get(node)
        if code_range is None:
            return Span(1, 1, 1, 1)
        return Span(code_range.start.line, code_range.start.column + 1, code_range.end.line, code_range.end.column + 1)

    # -- names -----------------------------------------------------------------------------------

    def qualified_name(self, node: cst.BaseExpression) -> str | None:
        """`FastMCP` -> `fastmcp.FastMCP`, `types.Tool` -> `mcp.types.Tool`; local names stay bare."""
        dotted = dotted_name(node)
        if dotted is None:
            return None
        head, _, rest = dotted.partition(".")
        if head in self.imports:
            base = self.imports[head]
            return f"{base}.{rest}" if rest else base
        return dotted

    def imports_module(self, prefix: str) -> bool:
        return any(q == prefix or q.startswith(prefix + ".") for q in self.imports.values())

    # -- values ----------------------------------------------------------------------------------

    def literal(self, node: cst.BaseExpression | None, depth: int = 0) -> Any:
        """The value of a literal expression (following module constants), or UNKNOWN."""
        if node is None or depth > 20:
            return UNKNOWN
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.Integer, cst.Float)):
            try:
                return ast.literal_eval(self.module.code_for_node(node))
            except (ValueError, SyntaxError):
                return UNKNOWN
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
            inner = self.literal(node.expression, depth + 1)
            return -inner if isinstance(inner, (int, float)) and not isinstance(inner, bool) else UNKNOWN
        if isinstance(node, cst.Name):
            if node.value in ("True", "False", "None"):
                return {"True": True, "False": False, "None": None}[node.value]
            if node.value in self.constants:
                self.activate(self.constants[node.value])
                return self.literal(self.constants[node.value], depth + 1)
            return UNKNOWN
        if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
            values = []
            for item in node.elements:
                if not isinstance(item, cst.Element):
                    return UNKNOWN
                value = self.literal(item.value, depth + 1)
                if value is UNKNOWN:
                    return UNKNOWN
                values.append(value)
            return values
        if isinstance(node, cst.Dict):
            result: dict[Any, Any] = {}
            for element in node.elements:
                if not isinstance(element, cst.DictElement):
                    return UNKNOWN
                key = self.literal(element.key, depth + 1)
                value = self.literal(element.value, depth + 1)
                if key is UNKNOWN or value is UNKNOWN or isinstance(key, (list, dict)):
                    return UNKNOWN
                result[key] = value
            return result
        if isinstance(node, cst.Call) and dotted_name(node.func) in ("dict", "list", "set", "tuple", "frozenset"):
            if not node.args:
                return {} if dotted_name(node.func) == "dict" else []
            if dotted_name(node.func) == "dict" and all(a.keyword is not None for a in node.args):
                pairs = {a.keyword.value: self.literal(a.value, depth + 1) for a in node.args if a.keyword}
                return UNKNOWN if UNKNOWN in pairs.values() else pairs
            return UNKNOWN
        if isinstance(node, cst.Attribute):
            return self.enum_member_value(node)
        return UNKNOWN

    def enum_member_value(self, node: cst.Attribute) -> Any:
        """`Color.RED` or `Color.RED.value` for an Enum class in this file."""
        target = node
        if target.attr.value == "value" and isinstance(target.value, cst.Attribute):
            target = target.value
        owner = dotted_name(target.value)
        if owner is None or owner not in self.classes:
            return UNKNOWN
        for member_name, value in enum_members(self, self.classes[owner]):
            if member_name == target.attr.value:
                return value
        return UNKNOWN

    def is_nested(self, function: cst.FunctionDef) -> bool:
        """Whether `function` is defined in a function or class rather than at module level."""
        return id(function) in self.enclosing or id(function) in self.enclosing_class

    def method_named(self, owner: cst.ClassDef, name: str) -> cst.FunctionDef | None:
        """The method `name` defined in the body of `owner` (the last definition wins, as in Python)."""
        found = None
        for function in self.functions.get(name, []):
            if self.enclosing_class.get(id(function)) is owner and id(function) not in self.enclosing:
                found = function
        return found

    def self_assignments(self, owner: cst.ClassDef, attribute: str) -> list[tuple[cst.BaseExpression, cst.FunctionDef]]:
        """Each `self.<attribute> = value` in the methods of `owner`, with the method it is in."""
        if id(owner) not in self._self_assignments:
            found: dict[str, list[tuple[cst.BaseExpression, cst.FunctionDef]]] = {}
            body = owner.body.body if isinstance(owner.body, cst.IndentedBlock) else ()
            for statement in body:
                if not isinstance(statement, cst.FunctionDef):
                    continue
                for small in small_statements(statement.body):
                    if isinstance(small, cst.Assign):
                        targets, value = [target.target for target in small.targets], small.value
                    elif isinstance(small, cst.AnnAssign) and small.value is not None:
                        targets, value = [small.target], small.value
                    else:
                        continue
                    for name in map(dotted_name, targets):
                        if name is not None and name.startswith("self.") and name.count(".") == 1:
                            found.setdefault(name[len("self.") :], []).append((value, statement))
            self._self_assignments[id(owner)] = found
        return self._self_assignments[id(owner)].get(attribute, [])


def small_statements(node: Any) -> Iterator[cst.BaseSmallStatement]:
    """The small statements (`x = 1`, `return x`, ...) of a suite, statement or clause, in source
    order, not in nested functions or classes: a walk over statements, no expression visited."""
    if isinstance(node, cst.BaseSmallStatement):
        yield node
    elif node is not None and not isinstance(node, (cst.FunctionDef, cst.ClassDef)):
        body = getattr(node, "body", None)  # suites and statement lines hold a sequence, the others a suite
        parts = [*(body if isinstance(body, (list, tuple)) else [body]), *getattr(node, "handlers", ())]
        parts += [getattr(node, "orelse", None), getattr(node, "finalbody", None), *getattr(node, "cases", ())]
        for part in parts:
            yield from small_statements(part)


def _first_lines(module: cst.Module, lines: list[str], statements: list[ast.stmt]) -> list[tuple[int, ast.stmt]] | None:
    """The line each top-level statement of `module` starts on, its leading comments and blank
    lines included, read from CPython's tree of the same text, with CPython's (first) statement;
    None where the two trees might not line up (a decorator whose expression starts below its `@`; the
    caller has already refused texts with a lone CR line break)."""
    starts: list[tuple[int, ast.stmt]] = []
    previous_end = 0
    for node in statements:
        start = _first_line(node, lines)
        if start is None:
            return None
        if start != previous_end:  # `a = 1; b = 2` is one libcst statement line
            starts.append((start, node))
        previous_end = node.end_lineno or node.lineno
    if len(starts) != len(module.body):
        return None
    return [(start - len(top.leading_lines), node) for (start, node), top in zip(starts, module.body, strict=True)]


_LONE_CR = re.compile(r"\r(?!\n)")
_LINE_ENDS = re.compile(r"(?<=\n)")


def _definitions(statement: ast.stmt) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef]:
    """The functions and classes in `statement`, in the order SourceModule walks libcst's tree."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield statement
    blocks = [getattr(statement, name, []) for name in ("body", "orelse", "finalbody")]
    blocks += [part.body for part in [*getattr(statement, "handlers", []), *getattr(statement, "cases", [])]]
    for block in blocks:
        for inner in block:
            yield from _definitions(inner)


def _header_only(function: cst.FunctionDef) -> cst.FunctionDef:
    """The function with its body cut after the docstring; the kept children are the same objects,
    so the positions recorded for them are the positions in the full source."""
    body = function.body
    if isinstance(body, cst.IndentedBlock) and len(body.body) > 1:
        return function.with_changes(body=body.with_changes(body=body.body[:1]))
    return function


def _blocks(statement: cst.CSTNode) -> list[cst.IndentedBlock]:
    """The indented blocks directly under a compound statement (bodies, else, except, finally)."""
    blocks: list[cst.IndentedBlock] = []
    for name in ("body", "orelse", "finalbody"):
        part = getattr(statement, name, None)
        if isinstance(part, cst.IndentedBlock):
            blocks.append(part)
        elif isinstance(part, cst.If):  # elif chains
            blocks.extend(_blocks(part))
        elif part is not None and isinstance(getattr(part, "body", None), cst.IndentedBlock):
            blocks.append(part.body)  # Else / Finally wrappers
    for handler in getattr(statement, "handlers", ()) or ():
        if isinstance(handler.body, cst.IndentedBlock):
            blocks.append(handler.body)
    for case in getattr(statement, "cases", ()) or ():
        if isinstance(case.body, cst.IndentedBlock):
            blocks.append(case.body)
    return blocks


def dotted_name(node: cst.CSTNode | None) -> str | None:
    """`a.b.c` for Name/Attribute chains, else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted_name(node.value)
        return f"{base}.{node.attr.value}" if base else None
    return None


def names_in(node: cst.CSTNode) -> set[str]:
    """The value of every `Name` in `node` (attribute names included: `types.ImageContent` gives both)."""
    found: set[str] = set()

    class Collect(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.add(name.value)

    node.visit(Collect())
    return found


def last_name(node: cst.CSTNode | None) -> str | None:
    dotted = dotted_name(node)
    return dotted.rsplit(".", 1)[-1] if dotted else None


def call_argument(call: cst.Call, keyword: str, position: int | None = None) -> cst.Arg | None:
    """The argument passed as `keyword=` or at positional index `position`."""
    positional = 0
    for arg in call.args:
        if arg.star:
            continue
        if arg.keyword is not None:
            if arg.keyword.value == keyword:
                return arg
        else:
            if position is not None and positional == position:
                return arg
            positional += 1
    return None


def raw_docstring(source: SourceModule, body: cst.BaseSuite) -> tuple[str | None, cst.BaseString | None]:
    """The docstring exactly as `fn.__doc__` holds it, and its node: the string literal that is the
    first statement of a function or class body."""
    if not isinstance(body, cst.IndentedBlock) or not body.body:
        return None, None
    first = body.body[0]
    if isinstance(first, cst.SimpleStatementLine) and first.body and isinstance(first.body[0], cst.Expr):
        node = first.body[0].value
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
            value = source.literal(node)
            return (value if isinstance(value, str) else None), node
    return None, None


def enum_members(source: SourceModule, node: cst.ClassDef) -> list[tuple[str, Any]]:
    """(name, value) of an Enum class's members; `auto()` follows the enum's rule (1, 2, ... or names)."""
    bases = {last_name(b.value) for b in node.bases}
    string_enum = "StrEnum" in bases
    members: list[tuple[str, Any]] = []
    if not isinstance(node.body, cst.IndentedBlock):
        return members
    for statement in node.body.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if not isinstance(small, cst.Assign) or len(small.targets) != 1:
                continue
            target = small.targets[0].target
            if not isinstance(target, cst.Name) or target.value.startswith("_"):
                continue
            if isinstance(small.value, cst.Call) and last_name(small.value.func) == "auto":
                value: Any = target.value.lower() if string_enum else len(members) + 1
            else:
                value = source.literal(small.value)
                if isinstance(value, list):  # tuple-valued members
                    value = UNKNOWN
            members.append((target.value, value))
    return members


#: deeper syntax trees are refused before libcst sees them: its parser slows down sharply with depth
#: (a 3,000-long attribute chain takes seconds, 20,000 never ends), and CPython 3.10's parser accepts
#: depths that 3.11's refuses, so CPython's own limit is not enough
MAX_PYTHON_NESTING = 1_000


def parse_module(text: str, path: str, every_statement: bool = False) -> SourceModule:
    """libcst's tree of `text`, after CPython's parser (which parses only, never runs) accepted it.

    libcst's native parser can hang or crash the process on deep input (100,000 nested brackets, a
    20,000-long attribute chain), so CPython goes first: it turns what it cannot parse into
    exceptions, gives the most precise position for syntax errors, and its tree's depth is checked
    against MAX_PYTHON_NESTING. Its tree also says what libcst need not parse: the bodies of tool
    functions and, unless `every_statement` (a module whose names other modules look up), the
    top-level statements the extractor never reads.
    """
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as error:
        line, column = error.lineno or 1, error.offset or 1
        raise LoadError(f"invalid Python: {error.msg}", line, column) from None
    except (RecursionError, MemoryError):
        raise LoadError("Python source nested too deeply to parse safely") from None
    except ValueError as error:  # e.g. NUL bytes
        raise LoadError(f"cannot parse Python: {error}") from None
    functions = _tool_functions(tree, MAX_PYTHON_NESTING)
    if functions is None:
        raise LoadError("Python source nested too deeply to parse safely")
    statements = tree.body
    lines = None if _LONE_CR.search(text) else _LINE_ENDS.split(text)  # a lone CR: CPython's lines differ
    if lines is not None:
        _blank_tool_bodies(lines, functions)
        statements = statements if every_statement else _blank_unread_statements(lines, statements)
    try:
        return SourceModule(cst.parse_module(text if lines is None else "".join(lines)), lines, statements)
    except cst.ParserSyntaxError as error:
        raise LoadError(f"invalid Python: {error.message}", error.raw_line, error.raw_column + 1) from None
    except (RecursionError, ValueError) as error:
        raise LoadError(f"cannot parse Python: {error}") from None


#: a registering call on a line that is not a decorator's (decorators are read from the function index)
CALL_MARKER = re.compile(r"^(?![ \t]*@).*?\b(?:add_tool|from_function|tool)\s*\(", re.MULTILINE)
#: a literal that may define tools
LITERAL_MARKER = re.compile(
    r"""["']type["']\s*:\s*["']function["']|\binputSchema\b|\binput_schema\b|["']parameters["']"""
    r"""|functionDeclarations|\bTool\s*\("""
)
#: the frameworks whose import anywhere in a module says what an unresolved server is
_FRAMEWORK_PACKAGES = frozenset({"mcp", "fastmcp", "pydantic_ai"})
#: names the extractor looks up without reading them (`conint()` is read as `int`)
_IMPLIED_NAMES = ("str", "int", "float", "list", "set")
_WORD = re.compile(r"\w+")


def _blank_unread_statements(lines: list[str], body: list[ast.stmt]) -> list[ast.stmt]:
    """Turns the top-level statements the extractor never reads into blank `lines`; the statements
    left. A statement is read when it holds a tool decorator, a call shaped like a
    registration, a literal tool definition or an import of a framework, shares a line with another
    statement, or binds a name that a read statement mentions (its models, constants, server object
    and helpers are looked up by name, and nothing else is). Lines and columns stay where they were."""
    spans: list[tuple[int, int]] = []
    for statement in body:
        start = _first_line(statement, lines)
        if start is None:  # the blanking would start below the `@` and leave it behind
            return body
        spans.append((start, statement.end_lineno or statement.lineno))
    facts = [_Facts(statement) for statement in body]
    tool_names = {"tool"}.union(*(fact.tool_aliases for fact in facts))
    binders: dict[str, list[int]] = {}
    pending: list[int] = []
    for index, fact in enumerate(facts):
        for name in fact.names:
            binders.setdefault(name, []).append(index)
        start, end = spans[index]
        after = spans[index - 1][1] if index else 0  # the comments before a statement are scanned with it
        alone = after < start and (index + 1 == len(body) or spans[index + 1][0] > end)
        if fact.read or fact.called & tool_names or not alone or LITERAL_MARKER.search("".join(lines[after:end])):
            pending.append(index)
    for name in _IMPLIED_NAMES:
        pending.extend(binders.pop(name, ()))
    read: set[int] = set()
    while pending:
        index = pending.pop()
        if index in read:
            continue
        read.add(index)
        start, end = spans[index]
        for word in set(_WORD.findall("".join(lines[start - 1 : end]))):
            pending.extend(binders.pop(word if word.isascii() else unicodedata.normalize("NFKC", word), ()))
    for index, (start, end) in enumerate(spans):
        if index not in read:
            for number in range(start - 1, end):
                lines[number] = lines[number][len(lines[number].rstrip("\r\n")) :]
    return [statement for index, statement in enumerate(body) if index in read]


def _first_line(statement: ast.stmt, lines: list[str]) -> int | None:
    """The line a statement starts on, its decorators included; None when CPython's line for the first
    decorator is not its `@` line (a decorator expression that starts below its `@`)."""
    decorators = getattr(statement, "decorator_list", None)
    if not decorators:
        return statement.lineno
    start: int = decorators[0].lineno
    return start if lines[start - 1].lstrip().startswith("@") else None


class _Facts:
    """What one top-level statement binds anywhere in it (definitions, assignments, imports), and
    whether it holds something the extractor reads whatever names it: a tool decorator, an import of
    a framework, a call shaped like a registration (`x.add_tool(f)`, `X.from_function(f)`,
    `x.tool(f)`, `x.tool(...)(f)`; `NAME(Model)` when NAME is `tool` or an import of one)."""

    def __init__(self, statement: ast.stmt) -> None:
        self.names: set[str] = set()
        self.tool_aliases: set[str] = set()
        self.called: set[str] = set()  # NAME of each `NAME(name, ...)` call
        self.read = False
        for node in ast.walk(statement):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.names.add(node.name)
                self.read = self.read or _is_tool_definition(node)
            elif isinstance(node, ast.Assign):
                self.names.update(target.id for target in node.targets if isinstance(target, ast.Name))
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                self.names.add(node.target.id)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                self._import(node)
            elif isinstance(node, ast.Call) and node.args and not isinstance(node.args[0], ast.Starred):
                self._call(node)

    def _import(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.ImportFrom):
            self.read = self.read or (not node.level and (node.module or "").split(".")[0] in _FRAMEWORK_PACKAGES)
        for alias in node.names:
            root = alias.name.split(".")[0]
            local = alias.asname or (alias.name if isinstance(node, ast.ImportFrom) else root)
            self.names.add(local)
            self.read = self.read or (isinstance(node, ast.Import) and root in _FRAMEWORK_PACKAGES)
            if alias.name.rsplit(".", 1)[-1] == "tool":
                self.tool_aliases.add(local)

    def _call(self, node: ast.Call) -> None:
        func = node.func
        if not isinstance(func, ast.Name):
            self.read = self.read or _registers_by_shape(func)
        elif isinstance(node.args[0], ast.Name):
            self.called.add(func.id)


def _registers_by_shape(func: ast.expr) -> bool:
    """Whether a call of `func` is shaped like a registration: `x.tool(...)(f)`, `x.add_tool(f)`,
    `X.from_function(f)`, `x.tool(f)`."""
    if isinstance(func, ast.Call):
        return isinstance(func.func, ast.Attribute) and func.func.attr == "tool"
    return isinstance(func, ast.Attribute) and func.attr in ("add_tool", "from_function", "tool")


#: decorators that make a tool of a function, by their last name
_TOOL_DECORATORS = frozenset({"tool", "tool_plain", "function_tool"})


def _is_tool_definition(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
    return any(_decorator_name(decorator) in _TOOL_DECORATORS for decorator in node.decorator_list)


#: what the extractor looks for inside a function body: a nested function or class (a decorator line
#: is followed by one), a registering call, a literal tool definition or a part of one
_READ_IN_BODIES = re.compile(
    rf"^[ \t]*(?:async[ \t]+def|def|class)\b|{CALL_MARKER.pattern}|{LITERAL_MARKER.pattern}"
    r"""|["']type["']|\binputschema\b""",
    re.MULTILINE,
)


def _tool_functions(tree: ast.Module, limit: int) -> list[ast.FunctionDef | ast.AsyncFunctionDef] | None:
    """The functions decorated as tools, found level by level without recursion; None when the tree
    has more than `limit` levels."""
    found: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    level: list[ast.AST] = [tree]
    for _ in range(limit):
        found.extend(
            node
            for node in level
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _is_tool_definition(node)
        )
        level = [child for node in level for child in ast.iter_child_nodes(node)]
        if not level:
            return found
    return None


def _decorator_name(node: ast.expr) -> str | None:
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Attribute):
        return target.attr
    return target.id if isinstance(target, ast.Name) else None


def _blank_tool_bodies(lines: list[str], functions: list[ast.FunctionDef | ast.AsyncFunctionDef]) -> None:
    """Turns the statements after each tool function's docstring into blank `lines` (a `pass` where
    there is no docstring), so libcst parses what the extractor reads and no more. Lines and columns
    stay where they were. A body holding anything the extractor looks for in bodies is kept whole."""
    for function in functions:
        body = function.body
        first = body[0]
        docstring = (
            isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)
        )
        keep = 1 if docstring else 0
        if len(body) <= keep:
            continue
        start, end = body[keep].lineno, function.end_lineno or body[-1].lineno
        line = lines[start - 1]
        region = "".join(lines[start - 1 : end])
        if line[: body[keep].col_offset].strip() or _READ_IN_BODIES.search(region):
            continue  # shares its first line with the signature or docstring, or is read
        for index in range(start - 1, end):
            lines[index] = lines[index][len(lines[index].rstrip("\r\n")) :]
        if not keep:
            lines[start - 1] = line[: len(line) - len(line.lstrip(" \t"))] + "pass" + lines[start - 1]
