"""Recorded tool calls checked against the current tool definitions (`schemalint calls LOG --tools PATHS`).

A log is JSON Lines, one model response per line, in any of these shapes:
- the trace fields the guide asks teams to log (`trace_id`, `step`, `tools_hash`, `finish_reason`,
  `tool_calls: [{name, arguments | args, result?}]`, or the Chat API's `{function: {name, arguments}}`
  items in that list);
- an OpenAI Chat completion (`choices[].message.tool_calls[].function`), an OpenAI Responses object
  (`output[]` items of type `function_call`), an Anthropic message (`content[]` blocks of type
  `tool_use`), a Gemini response (`candidates[].content.parts[].functionCall`).

What is reported: a call to a name the set does not have (a hallucinated or stale tool), arguments
that are not JSON or do not validate (the failing field's pointer and the keyword), a `tools_hash`
other than the current definitions', a response cut off by the token limit before any call, and the
same call with the same result repeated (a stuck loop). The log is read line by line: memory stays
flat however long it is.
"""

from __future__ import annotations

import json
from collections import Counter, OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from schemalint.model import JSON, Tool, is_mapping, join_pointer
from schemalint.schema_facts import arguments_validator
from schemalint.tools_hash import digest, sent_definition, tools_hash

#: how many identical calls in a row (same tool, arguments and result, within one trace) make a loop
LOOP_LENGTH = 3
#: traces whose last call is remembered for loop detection; the oldest is forgotten past this
_TRACES_REMEMBERED = 10_000
_TRUNCATED = frozenset({"length", "max_tokens", "max_output_tokens", "MAX_TOKENS"})
_ABSENT = object()
_NOT_JSON = object()


@dataclass(frozen=True)
class Call:
    name: str | None
    #: the arguments as logged: an object, a JSON text, or _ABSENT when the log has none
    arguments: Any
    result: JSON = None


@dataclass(frozen=True)
class Response:
    calls: tuple[Call, ...]
    truncated: bool
    tools_hash: str | None
    trace: str | None


@dataclass(frozen=True)
class Problem:
    line: int
    kind: str
    message: str
    tool: str | None = None
    #: for invalid arguments: the JSON pointer of the failing argument and the schema keyword
    pointer: str | None = None
    keyword: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass
class ToolUse:
    calls: int = 0
    invalid: int = 0
    failing_fields: Counter[str] = field(default_factory=Counter)

    def to_json(self) -> dict[str, Any]:
        rate = self.invalid / self.calls if self.calls else 0.0
        top = [{"pointer": p, "count": n} for p, n in self.failing_fields.most_common(3)]
        return {"calls": self.calls, "invalid": self.invalid, "invalid_rate": round(rate, 4), "top_failing": top}


@dataclass
class CallsReport:
    tools_hash: str
    responses: int = 0
    problems: list[Problem] = field(default_factory=list)
    tools: dict[str, ToolUse] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "tools_hash": self.tools_hash,
            "responses": self.responses,
            "problems": [p.to_json() for p in self.problems],
            "tools": {name: use.to_json() for name, use in self.tools.items()},
        }


def check_calls(lines: Iterable[str], tools: Sequence[Tool]) -> CallsReport:
    """Read a JSON Lines log against `tools` (pure: the caller opens the file)."""
    definitions = {tool.name: sent_definition(tool) for tool in tools if tool.name}
    report = CallsReport(tools_hash(tools), tools={name: ToolUse() for name in definitions})
    validators: dict[str, Any] = {}
    hashes_seen: set[str] = set()
    last_calls: OrderedDict[str | None, tuple[str, int]] = OrderedDict()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as error:
            report.problems.append(Problem(number, "unreadable-line", f"not JSON: {error}"))
            continue
        response = read_response(record)
        if response is None:
            report.problems.append(Problem(number, "unreadable-line", "no tool calls or response fields found"))
            continue
        report.responses += 1
        if response.tools_hash and response.tools_hash != report.tools_hash and response.tools_hash not in hashes_seen:
            hashes_seen.add(response.tools_hash)
            report.problems.append(
                Problem(
                    number,
                    "tools-hash-changed",
                    f"logged with tools_hash {response.tools_hash}, the current definitions are {report.tools_hash}: "
                    "these calls were made with other tools (further lines with this hash are not repeated)",
                )
            )
        if response.truncated and not response.calls:
            report.problems.append(
                Problem(number, "truncated-before-call", "the response hit the token limit before any tool call")
            )
        for call in response.calls:
            arguments = _decoded(call.arguments)
            report.problems.extend(_check_call(number, call, arguments, definitions, validators, report.tools))
            loop = _repeated(number, call, arguments, response.trace, last_calls)
            if loop:
                report.problems.append(loop)
    return report


def _decoded(arguments: Any) -> Any:
    """Arguments logged as a JSON text (OpenAI) decoded; _NOT_JSON when they are not JSON."""
    if not isinstance(arguments, str):
        return arguments
    try:
        return json.loads(arguments) if arguments.strip() else {}
    except ValueError:
        return _NOT_JSON


