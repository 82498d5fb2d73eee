"""Finding tool registrations (decorators and calls) and building the schema each framework builds."""

from __future__ import annotations

import inspect
import re
import textwrap
from dataclasses import dataclass, field
from typing import Any

import libcst as cst

from schemalint.loaders.pyextract import postprocess
from schemalint.loaders.pyextract.docstrings import ParsedDocstring, parse_langchain_google, parse_structured
from schemalint.loaders.pyextract.outputs import output_schema
from schemalint.loaders.pyextract.project import Names, Project
from schemalint.loaders.pyextract.schema import FieldSpec, Flavor, JSONSchema, SchemaBuilder, SpanPair, class_kind
from schemalint.loaders.pyextract.source import (
    CALL_MARKER,
    UNKNOWN,
    Assumptions,
    SourceModule,
    call_argument,
    dotted_name,
    last_name,
    names_in,
    raw_docstring,
)
from schemalint.model import join_pointer

FLAVORS = {
    "mcp": Flavor("mcp", annotated_doc=False, untyped_as_string=True),
    "fastmcp": Flavor("fastmcp"),
    "langchain": Flavor("langchain"),
    "openai-agents": Flavor("openai-agents"),
    "pydantic-ai": Flavor("pydantic-ai", annotated_doc=False),
}


_LANGCHAIN_INJECTED = {"InjectedToolArg", "InjectedState", "InjectedStore", "InjectedToolCallId", "ToolRuntime"}
_LANGCHAIN_FILTERED = {"run_manager", "callbacks"}


@dataclass
class Registration:
    """One place where a tool is made: a decorated function, or a call naming a function/class."""

    framework: str
    anchor: cst.CSTNode  # where the tool is declared (decorator or call)
    function: cst.FunctionDef | None = None
    model_class: cst.ClassDef | None = None
    call: cst.Call | None = None  # decorator call or registration call carrying the options
    name_arg: cst.BaseExpression | None = None
    description_arg: cst.BaseExpression | None = None
    takes_ctx: bool = False  # pydantic-ai @agent.tool: the first parameter is the RunContext
    #: the project pins fastmcp 2.x: the whole docstring is the description and the root stays open
    fastmcp_2: bool = False
    assumptions: Assumptions = field(default_factory=Assumptions)
    #: the module `function` is defined in, when it is another module of the project than this file
    home: SourceModule | None = None


@dataclass
class BuiltTool:
    name: str | None
    description: str | None
    parameters: JSONSchema
    framework: str
    #: pointer relative to the tool object ("" is the tool; "/parameters/properties/x" ...) -> (key, value)
    spans: dict[str, SpanPair]
    assumptions: list[str]
    strict: bool | None = None
    #: MCP tool annotations (`annotations=ToolAnnotations(readOnlyHint=True)` or a dict)
    annotations: dict[str, Any] | None = None
    #: the `outputSchema` FastMCP / the MCP SDK derive from the return annotation
    output_schema: JSONSchema | None = None


# -- discovery -----------------------------------------------------------------------------------


#: unannotated parameters taken for a server: `mcp`, `mcp_server`, `fastmcp`, ...
_SERVER_PARAMETER = re.compile(r"(?:^|_)(?:fast)?mcp(?:$|_)", re.IGNORECASE)
#: annotations that say nothing about a parameter: `mcp: Any` is read as an unannotated `mcp`
_UNTYPED = frozenset({"Any", "object"})
_REGISTERING_FUNCTION = re.compile(r"_?(?:register|setup|set_up|add|init|install|attach|configure|load)", re.IGNORECASE)


