from __future__ import annotations

from schemalint.model import Severity
from schemalint.rules.base import EngineRule, Scope


class ParameterTypeChanged(EngineRule):
    """
    ## What it does
    Reported by `schemalint diff`: a parameter's `type` changed so that values the old schema
    accepted are now rejected (`string` -> `integer`, `[string, null]` -> `string`, untyped -> typed),
    or the alternatives of an `anyOf`/`oneOf` changed so that an old call may match none.
    A nullable union (`anyOf: [T, {type: null}]`) and `type: [T, "null"]` are the same type here.

    A pure widening (`integer` -> `number`, `string` -> `[string, null]`, alternatives only added)
    rejects nothing: it is reported at **info** severity, with "not breaking" in the message, so a
    gate with `--fail-on error` passes while the change stays visible.

    ## Why is this bad?
    Existing callers send the old type and are rejected; the model, shown the new type, may also
    start sending values the server did not expect before.

    ## Example
    ```json
    {"properties": {"issue_number": {"type": "string"}}}
    ```
    where the old schema had `"type": "integer"`.

    ## Use instead
    Add a new parameter with the new type and deprecate the old one, or widen (accept both).

    ## Fix safety
    No automatic fix.
    """

    code = "SL904"
    slug = "parameter-type-changed"
    scope = Scope.CHANGE
    severity = Severity.ERROR
    summary = "a parameter's type changed"
