from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from schemalint.diagnostics import Finding
from schemalint.dialects.gemini import parameters_as_json_schema
from schemalint.model import EvalFixture, Severity, Tool, is_mapping, join_pointer
from schemalint.rules.base import FixtureRule, LintContext
from schemalint.schema_facts import arguments_validator


class EvalInvalidArguments(FixtureRule):
    """
    ## What it does
    Validates each eval case's expected `args` against the parameters of the tool it expects (with
    jsonschema, draft 2020-12 unless the schema names another), and flags every argument that does
    not validate at its JSON pointer in the fixture, with the failing keyword. Missing required
    arguments are not reported: fixtures often list only the arguments the eval compares.

    ## Why is this bad?
    A model that follows the schema cannot produce these arguments (with strict mode it is
    guaranteed not to), so the case fails for the fixture's sake, or passes only when the model
    breaks the schema. Either way the eval measures the wrong thing. It is what a type change, a
    narrowed enum or a renamed parameter leaves behind in fixtures nobody re-ran. An error, not a
    warning: unlike a style finding, the fixture and the tool contradict each other.

    ## Example
    ```json
    {"tools": ["get_order"], "cases": [{"input": "Where is A1024?", "expect": {"tool": "get_order", "args": {"order_id": 1024}}}]}
    ```
    with `get_order`'s `order_id` declared `{"type": "string"}`.

    ## Use instead
    ```json
    {"tools": ["get_order"], "cases": [{"input": "Where is A1024?", "expect": {"tool": "get_order", "args": {"order_id": "A1024"}}}]}
    ```

    ## Trade-off
    Only cases whose tool is in the linked definitions are validated (see SL811 for the link).
    A schema jsonschema cannot evaluate (an unresolvable `$ref`, an invalid keyword) is skipped:
    SL308 and SL309 report it.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.ERROR
    summary = "an eval case's expected arguments do not validate against the tool's schema"

    def check(self, fixture: EvalFixture, context: LintContext) -> Iterable[Finding]:
        tools: dict[str | None, Tool] = {}
        for tool in fixture.tools or ():
            tools.setdefault(tool.name, tool)
        validators: dict[str, Any] = {}
        for case in fixture.cases:
            if case.tool is None or case.tool not in tools or case.args_pointer is None:
                continue
            if case.tool not in validators:
                validators[case.tool] = arguments_validator(parameters_as_json_schema(tools[case.tool]))
            for place, is_key, error in _errors(validators[case.tool], case.args, case.args_pointer):
                shown = place[len(case.args_pointer) :] or "/"
                yield Finding(
                    f"the expected arguments of `{case.tool}` do not validate at {shown}: {error.message} "
                    f"({error.validator})",
                    place,
                    key=is_key,
                    data={"tool": case.tool, "keyword": str(error.validator)},
                )


def _errors(validator: Any, args: Any, pointer: str) -> list[tuple[str, bool, Any]]:
    """(place, at a key, error) of each way `args` fails but a missing `required` argument, in path order;
    none when jsonschema cannot run the schema (a broken schema is SL308's and SL309's to report)."""
    try:
        errors = sorted(validator.iter_errors(args), key=lambda e: [str(p) for p in e.absolute_path])
    except Exception:
        return []
    return [
        (place, is_key, error)
        for error in errors
        if error.validator != "required"
        for place, is_key in _places(error, join_pointer(pointer, *error.absolute_path))
    ]


def _places(error: Any, pointer: str) -> list[tuple[str, bool]]:
    """Where an error is: the value that fails, or each argument `additionalProperties` refuses (at its key)."""
    if error.validator == "additionalProperties" and is_mapping(error.instance) and is_mapping(error.schema):
        known = error.schema.get("properties")
        extra = [name for name in error.instance if not (is_mapping(known) and name in known)]
        if extra and not error.schema.get("patternProperties"):
            return [(join_pointer(pointer, name), True) for name in extra]
    return [(pointer, False)]