class _CallCollector(cst.CSTVisitor):
    """Every call, with the innermost function it is made in (None at module level) and the `for`
    loops around it; the functions and classes in `skipped` (ids) are not entered."""

    def __init__(self, skipped: set[int]) -> None:
        self.calls: list[tuple[cst.Call, cst.FunctionDef | None, tuple[cst.For, ...]]] = []
        self._functions: list[cst.FunctionDef] = []
        self._loops: list[cst.For] = []
        self._skipped = skipped

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        if id(node) in self._skipped:
            return False
        self._functions.append(node)
        return True

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        if id(original_node) not in self._skipped:
            self._functions.pop()

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return id(node) not in self._skipped

    def visit_For(self, node: cst.For) -> None:
        self._loops.append(node)

    def leave_For(self, original_node: cst.For) -> None:
        self._loops.pop()

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append((node, self._functions[-1] if self._functions else None, tuple(self._loops)))


class RegistrationFinder:
    """Finds registrations without visiting every expression of the file: decorators are read from
    the function index, and only statements whose text mentions a registering call are visited."""

    def __init__(self, source: SourceModule, project: Project | None = None) -> None:
        self.source = source
        self.project = project
        self.names = Names(source, project.file if project is not None else None, project)
        #: server parameters whose framework nothing in the file or project says
        self.assumed: set[str] = set()

    def find(self) -> list[Registration]:
        found: list[Registration] = []
        for functions in self.source.functions.values():
            for function in functions:
                for decorator in function.decorators:
                    registration = self._from_decorator(decorator.decorator, function)
                    if registration is not None:
                        found.append(registration)
                        break
        for index, code in enumerate(self.source.statement_code):
            if not CALL_MARKER.search(code):
                continue
            collector = _CallCollector(self.source.without_registering_calls(index))
            self.source.module.body[index].visit(collector)
            for call, scope, loops in collector.calls:
                for target in self._loop_items(call, loops):
                    registration = self._from_call(call, scope, target)
                    if registration is not None:
                        self.source.top_index[id(call)] = index
                        found.append(registration)
        # read only when a fastmcp tool is found: most files register none
        pins_fastmcp_2 = (
            self.project is not None
            and any(registration.framework == "fastmcp" for registration in found)
            and self.project.pins_fastmcp_2()
        )
        for registration in found:
            registration.fastmcp_2 = pins_fastmcp_2 and registration.framework == "fastmcp"
            self.source.activate(registration.anchor)
            if registration.function is not None:
                (registration.home or self.source).activate(registration.function)
            if registration.model_class is not None:
                self.source.activate(registration.model_class)
        return found

    # decorators: @x.tool, @x.tool(...), @tool, @tool("name"), @function_tool(...), @agent.tool_plain
    def _from_decorator(self, expression: cst.BaseExpression, function: cst.FunctionDef) -> Registration | None:
        call = expression if isinstance(expression, cst.Call) else None
        target = call.func if call is not None else expression
        framework, takes_ctx = self._decorator_framework(target, function)
        if framework is None:
            return None
        registration = Registration(framework, function, function=function, call=call, takes_ctx=takes_ctx)
        receiver = dotted_name(target.value) if isinstance(target, cst.Attribute) else None
        if receiver in self.assumed:
            registration.assumptions.add(
                f"nothing says which framework the parameter `{receiver}` is a server of; {framework} was assumed"
            )
        if call is not None:
            self._read_options(registration, call, positional_name=framework in ("mcp", "fastmcp", "langchain"))
        return registration

    def _decorator_framework(self, target: cst.BaseExpression, function: cst.FunctionDef) -> tuple[str | None, bool]:
        if isinstance(target, cst.Attribute):
            method = target.attr.value
            if method not in ("tool", "tool_plain"):
                return None, False
            framework = self.receiver_framework(target.value, function)
            if framework == "pydantic-ai":
                return framework, method == "tool"
            return (framework, False) if method == "tool" else (None, False)
        qualified = self.source.qualified_name(target) or ""
        return self._function_framework(qualified) or self._project_decorator(target), False

    def _project_decorator(self, target: cst.BaseExpression) -> str | None:
        """`@tool(...)` imported from the project's own module, in a project that depends on FastMCP or
        the MCP SDK: a marker whose arguments the project hands to `server.tool(...)` later."""
        name = dotted_name(target)
        if name is None or name.rsplit(".", 1)[-1] != "tool" or self._imported_function(name) is None:
            return None
        return self.project.declared_framework() if self.project is not None else None

    def _function_framework(self, qualified: str) -> str | None:
        module, _, name = qualified.rpartition(".")
        if name == "tool" and module.split(".")[0] in ("langchain_core", "langchain", "langchain_community"):
            return "langchain"
        if module.split(".")[0] == "agents" and name in ("function_tool", "tool"):
            return "openai-agents"
        return None

    def receiver_framework(
        self, receiver: cst.BaseExpression, function: cst.FunctionDef | None = None, inside: bool = False
    ) -> str | None:
        """The framework of the object `x` in `x.tool`: from its construction (in this file or in a
        module of the project it is imported from), from a server parameter of an enclosing
        function (`def register(mcp: FastMCP)`; `inside`: of `function` itself, where a call is
        made), from what a method of the class stores in `self.x`, else from the imports."""
        name = dotted_name(receiver)
        if name is not None:
            found = self.names.what(name)
            if found is not None and found.kind == "object":
                return found.framework
            parameter = self._server_parameter(name, function, inside) if function is not None else None
            if parameter is not None:
                return parameter
            owner = self.source.enclosing_class.get(id(function)) if function is not None else None
            if owner is not None and name.startswith("self.") and name.count(".") == 1:
                stored = self._stored_server(owner, name.removeprefix("self."))
                if stored is not None:
                    return stored
        return self._imported_framework()

    def _stored_server(self, owner: cst.ClassDef, attribute: str) -> str | None:
        """The framework of the server a method of `owner` stores in `self.<attribute>`: one it makes
        (`self.mcp = FastMCP(...)`) or one it is given (`def __init__(self, mcp): self.mcp = mcp`)."""
        for value, method in self.source.self_assignments(owner, attribute):
            if isinstance(value, cst.Name):
                found = self._server_parameter(value.value, method, inside=True)
            else:
                made = self.names.made_by(value)
                found = made.framework if made is not None else None
            if found is not None:
                return found
        return None

    def _imported_framework(self) -> str | None:
        if self.source.imports_module("pydantic_ai"):
            return "pydantic-ai"
        if self.source.imports_module("fastmcp"):
            return "fastmcp"
        if self.source.imports_module("mcp.server"):
            return "mcp"
        return None

    def _server_parameter(self, name: str, function: cst.FunctionDef, inside: bool = False) -> str | None:
        """`name` as a parameter of a function enclosing `function` (or of `function` itself, `inside`):
        annotated with a server class, or unannotated and named like a server (`mcp`, `mcp_server`;
        `server`/`app` of `register_*`)."""
        outer = function if inside else self.source.enclosing.get(id(function))
        while outer is not None:
            params = [*outer.params.posonly_params, *outer.params.params, *outer.params.kwonly_params]
            for param in params:
                if param.name.value != name:
                    continue
                annotation = param.annotation.annotation if param.annotation is not None else None
                if annotation is not None and last_name(annotation) not in _UNTYPED:
                    found = self.names.annotation(annotation)
                    return found.framework if found is not None else None
                if _SERVER_PARAMETER.search(name) or (
                    name in ("server", "app") and _REGISTERING_FUNCTION.match(outer.name.value)
                ):
                    return self._imported_framework() or self._declared_framework(name)
                return None
            outer = self.source.enclosing.get(id(outer))
        return None

    def _declared_framework(self, parameter: str) -> str:
        """The framework the project's pyproject.toml depends on; FastMCP (an assumption) without one."""
        declared = self.project.declared_framework() if self.project is not None else None
        if declared is None:
            self.assumed.add(parameter)
        return declared or "fastmcp"

    def _loop_items(self, call: cst.Call, loops: tuple[cst.For, ...]) -> list[cst.BaseExpression | None]:
        """The functions `for fn in (a, b): mcp.add_tool(fn)` registers one by one (the loop may run
        over a list constant of the module); [None] when the call's first argument is not a loop's."""
        first = call.args[0].value if call.args else None
        for loop in reversed(loops):
            if not (isinstance(first, cst.Name) and isinstance(loop.target, cst.Name)):
                break
            if loop.target.value != first.value:
                continue
            items = loop.iter
            if isinstance(items, cst.Name):
                items = self.source.constants.get(items.value, items)
            if isinstance(items, (cst.List, cst.Tuple, cst.Set)):
                return [item.value for item in items.elements if isinstance(item, cst.Element)]
            break
        return [None]

    # calls: x.add_tool(fn, ...), X.from_function(fn, ...), x.tool(fn, name=...), x.tool(name=...)(fn),
    # tool(Model); `function` is the function the call is made in; `target`, the function a loop
    # passes as the first argument
    def _from_call(
        self, node: cst.Call, function: cst.FunctionDef | None = None, target: cst.BaseExpression | None = None
    ) -> Registration | None:
        func = node.func
        if not node.args or node.args[0].keyword is not None or node.args[0].star:
            return None
        first = target or node.args[0].value
        if isinstance(func, cst.Call) and isinstance(func.func, cst.Attribute) and func.func.attr.value == "tool":
            # `mcp.tool(name="x")(fn)`, `self.mcp.tool()(self.method)`: the decorator applied by hand
            framework = self.receiver_framework(func.func.value, function, inside=True)
            if framework in ("mcp", "fastmcp") and len(node.args) == 1:
                return self._call_registration(
                    framework, node, first, positional_name=True, options=func, scope=function
                )
            return None
        if isinstance(func, cst.Attribute):
            method = func.attr.value
            if method == "add_tool":
                framework = self.receiver_framework(func.value, function, inside=True)
                if framework in ("mcp", "fastmcp") and isinstance(first, (cst.Name, cst.Attribute)):
                    return self._call_registration(framework, node, first, positional_name=False, scope=function)
                return None
            if method == "from_function":
                qualified = self.source.qualified_name(func.value) or ""
                root = qualified.split(".")[0]
                if qualified.rsplit(".", 1)[-1] not in ("StructuredTool", "FunctionTool", "Tool"):
                    return None  # Prompt.from_function, Resource.from_function, ...
                framework = {"langchain_core": "langchain", "langchain": "langchain", "fastmcp": "fastmcp"}.get(root)
                if framework is None and root == "mcp":
                    framework = "mcp"
                if framework is not None:
                    return self._call_registration(framework, node, first, positional_name=False)
                return None
            if method == "tool" and isinstance(first, (cst.Name, cst.Attribute)):
                framework = self.receiver_framework(func.value, function, inside=True)
                if framework in ("fastmcp", "mcp"):
                    return self._call_registration(framework, node, first, positional_name=False, scope=function)
            return None
        qualified = self.source.qualified_name(func) or ""
        if (
            self._function_framework(qualified) == "langchain"
            and isinstance(first, cst.Name)
            and class_kind(self.source, first.value) == "model"
        ):
            return Registration("langchain", node, model_class=self.source.classes[first.value], call=node)
        return None

    def _call_registration(
        self,
        framework: str,
        node: cst.Call,
        target: cst.BaseExpression,
        positional_name: bool,
        options: cst.Call | None = None,
        scope: cst.FunctionDef | None = None,
    ) -> Registration | None:
        """The tool `node` registers from the function `target`; its options are the arguments after
        `target` or, for a decorator applied by hand, those of the decorator call (`options`)."""
        if isinstance(target, cst.Call):  # mcp.add_tool(FunctionTool.from_function(fn)) is found on its own
            return None
        name = dotted_name(target)
        if name is None:
            return None
        registration = Registration(framework, node, call=options or node)
        function = self._resolve_function(name, registration, scope)
        if function is None:
            imported = self._imported_function(name)
            if imported is None:
                return None
            registration.home, function = imported
        registration.function = function
        if options is not None:
            self._read_options(registration, options, positional_name=positional_name)
        else:
            self._read_options(registration, node, positional_name=positional_name, skip_first=True)
        return registration

    def _resolve_function(
        self, name: str, registration: Registration, scope: cst.FunctionDef | None = None
    ) -> cst.FunctionDef | None:
        """A function by name, following plain aliases (`find_foo = find`); `self.method` is a method
        of the class whose method (`scope`) registers it."""
        owner = self.source.enclosing_class.get(id(scope)) if scope is not None else None
        if name.startswith(("self.", "cls.")) and name.count(".") == 1:
            return self.source.method_named(owner, name.split(".")[1]) if owner is not None else None
        seen: set[str] = set()
        current = name
        while current not in seen:
            seen.add(current)
            functions = self.source.functions.get(current)
            if functions:
                if current != name:
                    registration.assumptions.add(
                        f"`{name}` is reassigned at run time; the schema is built from `{current}` as written"
                    )
                return functions[-1]
            values = self.source.assignments.get(current, [])
            plain = [v for v in values if isinstance(v, cst.Name)]
            if not plain:
                return None
            current = plain[0].value
        return None

    def _imported_function(self, name: str) -> tuple[SourceModule, cst.FunctionDef] | None:
        """`search` (`from .tools import search`) or `tools.search` (`from . import tools`) defined in
        another module of the project."""
        head = name.split(".")[0]
        if self.project is None or head not in self.source.imports:
            return None
        return self.project.imported_function(self.source.imports[head] + name[len(head) :], self.project.file)

    def _read_options(
        self, registration: Registration, call: cst.Call, positional_name: bool, skip_first: bool = False
    ) -> None:
        name_keys = ("name", "name_override", "name_or_callable")
        description_keys = ("description", "description_override")
        for index, arg in enumerate(call.args):
            if arg.keyword is None:
                if positional_name and index == (1 if skip_first else 0):
                    registration.name_arg = arg.value
                continue
            key = arg.keyword.value
            if key in name_keys:
                registration.name_arg = arg.value
            elif key in description_keys:
                registration.description_arg = arg.value
            elif key == "takes_ctx":
                registration.takes_ctx = self.source.literal(arg.value) is True


