from schemalint.model import Severity
from schemalint.rules.base import ChangeRule


class ConstraintTightened(ChangeRule):
    """
    ## What it does
    Reported by `schemalint diff`: an input schema accepts less than before without a type change.
    Checked: `maximum`, `exclusiveMaximum`, `maxLength`, `maxItems`, `maxProperties` added or lowered;
    `minimum`, `exclusiveMinimum`, `minLength`, `minItems`, `minProperties` added or raised; `pattern`,
    `format`, `multipleOf` added or changed (a changed pattern cannot be proven wider, so it counts);
    `uniqueItems` turned on; an `enum` added to a free parameter; `additionalProperties` (or
    `unevaluatedProperties`) turned to `false`. Relaxing any of these is not reported, and neither is
    an added bound of ±(2^53 - 1), the safe-integer range zod's `.int()` writes: no call sends more.

    Conditions are checked by example: an `allOf` part, a `not`, an `if`/`then`/`else`, a
    `dependentRequired` or `dependentSchemas` entry that was added or changed is reported when a value
    the old schema accepts fails it (the message quotes the value and the failing keyword). Dropping
    an `allOf` part, a `not` or a dependency, or shortening a `dependentRequired` list, is a loosening
    and is not reported. A changed condition for which no rejected value was found is a **warning**
    ("no proof"): examples cannot prove that every old call still passes.

    ## Why is this bad?
    Calls that were valid (a 200-character title, a page size of 100, an extra key) are now
    rejected, and nothing in the call site changed.

    ## Example
    `"maxLength": 50` where the old schema had `"maxLength": 200`, or no limit.

    ## Use instead
    Tighten in a breaking release, or clamp/truncate on the server and document the limit.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.ERROR
    summary = "maximum/minimum/maxLength/maxItems/pattern/format added or tightened"
