from schemalint.model import Severity
from schemalint.rules.base import ChangeRule


class ParameterTypeChanged(ChangeRule):
    """
    ## What it does
    Reported by `schemalint diff`: a parameter's `type` changed so that values the old schema
    accepted are now rejected (`string` -> `integer`, `[string, null]` -> `string`, untyped -> typed),
    or an `anyOf`/`oneOf` was added or changed so that an old call matches none of the alternatives
    (a free object that became a `oneOf` of closed objects; array items that must now carry one of two
    keys), or, for `oneOf`, more than one. Alternatives are paired by type and shared properties, not
    by position: reordering them is not a change, and an edited alternative is compared with its
    counterpart. A break is shown by example: the message quotes a value the old schema accepts and
    the new one rejects (checked with jsonschema), and says which alternative test it fails.
    A nullable union (`anyOf: [T, {type: null}]`) and `type: [T, "null"]` are the same type here.

    Adding an alternative is a loosening and is not reported, unless a value the old schema accepted
    now matches two `oneOf` alternatives (then it is a break, with that value). Where the union
    changed and no rejected value was found, but the change is not provably a loosening either, the
    finding is a **warning** ("no proof") rather than an error.

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

    severity = Severity.ERROR
    summary = "a parameter's type changed"