# -- building ------------------------------------------------------------------------------------


def option(source: SourceModule, call: cst.Call | None, keyword: str, default: Any) -> Any:
    if call is None:
        return default
    arg = call_argument(call, keyword)
    if arg is None:
        return default
    value = source.literal(arg.value)
    return default if value is UNKNOWN else value


def build_tool(source: SourceModule, registration: Registration) -> BuiltTool:
    framework = registration.framework
    assumptions = registration.assumptions
    home = registration.home or source  # where the function is defined
    builder = SchemaBuilder(home, FLAVORS[framework], assumptions)
    spans: dict[str, SpanPair] = {}
    function = registration.function
    if function is not None:
        default_name = function.name.value
        name_node: cst.CSTNode = function.name
        body = function.body
    else:
        assert registration.model_class is not None
        default_name = registration.model_class.name.value
        name_node = registration.model_class.name
        body = registration.model_class.body
    raw_doc, doc_node = raw_docstring(home, body)

    name = default_name
    if registration.name_arg is not None:
        value = source.literal(registration.name_arg)
        if isinstance(value, str):
            name = value
            name_node = registration.name_arg
        else:
            assumptions.add(
                f"the tool name `{source.module.code_for_node(registration.name_arg)}` is computed at run time; "
                f"`{default_name}` was assumed"
            )
    name_span = (source if name_node is registration.name_arg else home).span(name_node)
    spans[""] = (name_span, name_span)
    spans["/name"] = (name_span, name_span)

    parsed = _parse_docstring(source, registration, raw_doc)
    description = _description(source, registration, raw_doc, parsed)
    if registration.description_arg is not None and source.literal(registration.description_arg) is not UNKNOWN:
        description_span = source.span(registration.description_arg)
    elif doc_node is not None:
        description_span = home.span(doc_node)
    else:
        description_span = name_span
    spans["/description"] = (description_span, description_span)

    if function is not None:
        parameters, parameter_spans, model_description = _function_parameters(
            home, registration, builder, function, parsed, name if framework == "openai-agents" else default_name
        )
        if description is None and model_description is not None:
            description = model_description
    else:
        assert registration.model_class is not None
        parameters, parameter_spans = _model_parameters(builder, registration.model_class)
    for pointer, pair in parameter_spans.items():
        spans["/parameters" + pointer] = pair
    strict = None
    if framework == "openai-agents":
        strict = option(source, registration.call, "strict_mode", True) is not False
    annotations = output = None
    if framework in ("mcp", "fastmcp"):
        annotations = _annotations(source, registration, spans)
        if function is not None:
            output = output_schema(home, framework, FLAVORS[framework], function, registration.call)
        if output is not None and function is not None and function.returns is not None:
            returns = home.span(function.returns.annotation)
            spans["/outputSchema"] = (returns, returns)
    if registration.home is not None:  # findings point at the registration, the one place in this file
        anchor = source.span(registration.anchor)
        spans = dict.fromkeys(spans, (anchor, anchor))
    return BuiltTool(
        name, description, parameters, framework, spans, list(assumptions.items), strict, annotations, output
    )


