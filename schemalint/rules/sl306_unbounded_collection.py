from __future__ import annotations

import re
from collections.abc import Iterable

from schemalint.diagnostics import Finding, Fix, PatchOperation
from schemalint.lazy_pattern import LazyPattern
from schemalint.model import SchemaNode, Severity, join_pointer
from schemalint.rules.base import LintContext, NodeRule, Nodes, rule_options

#: Names of a parameter that sets how many results come back.
RESULT_COUNT_NAMES = frozenset(
    "limit page_size per_page top_k top_n max_results num_results n_results max_items max_count max_records "
    "max_rows max_hits results_per_page max_entries".split()
)
#: Names that are a result count only when the description talks about results (`n` of a factorial is not).
AMBIGUOUS_COUNT_NAMES = frozenset("count size n k num batch_size number".split())
_ABOUT_RESULTS = LazyPattern(
    r"\b(?:return(?:ed|s)?|results?|records?|items?|entries|rows|page|per\s+page|fetch(?:ed)?|retriev\w*|list(?:ed)?)\b"
    r"|返回|结果|条数|每页",
    re.IGNORECASE,
)
_STATED_MAXIMUM = LazyPattern(
    r"\bmax(?:imum)?\b\s*(?:is|of|:|=)?\s*\d|\bup\s+to\s+\d|\bat\s+most\s+\d|\b\d+\s+max(?:imum)?\b|\bno\s+more\s+than\s+\d"
    r"|\bbetween\s+\d+\s+and\s+\d+|\b\d+\s*(?:-|to)\s*\d+\b|\b(?:is|as)\s+the\s+max(?:imum)?\b|最多|最大|不超过|上限",
    re.IGNORECASE,
)


@rule_options
class Options:
    extend_count_names: tuple[str, ...] = ()
    """Extra parameter names (snake_case) that set a result count."""
    check_arrays: bool = True
    """Also report array parameters without `maxItems` (at info severity)."""
    fix_max_items: int = 100
    """The `maxItems` the unsafe fix adds to an array (raised to its `minItems` when that is larger)."""


class UnboundedCollection(NodeRule):
    """
    ## What it does
    Flags an integer parameter that sets how many results come back (`limit`,
    `page_size`/`pageSize`, `per_page`, `top_k`, `max_results`...; `count`, `size`, `n`, `k`
    only when the description talks about results) without a `maximum`, and,
    at info severity, an array parameter without `maxItems`. A maximum stated in the
    description ("max 100", "up to 50", "1-100", "最多 100") is accepted.

    ## Why is this bad?
    Without a bound the model will sooner or later ask for 10,000 rows, and the result blows the
    context window or the latency budget. A `default` tells it what a normal request looks like.

    ## Example
    ```json
    {"limit": {"type": "integer", "description": "How many orders to return."}}
    ```

    ## Use instead
    ```json
    {"limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20}}
    ```

    ## Severity
    Warning for a result count without a maximum; info for an array without `maxItems` (a long
    input array is rarely what blows the budget, but the bound documents the expectation).

    ## Trade-off
    A maximum written only in the description is accepted, although only a schema `maximum` is
    enforced by strict modes and validators. The message mentions a missing `default` but a
    default alone does not satisfy the rule.

    ## Fix safety
    Unsafe, for arrays only: adds `"maxItems": 100` (the `fix-max-items` option; at least the
    array's `minItems`), applied with `--fix --unsafe-fixes`. Calls with more items stop
    validating, and whether 100 suits the backend only its owner knows: read the change before
    committing it. A result count gets no fix: its `maximum` is the backend's page limit, which
    the schema cannot tell.
    """

    severity = Severity.WARNING
    summary = "limit/count/page_size/top_k/max_results without maximum; array without maxItems"
    fixable = ("unsafe",)
    nodes = Nodes.NAMED_PROPERTIES
    types = frozenset({"integer", "number", "array"})
    Options = Options

    def check(self, node: SchemaNode, context: LintContext) -> Iterable[Finding]:
        schema, types, description = node.schema, node.types, node.description
        if types & {"integer", "number"}:
            name = "_".join(node.words)
            if name in AMBIGUOUS_COUNT_NAMES:
                if not _ABOUT_RESULTS.search(description):
                    return
            elif name not in RESULT_COUNT_NAMES and name not in self.options.extend_count_names:
                return
            if "maximum" in schema or "exclusiveMaximum" in schema or "enum" in schema or "const" in schema:
                return
            if _STATED_MAXIMUM.search(description):
                return
            hint = "" if "default" in schema else " and a `default`"
            yield Finding(
                f"`{node.property_name}` sets how many results come back but has no `maximum`; add one{hint}",
                node.pointer,
                key=True,
                data={"parameter": node.property_name, "has_default": "default" in schema},
            )
        elif types == {"array"} and self.options.check_arrays:
            if "maxItems" in schema or _STATED_MAXIMUM.search(description):
                return
            yield Finding(
                f"array `{node.property_name}` has no `maxItems`; bound how many items the model may send",
                node.pointer,
                key=True,
                severity=Severity.INFO,
                data={"parameter": node.property_name},
                fix=self._max_items_fix(node.pointer, schema.get("minItems")),
            )

    def _max_items_fix(self, pointer: str, min_items: object) -> Fix:
        bound = self.options.fix_max_items
        if isinstance(min_items, int) and not isinstance(min_items, bool):
            bound = max(bound, min_items)
        return Fix(
            f"add `maxItems: {bound}`", (PatchOperation("add", join_pointer(pointer, "maxItems"), bound),), safe=False
        )
