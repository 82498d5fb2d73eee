from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from schemalint.diagnostics import Finding
from schemalint.lazy_pattern import LazyPattern
from schemalint.model import SchemaNode, Severity
from schemalint.rules.base import LintContext, NodeRule, Nodes, rule_options, vocabulary
from schemalint.text import (
    name_has_unit,
    name_style,
    sibling_names,
    split_name,
    text_mentions_unit,
)

QUANTITY_WORDS = tuple(
    """
    amount price cost fee fees balance budget salary wage payment charge tax tip discount
    duration timeout delay interval ttl elapsed latency period wait expiry expiration lifetime uptime
    size filesize weight mass distance temperature temp speed velocity altitude elevation bandwidth memory
    storage volume capacity
    """.split()
)


#: `page_size`, `batch_size`: a count of things, not a measurement.
_COUNT_PREFIXES = frozenset("page batch serving servings sample group party team chunk window step pool queue".split())
#: A description that makes the number a count, a multiplier or a normalised score needs no unit.
_DIMENSIONLESS = LazyPattern(
    r"\bnumber\s+of\b|\bhow\s+many\b|\bcount\s+of\b|\bmultiplier\b|\bfactor\b|\brelative\s+to\b|\bhalf\b"
    r"|\bdouble\b|\b\d+(?:\.\d+)?x\b|\bnormali[sz]ed\b|\bscale\s+of\b|\bin\s+units\b|\bunitless\b"
    r"|\b(?:between|from)\s+-?\d+(?:\.\d+)?\s*(?:\([^)]*\)\s*)?(?:and|to|-)\s+-?\d+|\b0(?:\.0+)?\s+means\b"
    r"|\bis\s+(?:the\s+)?normal\b|\brandomness\b|\bdeterministic\b|\bcreativ|\bsampling\b|\binfluence\b"
    r"|\b(?:edit|levenshtein|hamming)\s+distance\b"
    r"|[,(]\s*(?:m|s|g|h|l|v|a|w|j|n|c)\s*\)?\.?\s*$|个数|数量|倍",
    re.IGNORECASE,
)
#: Before the quantity word, a word that makes the number a scale of its own: `fontWeight` (100-900).
_SCALE_PREFIXES = frozenset({"font"})
#: `size` and `capacity` alone are as often a count (`size of the map`, "instances the pool can hold")
#: as a measurement; they need a data context.
_COUNT_OR_DATA = frozenset({"size", "capacity"})
_DATA_WORDS = LazyPattern(
    r"\b(?:file|files|image|upload|attachment|memory|disk|buffer|payload|message|cache|storage|download|blob|"
    r"document|video|audio|photo|object|body|request|response|chunk)\b|文件|图片|内存|磁盘",
    re.IGNORECASE,
)
#: After the quantity word, a word that makes the number a ratio, a count or a code: `tax_rate`,
#: `price_multiplier`, `fee_tier`, `size_index`.
_NOT_A_MEASURE = frozenset(
    "rate rates ratio factor multiplier share fraction percentage count number num index id ids level tier "
    "rank type mode class bucket category".split()
)
#: A sibling such as `currency` or `from_unit` carries the unit for the number beside it.
_UNIT_SIBLINGS = frozenset("currency unit units".split())


_SI_PREFIXED = LazyPattern(r"(?:micro|milli|nano|kilo|mega|giga|centi)\w")
_SUGGESTED_UNIT = {
    **dict.fromkeys(
        "amount price cost fee fees balance budget salary wage payment charge tax tip discount".split(), "cents"
    ),
    **dict.fromkeys("duration timeout delay interval ttl elapsed latency period wait lifetime uptime".split(), "ms"),
    **dict.fromkeys("size filesize memory storage bandwidth capacity".split(), "bytes"),
    **dict.fromkeys("weight mass".split(), "kg"),
    **dict.fromkeys("distance altitude elevation".split(), "m"),
    **dict.fromkeys("temperature temp".split(), "celsius"),
    **dict.fromkeys("speed velocity".split(), "kmh"),
    "volume": "liters",
}


@rule_options
class Options:
    quantity_words: tuple[str, ...] = QUANTITY_WORDS
    """Name words that mark a measured quantity (replaces the default list)."""
    extend_quantity_words: tuple[str, ...] = ()
    """Words added to `quantity-words`."""
    extend_units: tuple[str, ...] = ()
    """Extra unit words accepted in names and descriptions (e.g. `credits`, `points`)."""