def _annotations(source: SourceModule, registration: Registration, spans: dict[str, SpanPair]) -> dict[str, Any] | None:
    """`annotations=ToolAnnotations(readOnlyHint=True, ...)` or `annotations={...}` with literal values."""
    argument = call_argument(registration.call, "annotations") if registration.call is not None else None
    if argument is None:
        return None
    node = argument.value
    pairs: list[tuple[str, cst.CSTNode, cst.BaseExpression]] = []
    if isinstance(node, cst.Call) and last_name(node.func) == "ToolAnnotations":
        pairs = [(a.keyword.value, a.keyword, a.value) for a in node.args if a.keyword is not None]
    elif isinstance(node, cst.Dict):
        for element in node.elements:
            key = source.literal(element.key) if isinstance(element, cst.DictElement) else UNKNOWN
            if isinstance(element, cst.DictElement) and isinstance(key, str):
                pairs.append((key, element.key, element.value))
    else:
        registration.assumptions.add(
            f"the annotations `{source.module.code_for_node(node)}` are computed at run time; they are left out"
        )
        return None
    annotations: dict[str, Any] = {}
    spans["/annotations"] = (source.span(argument.keyword or node), source.span(node))
    for key, key_node, value_node in pairs:
        value = source.literal(value_node)
        if value is UNKNOWN:
            registration.assumptions.add(f"the annotation `{key}` is computed at run time; it is left out")
            continue
        annotations[key] = value
        spans[join_pointer("/annotations", key)] = (source.span(key_node), source.span(value_node))
    return annotations


