from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property

from schemalint.diagnostics import Finding
from schemalint.model import JSON, SchemaNode, Severity, split_pointer
from schemalint.rules.base import LintContext, NodeRule, Nodes, rule_options, vocabulary
from schemalint.text import description_of, properties_of, sibling_names, split_name, text_units, words_in

VAGUE_WORDS = tuple(
    """
    data input inputs value values val params param parameters args arg arguments kwargs payload obj
    object info information item stuff thing misc foo bar baz tmp
    """.split()
)

#: A vague name is the domain's own word when a sibling supplies the context: `value` beside `key`,
#: `params` beside `url`. Maps vague words to sibling words that excuse them.
_CONTEXT_SIBLINGS = {
    frozenset({"value", "values", "val"}): frozenset(
        "key keys id name field attribute attr property prop header cookie unit units from to variable var setting "
        "time date category group series x "
        "option label tag column columns rows path selector element operator default".split()
    ),
    frozenset({"params", "param", "parameters", "data", "payload", "args", "arg", "arguments", "kwargs"}): frozenset(
        "url uri endpoint path method headers function func callback command coroutine target procedure sql query "
        "statement component template job".split()
    ),
    frozenset({"input", "inputs"}): frozenset(
        "workflow job pipeline process pid command script function output out".split()
    ),
}

#: Tool-name words of a chart or a statistic, whose `data` (the points plotted or summarised) is the domain's word.
_DATA_TOOL_WORDS = frozenset(
    "chart charts plot graph diagram histogram heatmap sparkline statistics stats mean median average deviation "
    "variance percentile quantile correlation regression".split()
)
_DATA_WORDS = frozenset(("data", "values"))

#: Holder words that name no subject: `response.data` is as vague as `data`.
_GENERIC_HOLDER_WORDS = frozenset(
    "request response body content options option config configuration settings meta metadata extra extras context "
    "details detail attributes properties fields entry entries record records result results items".split()
)

#: One-letter names that are a convention where they stand: coordinates or operands beside each other (`x`
#: and `y`, `a` and `b`), and `q`, the query of a search.
_LETTER_GROUPS = (frozenset("xyz"), frozenset("ab"))
_SEARCH_WORDS = frozenset(("search", "query", "find", "lookup"))


def _excused_by_siblings(name_words: tuple[str, ...], siblings: list[str]) -> bool:
    sibling_words = {w for sibling in siblings for w in split_name(sibling)}
    for vague, context in _CONTEXT_SIBLINGS.items():
        if all(w in vague for w in name_words) and sibling_words & context:
            return True
    return False


def _is_single_letter(name: str) -> bool:
    return len(name) == 1 and name.isalpha()


def _conventional_letter(name: str, siblings: list[str], node: SchemaNode) -> bool:
    """`x` beside `y` (a point), `a` beside `b` (operands), `q` in a search tool (the query, as in most
    search APIs)."""
    letter = name.lower()
    for group in _LETTER_GROUPS:
        if letter in group:
            return any(sibling.lower() in group for sibling in siblings)
    return letter == "q" and not _SEARCH_WORDS.isdisjoint(split_name(node.tool.name))


def _holder_name(node: SchemaNode) -> str | None:
    """The name of what holds this property: the property (or `$defs` entry) whose object it sits in,
    through array items and composition branches; None at the top level, where the tool holds it."""
    holder = node.parent
    while holder is not None:
        if holder.is_property:
            return holder.property_name
        if holder.via in ("$defs", "definitions"):
            return split_pointer(holder.pointer)[-1]
        holder = holder.parent
    return None


def _is_documented(schema: JSON) -> bool:
    """A description of a few words, or an object whose properties spell out what goes in."""
    if text_units(description_of(schema)) >= 3:
        return True
    if isinstance(schema, dict) and text_units(description_of(schema.get("items"))) >= 3:
        return True
    return bool(properties_of(schema))


@rule_options
class Options:
    vague_words: tuple[str, ...] = VAGUE_WORDS
    """Words that say nothing about what a parameter holds (replaces the default list)."""
    extend_vague_words: tuple[str, ...] = ()
    """Words added to `vague-words`."""
    allow_described_single_letters: bool = True
    """Accept a one-letter name (`x`, `n`) when the property has a description."""


