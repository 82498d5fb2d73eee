from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import JSON, SchemaNode, Severity
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
        "option label tag column path".split()
    ),
    frozenset({"params", "param", "parameters", "data", "payload", "args", "arg", "arguments", "kwargs"}): frozenset(
        "url uri endpoint path method headers function func callback command coroutine target procedure sql query "
        "statement".split()
    ),
}


def _excused_by_siblings(name_words: tuple[str, ...], siblings: list[str]) -> bool:
    sibling_words = {w for sibling in siblings for w in split_name(sibling)}
    for vague, context in _CONTEXT_SIBLINGS.items():
        if all(w in vague for w in name_words) and sibling_words & context:
            return True
    return False


def _is_single_letter(name: str) -> bool:
    return len(name) == 1 and name.isalpha()


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
    passes. A vague name is excused where it is the domain's own word: `value` beside
    `key`/`id`/`name`/`unit` or a data point's `time`/`category`/`x`, `params`/`data` beside
    `url`/`endpoint`/`function`/`sql` (the key-value, data-point, HTTP, call-forwarding and
    bound-query idioms), and a described name that is the only parameter of its object. One-letter
    names are often a domain convention (coordinates, formulas), so by default a description is
    enough to excuse them.

    ## Fix safety
    No automatic fix: renaming a parameter breaks callers.
    """

    severity = Severity.WARNING
    summary = "a parameter is named data, input, value, params, args, payload, obj, or one letter"
    nodes = Nodes.PROPERTIES
    Options = Options

    vague_words = vocabulary("vague_words", "extend_vague_words")

    def applies_to_name(self, name: str) -> bool:
        return _is_single_letter(name) or words_in(split_name(name), self.vague_words)

    def check(self, node: SchemaNode, context: LintContext) -> Iterable[Finding]:
        name = node.property_name or ""
        if _is_single_letter(name):
            if self.options.allow_described_single_letters and node.description.strip():
                return
            problem = "is a single letter with no description"
        else:
            siblings = sibling_names(node)
            documented = _is_documented(node.schema)
            if _excused_by_siblings(split_name(name), siblings) or (documented and not siblings):
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