def _parse_docstring(source: SourceModule, registration: Registration, raw_doc: str | None) -> ParsedDocstring:
    framework = registration.framework
    if framework == "langchain":
        if option(source, registration.call, "parse_docstring", False):
            return parse_langchain_google(raw_doc)
        return ParsedDocstring()
    if framework == "mcp":
        return ParsedDocstring()
    if framework == "openai-agents":
        if option(source, registration.call, "use_docstring_info", True) is False:
            return ParsedDocstring()
        return parse_structured(raw_doc, option(source, registration.call, "docstring_style", None))
    if framework == "pydantic-ai":
        return parse_structured(raw_doc, option(source, registration.call, "docstring_format", None))
    if registration.fastmcp_2:
        return ParsedDocstring()
    return parse_structured(raw_doc)


def _description(
    source: SourceModule, registration: Registration, raw_doc: str | None, parsed: ParsedDocstring
) -> str | None:
    framework = registration.framework
    if registration.description_arg is not None:
        value = source.literal(registration.description_arg)
        if isinstance(value, str):
            return value.strip() if framework == "langchain" else value
        expression = source.module.code_for_node(registration.description_arg)
        registration.assumptions.add(
            f"the description `{expression}` is computed at run time; "
            + ("the docstring was used in its place" if raw_doc else "it is treated as missing")
        )
    if framework == "mcp":
        return raw_doc if raw_doc is not None else ""
    if framework == "langchain":
        if option(source, registration.call, "parse_docstring", False):
            return parsed.description
        return textwrap.dedent(raw_doc).strip() if raw_doc else None
    if framework == "fastmcp":
        return (
            parsed.description if parsed.description is not None else (inspect.cleandoc(raw_doc) if raw_doc else None)
        )
    if framework == "openai-agents":
        return parsed.description or ""
    return parsed.description


