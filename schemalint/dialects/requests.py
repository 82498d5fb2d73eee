"""Request bodies: the fields beside `tools` that decide how the model may use them.

A body is a mapping with a `tools` array and a key only a request has (`model`, `messages`, `input`,
`contents`, `tool_choice`, ...): a bare `{"tools": [...]}` is a tools/list result, not a request, and
has no defaults to speak of. Read: OpenAI Chat and Responses (`tool_choice`, `parallel_tool_calls`,
`defer_loading`, `tool_search`, namespaces), Anthropic Messages (`tool_choice` with
`disable_parallel_tool_use`, `defer_loading`, the tool-search server tools), Gemini (`toolConfig` /
`tool_config` with `functionCallingConfig`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from schemalint.model import JSON, Dialect, Request, Tool, ToolChoice, is_mapping, join_pointer
from schemalint.text import split_name

#: keys only a request body has (a tools/list result or a tool file has none of them)
REQUEST_KEYS = frozenset(
    """
    model messages input contents system instructions tool_choice toolConfig tool_config parallel_tool_calls
    max_tokens max_output_tokens
    """.split()
)
_GEMINI_CONFIG_KEYS = ("toolConfig", "tool_config")
_CALLING_CONFIG_KEYS = ("functionCallingConfig", "function_calling_config")
_ALLOWED_NAMES_KEYS = ("allowedFunctionNames", "allowed_function_names")
#: `defer_loading` as the APIs spell it; `deferLoading` as the guide (and camel-cased SDKs) write it
_DEFER_KEYS = ("defer_loading", "deferLoading")
#: words of a client-side tool that finds other tools (`search_tools`, `tool_search`, `find_tools`)
_SEARCH_VERBS = frozenset({"search", "find", "discover", "lookup", "load"})
_SEARCHED = frozenset({"tool", "tools", "capabilities"})
#: entries that stand for a server's tools, whose names the request does not list
_SERVER_TYPES = frozenset({"mcp", "mcp_toolset"})


def detect_requests(data: JSON, path: str, tools: Sequence[Tool]) -> list[Request]:
    """The request bodies in a document (the root, or each element of a root array), with their tools."""
    bodies: list[tuple[str, Mapping[str, Any]]] = []
    if is_mapping(data):
        bodies.append(("", data))
    elif isinstance(data, list):
        bodies.extend((f"/{i}", item) for i, item in enumerate(data) if is_mapping(item))
    return [_read(body, pointer, path, tools) for pointer, body in bodies if _is_request(body)]


def _is_request(body: Mapping[str, Any]) -> bool:
    return isinstance(body.get("tools"), list) and not REQUEST_KEYS.isdisjoint(body)


def _read(body: Mapping[str, Any], pointer: str, path: str, tools: Sequence[Tool]) -> Request:
    tools_pointer = f"{pointer}/tools"
    own = [t for t in tools if t.path == path and t.pointer.startswith(tools_pointer + "/")]
    request = Request(
        api=_api(body, own),
        path=path,
        pointer=pointer,
        tools_pointer=tools_pointer,
        tools=own,
        entries=tuple(join_pointer(tools_pointer, i) for i in range(len(body["tools"]))),
    )
    deferred, search = [], []
    names = {tool.name for tool in own if tool.name is not None}  # Gemini's declarations are no entries
    for entry_pointer, entry in _entries(body["tools"], tools_pointer):
        name = _function_part(entry, entry_pointer)[0].get("name")
        if isinstance(name, str):
            names.add(name)
        if _is_deferred(entry):
            deferred.append(entry_pointer)
        if _is_search_tool(entry):
            search.append(entry_pointer)
    request.deferred, request.search_tools, request.entry_names = tuple(deferred), tuple(search), frozenset(names)
    request.has_unlisted_tools = any(
        is_mapping(entry) and isinstance(entry.get("type"), str) and entry["type"] in _SERVER_TYPES
        for entry in body["tools"]
    )
    for tool in own:
        tool.deferred = tool.pointer in request.deferred
    _read_choice(body, pointer, request)
    return request


def _entries(entries: list[Any], pointer: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every entry of `tools`, and those inside an OpenAI Responses namespace."""
    for i, entry in enumerate(entries):
        if not is_mapping(entry):
            continue
        entry_pointer = join_pointer(pointer, i)
        yield entry_pointer, entry
        if entry.get("type") == "namespace" and isinstance(entry.get("tools"), list):
            yield from _entries(entry["tools"], join_pointer(entry_pointer, "tools"))


def _is_deferred(entry: Mapping[str, Any]) -> bool:
    """`defer_loading: true`, or an Anthropic `mcp_toolset` whose `default_config` defers every tool (one
    that keeps some tools loaded through `configs` is an entry point, not deferred)."""
    if any(entry.get(key) is True for key in _DEFER_KEYS):
        return True
    default = entry.get("default_config")
    if not is_mapping(default) or default.get("defer_loading") is not True:
        return False
    configs = entry.get("configs")
    overrides = configs.values() if is_mapping(configs) else ()
    return not any(is_mapping(c) and c.get("defer_loading") is False for c in overrides)