def _advice(name: str, words: Sequence[str], quantity: str) -> str:
    """Where to put the unit: a name with a unit appended in its own style, unless the name already ends
    in a short or SI-prefixed word the unit lists do not know (`fee_xu`, `fee_microalgos` may be units:
    a second one would stack)."""
    last = words[-1]
    if last != quantity and not last.isdigit() and (len(last) <= 3 or _SI_PREFIXED.match(last)):
        return f"say the unit in the description (is `{last}` one?)"
    unit = _SUGGESTED_UNIT.get(quantity, "unit")
    camel = name_style(name) in ("camelCase", "PascalCase")
    example = f"{name}{unit.capitalize()}" if camel else f"{name}_{unit}"
    return f"put the unit in the name (e.g. `{example}`) or the description"


class UnitlessQuantity(NodeRule):
    """
    ## What it does
    Flags a numeric parameter that measures something (amount, price, duration, timeout, size,
    weight, distance, temperature, speed...) when neither its name nor its description names a
    unit. Units are recognised in names (`amountCents`, `timeout_ms`, `timeout_s`, `size_bytes`,
    `weightKg`, `discount_pct`, `amountSats`, `priceMicros`, `fee_microusdc`) and in descriptions,
    in English ("in seconds", "kg", "USD", "%", "percent", "(0-1)", any "in <unit>s" or "in <CODE>":
    "in beats", "in lamports", "in micro-USDC", "denominated in SOL") and Chinese ("毫秒", "字节",
    "公里", "千克", "单位：元", "金额（分）", "30秒").

    ## Why is this bad?
    `amount: 10` is ten dollars to one reader and ten cents to another; `timeout: 30` is thirty
    seconds or thirty milliseconds. The model guesses, and the guess is sometimes off by a factor
    of a hundred or a thousand.

    ## Example
    ```json
    {"refund_amount": {"type": "number", "description": "How much to refund."}}
    ```

    ## Use instead
    ```json
    {"refund_amount_cents": {"type": "integer", "minimum": 1, "description": "Amount to refund, in cents."}}
    ```

    ## Trade-off
    Only `number` and `integer` parameters are checked, and only names containing a quantity
    word: counts (`quantity`, `count`, `limit`, `page_size`) and geometric lengths of abstract
    shapes are left alone, and so are ratios, counts and codes named after a quantity (`tax_rate`,
    `price_multiplier`, `fee_tier`). A description that makes the number a count ("the number of
    nights"), a multiplier ("2.0 is double speed") or a normalised score ("between 0 and 1")
    needs no unit, and neither does a number beside a `currency` or `*_unit` parameter.

    ## Fix safety
    No automatic fix: only the owner knows the unit.
    """

    severity = Severity.WARNING
    summary = "a numeric quantity (amount, duration, size, weight...) has no unit in its name or description"
    nodes = Nodes.NAMED_PROPERTIES
    types = frozenset({"number", "integer"})
    Options = Options

    quantity_words = vocabulary("quantity_words", "extend_quantity_words")

    def _quantity(self, words: Sequence[str]) -> str | None:
        """The quantity word of a name that states no unit (`timeout`, not `timeout_ms`, `timeout_s`,
        `amountSats`) and measures it (not `tax_rate`, `price_tier`)."""
        index = next((i for i, w in enumerate(words) if w in self.quantity_words), None)
        if index is None or name_has_unit(words, self.options.extend_units):
            return None
        if not _NOT_A_MEASURE.isdisjoint(words[index + 1 :]) or not _SCALE_PREFIXES.isdisjoint(words[:index]):
            return None
        return words[index]

    def applies_to_name(self, name: str) -> bool:
        return self._quantity(split_name(name)) is not None

    def check(self, node: SchemaNode, context: LintContext) -> Iterable[Finding]:
        words = node.words
        quantity = self._quantity(words) or ""
        description = node.description
        if quantity in _COUNT_OR_DATA and (
            not _COUNT_PREFIXES.isdisjoint(words) or not _DATA_WORDS.search(f"{' '.join(words)} {description}")
        ):
            return
        if text_mentions_unit(description, self.options.extend_units) or _DIMENSIONLESS.search(description):
            return
        if any(set(split_name(name)) & _UNIT_SIBLINGS for name in sibling_names(node)):
            return
        yield Finding(
            f"`{node.property_name}` is a quantity ({quantity}) with no unit; {_advice(node.property_name or '', words, quantity)}",
            node.pointer,
            key=True,
            data={"parameter": node.property_name, "quantity": quantity},
        )