def _function_parameters(
    source: SourceModule,
    registration: Registration,
    builder: SchemaBuilder,
    function: cst.FunctionDef,
    parsed: ParsedDocstring,
    tool_name: str,
) -> tuple[JSONSchema, dict[str, SpanPair], str | None]:
    framework = registration.framework
    params = [*function.params.posonly_params, *function.params.params, *function.params.kwonly_params]
    if params and params[0].name.value in ("self", "cls") and _is_method(source, function):
        params = params[1:]
    if framework == "pydantic-ai" and registration.takes_ctx and params:
        params = params[1:]
    if framework == "openai-agents" and params and _annotation_base(params[0]) in ("RunContextWrapper", "ToolContext"):
        params = params[1:]
    for star in (function.params.star_arg, function.params.star_kwarg):
        if isinstance(star, cst.Param):
            registration.assumptions.add(
                f"`{'**' if star is function.params.star_kwarg else '*'}{star.name.value}` accepts arguments "
                "that cannot be described statically; it is left out"
            )
    specs: list[FieldSpec] = []
    for param in params:
        if _is_injected(framework, param):
            continue
        annotation = param.annotation.annotation if param.annotation is not None else None
        spec = builder.parameter(param.name.value, annotation, param.default, param.name, annotation)
        docstring_text = parsed.parameters.get(param.name.value)
        if docstring_text is not None:
            docstring_wins = framework in ("openai-agents", "langchain")
            if docstring_wins or "description" not in spec.schema:
                spec.schema["description"] = docstring_text
        specs.append(spec)

    if framework == "pydantic-ai" and len(specs) == 1 and builder.is_local_model(_param_annotation(params, specs[0])):
        return _single_model(builder, specs[0])

    properties: JSONSchema = {}
    required: list[str] = []
    spans: dict[str, SpanPair] = {}
    for spec in specs:
        properties[spec.name] = spec.schema
        if spec.required:
            required.append(spec.name)
        spans[join_pointer("/properties", spec.name)] = (spec.key_span, spec.value_span)
    spans.update(builder.def_spans)
    schema: JSONSchema = {}
    if builder.defs:
        schema["$defs"] = dict(builder.defs)
    schema["properties"] = properties
    if required:
        schema["required"] = required
    schema, spans = _finish(framework, schema, spans, tool_name, registration, source)
    return schema, spans, None