def _is_search_tool(entry: Mapping[str, Any]) -> bool:
    """A provider's search tool (Anthropic `tool_search_tool_regex_*`/`_bm25_*`, OpenAI `tool_search`), or a
    client-side function whose name says it finds tools."""
    kind = entry.get("type")
    if isinstance(kind, str) and kind.startswith("tool_search"):
        return True
    name = _function_part(entry, "")[0].get("name")
    words = set(split_name(name)) if isinstance(name, str) else set()
    return bool(words & _SEARCH_VERBS and words & _SEARCHED)


def _api(body: Mapping[str, Any], tools: Sequence[Tool]) -> Dialect:
    if tools:
        return tools[0].dialect
    if "input" in body or "instructions" in body:
        return Dialect.OPENAI_RESPONSES
    if "contents" in body or any(key in body for key in _GEMINI_CONFIG_KEYS):
        return Dialect.GEMINI
    if "system" in body or any(
        is_mapping(e) and str(e.get("type", "")).startswith("tool_search_tool") for e in body["tools"]
    ):
        return Dialect.ANTHROPIC
    return Dialect.OPENAI_CHAT


def _read_choice(body: Mapping[str, Any], pointer: str, request: Request) -> None:
    if "parallel_tool_calls" in body and isinstance(body["parallel_tool_calls"], bool):
        request.parallel_calls = body["parallel_tool_calls"]
        request.parallel_pointer = join_pointer(pointer, "parallel_tool_calls")
    choice = body.get("tool_choice")
    choice_pointer = join_pointer(pointer, "tool_choice")
    if isinstance(choice, str):
        mode = {"any": "required", "tool": "named"}.get(choice, choice)
        request.tool_choice = ToolChoice(mode, choice_pointer)
    elif is_mapping(choice):
        request.tool_choice = _mapped_choice(choice, choice_pointer)
        disable = choice.get("disable_parallel_tool_use")
        if isinstance(disable, bool):
            request.parallel_calls = not disable
            request.parallel_pointer = join_pointer(choice_pointer, "disable_parallel_tool_use")
    for key in _GEMINI_CONFIG_KEYS:
        config = body.get(key)
        if is_mapping(config):
            request.tool_choice = _gemini_choice(config, join_pointer(pointer, key)) or request.tool_choice


def _mapped_choice(choice: Mapping[str, Any], pointer: str) -> ToolChoice | None:
    kind = choice.get("type")
    if kind == "function":
        return _named(*_function_part(choice, pointer), pointer)
    if kind == "tool":  # Anthropic
        return _named(choice, pointer, pointer)
    if kind == "allowed_tools":  # OpenAI: Chat nests the list under `allowed_tools`, Responses does not
        holder, holder_pointer = choice, pointer
        if is_mapping(choice.get("allowed_tools")):
            holder, holder_pointer = choice["allowed_tools"], join_pointer(pointer, "allowed_tools")
        listed = holder.get("tools")
        names: list[tuple[str, str]] = []
        if isinstance(listed, list):
            for i, item in enumerate(listed):
                if is_mapping(item):
                    part, part_pointer = _function_part(item, join_pointer(holder_pointer, "tools", i))
                    if isinstance(part.get("name"), str):
                        names.append((part["name"], join_pointer(part_pointer, "name")))
        return ToolChoice("named", pointer, tuple(names))
    if kind in ("auto", "none", "any", "required"):
        return ToolChoice("required" if kind == "any" else kind, pointer)
    return None  # a hosted tool (`{"type": "file_search"}`): not a function of the set


def _function_part(holder: Mapping[str, Any], pointer: str) -> tuple[Mapping[str, Any], str]:
    """Where a function's name is: OpenAI Chat nests it under `function`, Responses and Anthropic do not."""
    function = holder.get("function")
    if is_mapping(function):
        return function, join_pointer(pointer, "function")
    return holder, pointer


def _named(holder: Mapping[str, Any], holder_pointer: str, pointer: str) -> ToolChoice | None:
    name = holder.get("name")
    if not isinstance(name, str):
        return None
    return ToolChoice("named", pointer, ((name, join_pointer(holder_pointer, "name")),))


def _gemini_choice(config: Mapping[str, Any], pointer: str) -> ToolChoice | None:
    for key in _CALLING_CONFIG_KEYS:
        calling = config.get(key)
        if not is_mapping(calling):
            continue
        calling_pointer = join_pointer(pointer, key)
        mode = calling.get("mode")
        mode_text = mode.lower() if isinstance(mode, str) else "auto"
        names: list[tuple[str, str]] = []
        for names_key in _ALLOWED_NAMES_KEYS:
            listed = calling.get(names_key)
            if isinstance(listed, list):
                names.extend(
                    (name, join_pointer(calling_pointer, names_key, i))
                    for i, name in enumerate(listed)
                    if isinstance(name, str)
                )
        if mode_text == "none":
            return ToolChoice("none", join_pointer(calling_pointer, "mode"))
        if names:
            return ToolChoice("named", calling_pointer, tuple(names))
        # VALIDATED lets the model answer in text too: only ANY forces a call
        return ToolChoice("required" if mode_text == "any" else "auto", calling_pointer)
    return None