def _check_call(
    number: int,
    call: Call,
    arguments: Any,
    definitions: Mapping[str, dict[str, JSON]],
    validators: dict[str, Any],
    uses: dict[str, ToolUse],
) -> Iterator[Problem]:
    if call.name is None or call.name not in definitions:
        yield Problem(number, "unknown-tool", f"called `{call.name}`, which is not in the tool set", call.name)
        return
    use = uses[call.name]
    use.calls += 1
    if arguments is _ABSENT:
        return
    if arguments is _NOT_JSON:
        use.invalid += 1
        use.failing_fields["/"] += 1
        yield Problem(number, "invalid-arguments", f"`{call.name}`: the arguments are not JSON", call.name, "/")
        return
    if call.name not in validators:
        validators[call.name] = arguments_validator(definitions[call.name]["parameters"])
    errors = sorted(validators[call.name].iter_errors(arguments), key=lambda e: list(e.absolute_path))
    if errors:
        use.invalid += 1
    for error in errors:
        pointer = join_pointer("", *error.absolute_path) or "/"
        use.failing_fields[pointer] += 1
        yield Problem(
            number,
            "invalid-arguments",
            f"`{call.name}` {pointer}: {error.message} ({error.validator})",
            call.name,
            pointer,
            str(error.validator),
        )


def _repeated(
    number: int, call: Call, arguments: Any, trace: str | None, last_calls: OrderedDict[str | None, tuple[str, int]]
) -> Problem | None:
    logged = call.arguments if arguments is _ABSENT or arguments is _NOT_JSON else arguments
    signature = digest([call.name, None if logged is _ABSENT else logged, call.result])
    previous, count = last_calls.pop(trace, ("", 0))
    count = count + 1 if previous == signature else 1
    last_calls[trace] = (signature, count)
    if len(last_calls) > _TRACES_REMEMBERED:
        last_calls.popitem(last=False)
    if count != LOOP_LENGTH:
        return None
    where = f" in trace {trace}" if trace else ""
    return Problem(
        number,
        "repeated-call",
        f"`{call.name}` called {LOOP_LENGTH} times in a row{where} with the same arguments and result: "
        "a stuck loop (give the result a hint for the next step, or stop the loop)",
        call.name,
    )


@dataclass(frozen=True)
class _Alternatives:
    """The keys of a response made of alternatives (OpenAI Chat's choices, Gemini's candidates), each
    with its finish reason and a body whose list holds the function calls."""

    finish: str
    body: str
    items: str
    function: str
    arguments: str

    def response(self, alternatives: list[Any], logged_hash: str | None, trace: str | None) -> Response:
        calls: list[Call] = []
        truncated = False
        for alternative in alternatives:
            if not is_mapping(alternative):
                continue
            truncated |= alternative.get(self.finish) in _TRUNCATED
            body = alternative.get(self.body)
            for item in (body.get(self.items) if is_mapping(body) else None) or ():
                function = item.get(self.function) if is_mapping(item) else None
                if is_mapping(function):
                    calls.append(Call(function.get("name"), function.get(self.arguments, _ABSENT)))
        return Response(tuple(calls), truncated, logged_hash, trace)


_CHAT_CHOICES = _Alternatives("finish_reason", "message", "tool_calls", "function", "arguments")
_GEMINI_CANDIDATES = _Alternatives("finishReason", "content", "parts", "functionCall", "args")


def read_response(record: JSON) -> Response | None:
    """One log line as the calls it holds, in whichever of the shapes above it has; None for none of them."""
    if not is_mapping(record):
        return None
    trace = record.get("trace_id")
    trace = str(trace) if trace is not None else None
    logged_hash = record.get("tools_hash") if isinstance(record.get("tools_hash"), str) else None
    finish = record.get("finish_reason")
    if isinstance(record.get("tool_calls"), list) or "finish_reason" in record:
        calls = tuple(_trace_call(c) for c in record.get("tool_calls") or () if is_mapping(c))
        return Response(calls, finish in _TRUNCATED, logged_hash, trace)
    if isinstance(record.get("choices"), list):  # OpenAI Chat
        return _CHAT_CHOICES.response(record["choices"], logged_hash, trace)
    if isinstance(record.get("output"), list):  # OpenAI Responses
        details = record.get("incomplete_details")
        truncated = is_mapping(details) and details.get("reason") in _TRUNCATED
        return Response(_typed_calls(record["output"], "function_call", "arguments"), truncated, logged_hash, trace)
    if isinstance(record.get("content"), list) and "stop_reason" in record:  # Anthropic
        calls = _typed_calls(record["content"], "tool_use", "input")
        return Response(calls, record.get("stop_reason") in _TRUNCATED, logged_hash, trace)
    if isinstance(record.get("candidates"), list):  # Gemini
        return _GEMINI_CANDIDATES.response(record["candidates"], logged_hash, trace)
    return None


def _typed_calls(items: list[Any], kind: str, arguments: str) -> tuple[Call, ...]:
    """The calls among Responses output items or Anthropic content blocks: the items of type `kind`."""
    return tuple(
        Call(i.get("name"), i.get(arguments, _ABSENT)) for i in items if is_mapping(i) and i.get("type") == kind
    )


def _trace_call(call: Mapping[str, Any]) -> Call:
    function = call.get("function")
    if "name" not in call and is_mapping(function):  # the Chat API's own shape, logged from message.tool_calls
        return Call(function.get("name"), function.get("arguments", _ABSENT), call.get("result"))
    arguments = call.get("arguments", call.get("args", _ABSENT))
    return Call(call.get("name"), arguments, call.get("result"))