def _single_model(builder: SchemaBuilder, spec: FieldSpec) -> tuple[JSONSchema, dict[str, SpanPair], str | None]:
    """pydantic-ai: a lone model-typed parameter *is* the parameters object."""
    ref = spec.schema.get("$ref", "")
    name = ref.rsplit("/", 1)[-1]
    model = dict(builder.defs.pop(name))
    prefix = f"/$defs/{name}"
    spans = {k[len(prefix) :] or "": v for k, v in builder.def_spans.items() if k.startswith(prefix)}
    spans.update({k: v for k, v in builder.def_spans.items() if not k.startswith(prefix)})
    description = model.pop("description", None)
    if description is not None:
        model["description"] = description
    schema: JSONSchema = {}
    if builder.defs:
        schema["$defs"] = dict(builder.defs)
    schema.update(model)
    return postprocess.remove_property_titles(schema), spans, description


def _model_parameters(builder: SchemaBuilder, node: cst.ClassDef) -> tuple[JSONSchema, dict[str, SpanPair]]:
    """LangChain `tool(Model)`: the model's schema, dereferenced and without titles."""
    name = node.name.value
    model = dict(builder.class_schema(name))
    prefix = f"/$defs/{name}"
    spans = {k[len(prefix) :]: v for k, v in builder.def_spans.items() if k.startswith(prefix + "/")}
    spans.update({k: v for k, v in builder.def_spans.items() if not k.startswith(prefix)})
    others = {k: v for k, v in builder.defs.items() if k != name}
    model.pop("title", None)
    model.pop("description", None)
    schema = {**({"$defs": others} if others else {}), **model}
    schema, spans = postprocess.dereference(schema, spans)
    return postprocess.remove_titles_langchain(schema), spans


