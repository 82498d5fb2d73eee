from schemalint.model import Severity
from schemalint.rules.base import ChangeRule


class RequiredParameterAdded(ChangeRule):
    """
    ## What it does
    Reported by `schemalint diff`: the new input schema has a parameter, at any level (nested
    objects, array items, `$ref` targets, nullable unions), that is required and did not exist
    before; or `required` now names a key the old schema did not know.

    ## Why is this bad?
    Every call the old schema accepted omits it, so the server rejects them: cached plans, few-shot
    examples, other agents and replayed conversations all break. The model may also invent a value
    when it has nothing to put there.

    ## Example
    ```json
    {"properties": {"city": {"type": "string"}, "country": {"type": "string"}},
     "required": ["city", "country"]}
    ```
    where the old schema had only `city`.

    ## Use instead
    Add it as optional with a documented `default`, and make it required in a breaking release.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.ERROR
    summary = "a new required parameter"