class VagueParameterName(NodeRule):
    """
    ## What it does
    Flags a property named only with vague words (`data`, `input`, `value`, `params`, `args`,
    `payload`, `obj`, `input_data`) and one-letter names (`x`) that have no description.

    ## Why is this bad?
    The property name is how the model decides what to put where. `data` tells it nothing, so it
    falls back to guessing from the description, or stuffs the whole request into the field.

    ## Example
    ```json
    {"type": "object", "properties": {"data": {"type": "string"}}}
    ```

    ## Use instead
    ```json
    {"type": "object", "properties": {"order_id": {"type": "string", "description": "..."}}}
    ```

    ## Severity
    Warning when the vague name is all the model gets (no description of three words or more,
    no properties that spell out the contents); info when a description carries the meaning.

    ## Trade-off
    Only names made *entirely* of vague words are flagged: `user_data` names its subject and
    passes, and so does `user.data` or `users[].value`: a nested name is read with the property
    (or `$defs` entry) that holds it, unless that one names nothing either (`request.data`,
    `items[].item`). A vague name is excused where it is the domain's own word: `value` beside
    `key`/`id`/`name`/`unit`/`default`, a data point's `time`/`category`/`x`, a form's
    `selector`/`element` or a filter's `operator`, `params`/`data` beside
    `url`/`endpoint`/`function`/`sql`/`template`, `input` beside a `job`/`process`/`output` (the
    key-value, data-point, form, filter, HTTP, call-forwarding and bound-query idioms), the
    described `data` of a chart or statistics tool (`render_bar_chart`, `rolling_median`), and a
    described name that is the only parameter of its object. One-letter names are often a domain
    convention (coordinates, formulas), so by default a description is enough to excuse them, and
    so is a sibling of the same kind (`x` beside `y`, `a` beside `b`) or `q` in a search tool.

    ## Fix safety
    No automatic fix: renaming a parameter breaks callers.
    """

    severity = Severity.WARNING
    summary = "a parameter is named data, input, value, params, args, payload, obj, or one letter"
    nodes = Nodes.PROPERTIES
    Options = Options

    vague_words = vocabulary("vague_words", "extend_vague_words")

    @cached_property
    def _unnaming_holder_words(self) -> frozenset[str]:
        return self.vague_words | _GENERIC_HOLDER_WORDS

    def applies_to_name(self, name: str) -> bool:
        return _is_single_letter(name) or words_in(split_name(name), self.vague_words)

    def _named_by_holder(self, node: SchemaNode) -> bool:
        """`position.x`, `emails[].value`: the path reads as a specific name, as `email_value` would."""
        holder = _holder_name(node)
        if holder is None:
            return False
        return not self._unnaming_holder_words.issuperset(split_name(holder))

    def check(self, node: SchemaNode, context: LintContext) -> Iterable[Finding]:
        name = node.property_name or ""
        if _is_single_letter(name):
            if self.options.allow_described_single_letters and node.description.strip():
                return
            if _conventional_letter(name, sibling_names(node), node):
                return
            problem = "is a single letter with no description"
        else:
            siblings = sibling_names(node)
            documented = _is_documented(node.schema)
            words = split_name(name)
            if _excused_by_siblings(words, siblings) or (documented and not siblings) or self._named_by_holder(node):
                return
            if (
                documented
                and _DATA_WORDS.issuperset(words)
                and not _DATA_TOOL_WORDS.isdisjoint(split_name(node.tool.name))
            ):
                return
            if documented:
                yield Finding(
                    f"parameter name `{name}` is vague (its description carries the meaning); a specific name "
                    f"such as `order_id` or `search_text` is matched more reliably",
                    node.pointer,
                    key=True,
                    severity=Severity.INFO,
                    data={"name": name, "documented": True},
                )
                return
            problem = "says nothing about what it holds and has no description to make up for it"
        yield Finding(
            f"parameter name `{name}` {problem}; name what it holds (e.g. `order_id`, `search_text`)",
            node.pointer,
            key=True,
            data={"name": name, "documented": False},
        )