def _finish(
    framework: str,
    schema: JSONSchema,
    spans: dict[str, SpanPair],
    model_name: str,
    registration: Registration,
    source: SourceModule,
) -> tuple[JSONSchema, dict[str, SpanPair]]:
    if framework == "mcp":
        schema["title"] = f"{model_name}Arguments"
        schema["type"] = "object"
        return schema, spans
    if framework == "fastmcp":
        schema["type"] = "object"
        if not registration.fastmcp_2:
            schema["additionalProperties"] = False
        if not postprocess.refers_to_itself(schema):  # FastMCP keeps the `$defs` of a recursive type
            schema, spans = postprocess.dereference(schema, spans)
        return postprocess.prune_titles_fastmcp(schema), spans
    if framework == "langchain":
        schema["type"] = "object"
        schema, spans = postprocess.dereference(schema, spans)
        return postprocess.remove_titles_langchain(schema), spans
    if framework == "openai-agents":
        schema["title"] = f"{model_name}_args"
        schema["type"] = "object"
        if option(source, registration.call, "strict_mode", True) is not False:
            return postprocess.openai_strict(schema, spans)
        return schema, spans
    # pydantic-ai
    schema["type"] = "object"
    schema["additionalProperties"] = False
    return postprocess.remove_property_titles(schema), spans


def _param_annotation(params: list[cst.Param], spec: FieldSpec) -> cst.BaseExpression | None:
    for param in params:
        if param.name.value == spec.name and param.annotation is not None:
            return param.annotation.annotation
    return None


def _annotation_base(param: cst.Param) -> str | None:
    if param.annotation is None:
        return None
    node = param.annotation.annotation
    if isinstance(node, (cst.SimpleString,)):
        try:
            node = cst.parse_expression(node.evaluated_value if isinstance(node.evaluated_value, str) else "")
        except cst.ParserSyntaxError:
            return None
    if isinstance(node, cst.Subscript):
        node = node.value
    return last_name(node)


def _is_injected(framework: str, param: cst.Param) -> bool:
    base = _annotation_base(param)
    if framework in ("mcp", "fastmcp"):
        return base is not None and base == "Context"
    if framework == "langchain":
        if param.name.value in _LANGCHAIN_FILTERED or base == "RunnableConfig":
            return True
        return param.annotation is not None and bool(names_in(param.annotation.annotation) & _LANGCHAIN_INJECTED)
    if framework in ("openai-agents", "pydantic-ai"):
        return base in ("RunContextWrapper", "ToolContext", "RunContext")
    return False


def _is_method(source: SourceModule, function: cst.FunctionDef) -> bool:
    return any(function in cls.body.body for cls in source.classes.values() if isinstance(cls.body, cst.IndentedBlock))
