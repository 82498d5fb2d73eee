"""Shared text helpers and word lists for the naming, description and security rules.

Every rule that looks at words goes through this module, so that a name is split the same way
everywhere and a unit, verb or boundary phrase recognised by one rule is recognised by all of them.
Descriptions are often Chinese: the helpers here understand CJK text as well as English.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from schemalint.lazy_pattern import LazyPattern

if TYPE_CHECKING:
    from schemalint.model import JSON, SchemaNode


def word_set(text: str) -> frozenset[str]:
    """A vocabulary written as whitespace-separated words."""
    return frozenset(text.split())


# --------------------------------------------------------------------------------------------
# Names
# --------------------------------------------------------------------------------------------

# an acronym (not followed by a lower-case letter), a capitalised or lower-case word, digits,
# or a run of non-ASCII letters (CJK names). No alternative matches a separator (`_`, `-`, `.`, `:`,
# `/`, white space) or reads across one, so the words of a whole name are the words of its parts.
_WORD = LazyPattern(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+|[^\W\d_A-Za-z]+")


@lru_cache(maxsize=8192)
def split_name(name: str | None) -> tuple[str, ...]:
    """Lower-cased words of an identifier: snake_case, camelCase, PascalCase, kebab-case, dots; cached,
    since the same names are split by many rules and recur across tools.

    >>> split_name("getHTTPResponse_v2.fetch-all")
    ('get', 'http', 'response', 'v', '2', 'fetch', 'all')
    """
    return tuple(word.lower() for word in _WORD.findall(name)) if name else ()


def last_word_in(name: str, vocabulary: frozenset[str]) -> bool:
    """Whether the last word of `name` (as `split_name` splits it) is in `vocabulary`: `user_id` ends in `id`."""
    words = split_name(name)
    return bool(words) and words[-1] in vocabulary


def name_style(name: str) -> str | None:
    """`snake_case`, `camelCase`, `PascalCase`, `kebab-case`, `mixed`, or None for a single word.

    A dotted namespace prefix (`math.factorial`) is ignored: the style of the last segment counts.
    """
    last = name.rsplit(".", 1)[-1]
    has_underscore = "_" in last.strip("_")
    has_dash = "-" in last.strip("-")
    has_hump = re.search(r"[a-z0-9][A-Z]", last) is not None
    if has_underscore + has_dash + has_hump > 1:
        return "mixed"
    if has_underscore:
        return "snake_case"
    if has_dash:
        return "kebab-case"
    if has_hump:
        return "PascalCase" if last[:1].isupper() else "camelCase"
    return None


def words_in(words: Sequence[str], vocabulary: frozenset[str]) -> bool:
    """True when every word is in the vocabulary (and there is at least one word)."""
    return bool(words) and vocabulary.issuperset(words)


# --------------------------------------------------------------------------------------------
# Verbs
# --------------------------------------------------------------------------------------------

#: Verbs of tools that change state somewhere (SL205 side effects, SL606 annotation contradictions).
WRITING_VERBS = word_set(
    """
    create add insert update edit modify patch change set put post delete remove drop destroy purge erase
    wipe reset send email notify publish submit pay charge refund cancel book reserve purchase buy sell
    transfer withdraw deposit merge push commit close reopen archive unarchive assign unassign approve
    reject dismiss lock unlock upload write save store rename move fork star unstar follow unfollow invite
    revoke grant register enroll subscribe unsubscribe schedule trigger deploy install uninstall enable
    disable start stop restart kill terminate exchange return mark block unblock ban unban like upvote
    downvote comment reply accept decline confirm mint swap stake place resolve unresolve reprioritize
    request overwrite replace apply import sync rollback revert suspend
    """
)

#: Verbs that unmistakably destroy data (SL606: a `destructiveHint: false` on these is a contradiction).
DESTRUCTIVE_VERBS = word_set(
    """
    delete remove drop destroy purge erase wipe overwrite truncate
    """
)

#: Verbs of tools that only read or compute.
READING_VERBS = word_set(
    """
    get list search find fetch lookup look query read retrieve show view describe check count calculate
    compute convert estimate analyze analyse validate verify predict recommend translate summarize summarise
    parse format download export load compare detect extract generate render explain inspect browse scan
    test measure evaluate forecast track monitor locate identify match sort filter select solve simulate
    plot draw suggest classify preview watch poll ping print display determine calc obtain discover explore
    review diff encode decode hash sum average aggregate rank score lint
    """
)

#: Verbs that neither read nor clearly write, still verbs for SL102.
OTHER_VERBS = word_set(
    """
    report
    run execute exec process handle call invoke do make use go navigate click type scroll turn take play
    pause resume log login logout authenticate authorize connect disconnect sign open manage perform prepare
    plan optimize optimise fill answer ask chat talk speak say tell think wait sleep retry transcribe
    transform split join tokenize reverse shuffle roll flip pick order adjust control activate
    deactivate toggle share greet welcome celebrate visit travel fly drive ship tune respond record
    clean multiply divide subtract train configure design skip fit sample mix cook bake learn compose help
    teach build compile initialize init setup refresh reload upgrade downgrade cd ls mv cp
    rm mkdir rmdir touch cat grep echo pwd wc tail head du df chmod chown copy clone increment decrement incr decr
    customize customise restore attach detach expand collapse research contain contains
    """
)

_AGENT_OR_ACTION_SUFFIXES = (
    ("ation", "ate"),
    ("ation", ""),
    ("ition", "e"),
    ("ion", ""),
    ("ion", "e"),
    ("ing", ""),
    ("ing", "e"),
    ("ator", "ate"),
    ("er", ""),
    ("er", "e"),
    ("or", ""),
    ("or", "e"),
    ("ment", ""),
)
_IRREGULAR_ACTION_NOUNS = {
    "analysis": "analyze",
    "classification": "classify",
    "verification": "verify",
    "conversion": "convert",
}

ALL_VERBS = WRITING_VERBS | READING_VERBS | OTHER_VERBS


def is_verb_like(word: str, verbs: frozenset[str] = ALL_VERBS) -> bool:
    """A verb, or a noun made from one: `solver`, `calculator`, `prediction`, `loading`, `analysis`."""
    if word.isdigit():  # no suffix makes a number a verb; numbered names (`order_17`) would flood the cache
        return word in verbs
    return _is_verb_like(word, verbs)


@lru_cache(maxsize=8192)
def _is_verb_like(word: str, vocabulary: frozenset[str]) -> bool:
    if word in vocabulary or _IRREGULAR_ACTION_NOUNS.get(word) in vocabulary:
        return True
    for suffix, replacement in _AGENT_OR_ACTION_SUFFIXES:
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            stem = word[: -len(suffix)] + replacement
            if stem in vocabulary or (stem[-1:] == stem[-2:-1] and stem[:-1] in vocabulary):
                return True
    return False


#: Verbs that are just as often nouns in a name (`grocery_store_find`, `book_search`, `order_status`):
#: when another verb follows, that one is the tool's action.
NOUN_LIKE_VERBS = word_set(
    """
    book order store reserve post comment like star return place request stake charge record ban block lock
    set close exchange schedule transfer archive register trigger mark match plan process test sample track
    filter sort review reply report log sign ship design type control share draw pick roll fit email change
    update
    """
)
#: What a noun-like verb before them names is read, not done: `place_details`, `order_status`, `booking_history`.
_INFORMATION_NOUNS = word_set("details detail info information status history summary")
#: `add_numbers` is arithmetic, not a write.
_ARITHMETIC_OBJECTS = word_set(
    """
    number numbers binary integer integers int ints float floats value values two three digits matrix
    matrices vector vectors fraction fractions complex decimal decimals polynomial polynomials time times
    date dates
    """
)


#: whom a `transfer_to_*` hands the conversation to: nothing is moved, bought or sent
_HAND_OFF_TARGETS = word_set("human humans agent agents person operator support representative staff")


def hands_off(words: Sequence[str]) -> bool:
    """`transfer_to_human_agents`, `transfer_call_to_support`: a hand-off to a person, not a transfer of money."""
    return "transfer" in words and not _HAND_OFF_TARGETS.isdisjoint(words[words.index("transfer") + 1 :])


def action_verb(words: Iterable[str], verbs: frozenset[str] = ALL_VERBS) -> str | None:
    """The verb that names the tool's action: the first verb, unless it is a noun-like verb
    (`store`, `book`, `order`) followed by another verb (`grocery_store_find_nearby` -> `find`) or by a
    word for information about it (`maps_place_details`: nothing is placed)."""
    listed = list(words)
    found = [(i, w) for i, w in enumerate(listed) if w in verbs or is_verb_like(w, verbs)]
    for position, (index, word) in enumerate(found):
        if word not in verbs:
            return None  # a noun made from a verb (`validator`, `calculation`) names a computation
        following = listed[index + 1] if index + 1 < len(listed) else None
        if word in NOUN_LIKE_VERBS and following in _INFORMATION_NOUNS:
            continue
        if word not in NOUN_LIKE_VERBS or position == len(found) - 1:
            return None if following in _ARITHMETIC_OBJECTS else word
    return None


# --------------------------------------------------------------------------------------------
# CJK-aware text length
# --------------------------------------------------------------------------------------------

_LATIN_WORD = LazyPattern(r"[^\W_]+(?:['’][^\W_]+)?")
#: kana, CJK extension A, unified ideographs, hangul syllables, compatibility ideographs, extensions B-F
_CJK_CHAR = LazyPattern(
    "[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0002fa1f]", needs_non_ascii=True
)


#: Prose rules (length, boundaries, side effects, references, units) read this much of a text; the
#: security rules (SL601, SL602) read all of it. Keeps a hostile, huge description linear.
MAX_ANALYSED_CHARS = 100_000


def analysed(text: str | None) -> str:
    """The part of a description the prose rules read (the first MAX_ANALYSED_CHARS characters)."""
    return (text or "")[:MAX_ANALYSED_CHARS]


def text_units(text: str) -> int:
    """Length in word-sized units: each non-CJK word counts 1, every two CJK characters count 1.

    Chinese has no spaces and a word is one to three characters (about two on average), so
    `查询订单` ("look up orders") is 2 units, like its English translation.
    """
    text = analysed(text)
    cjk = len(_CJK_CHAR.findall(text))
    without_cjk = _CJK_CHAR.sub(" ", text) if cjk else text
    return len(_LATIN_WORD.findall(without_cjk)) + math.ceil(cjk / 2)


# --------------------------------------------------------------------------------------------
# Boundary text: when NOT to use a tool (SL203)
# --------------------------------------------------------------------------------------------

_BOUNDARY_EN = LazyPattern(
    r"""
    \b(?:do\s+not|don'?t|never|should\s*n[o']t|must\s*n[o']t|cannot|can'?t|may\s+not)\s+(?:be\s+)?
        (?:use|used|call|called|invoke|invoked)\b
    | \bnot\s+(?:intended\s+|meant\s+|designed\s+|suitable\s+|appropriate\s+|to\s+be\s+used\s+)?for\b
    | \bnot\s+to\s+be\s+used\b
    | \bwhen\s+not\s+to\b
    | \binstead\b
    | \bonly\s+(?:for|when|if|use|call|to\s+be\s+used|be\s+used|be\s+called|applies|works|supports|handles)\b
    | \b(?:use|call)\s+(?:this|it)\s+(?:tool\s+|function\s+)?only\b
    | \b(?:used|called|invoked)\s+(?:only|sparingly)\b | \bonly\s*[.;]
    | \bavoid\s+(?:using|calling)\b
    | \bprefer(?:ably)?\s+(?:the\s+)?[`'"]?[\w.-]+[`'"]?\s+(?:tool\s+|function\s+)?(?:for|when|over)\b
    | \bdoes\s*n[o']t\s+(?:handle|support|cover|apply|work\s+for|include)\b
    | \b(?:is|are)\s+(?:not|n't)\s+(?:supported|handled|covered)\b
    | \bout\s+of\s+scope\b
    """,
    re.VERBOSE | re.IGNORECASE,
)
_BOUNDARY_ZH = LazyPattern(
    r"不要用于|不用于|不要用|不应用于|不适用|不可用于|不能用于|勿用于|禁止用于|何时不用|不要调用|不应调用"
    r"|请用|请使用|请改用|改用|而不是|而非|仅用于|只用于|仅限|只能用于|仅适用|只适用|不负责|不支持|不处理",
    needs_non_ascii=True,
)


def has_boundary_text(text: str) -> bool:
    """True when the text says when not to use the tool, in English or Chinese."""
    return _BOUNDARY_EN.search(text) is not None or _BOUNDARY_ZH.search(text) is not None


# --------------------------------------------------------------------------------------------
# Units (SL304)
# --------------------------------------------------------------------------------------------

#: Unit words recognised as name parts (`timeoutMs`, `amount_cents`, `size_bytes`).
UNIT_WORDS = word_set(
    """
    ms msec msecs millis millisecond milliseconds us usec microsecond microseconds ns nanosecond nanoseconds
    sec secs second seconds min mins minute minutes hr hrs hour hours day days week weeks month months year
    years yr yrs bit bits byte bytes kb kib mb mib gb gib tb tib kbps mbps gbps cent cents usd eur gbp jpy
    cny rmb inr aud cad chf dollar dollars euro euros yen yuan pence kg kgs kilogram kilograms kilo kilos
    gram grams mg milligram milligrams lb lbs pound pounds oz ounce ounces ton tons tonne tonnes meter
    meters metre metres km kms kilometer kilometers kilometre kilometres cm centimeter centimeters mm
    millimeter millimeters mi mile miles ft feet foot inch inches yd yard yards nmi au px pixel pixels pt
    pts dp em rem celsius fahrenheit kelvin degc degf mph kph kmh knots knot pct percent percentage
    percentages ratio fraction bps basis joule joules kj cal calorie calories kcal kwh wh watt watts kw mw
    volt volts amp amps hz khz mhz ghz pa kpa hpa mbar atm psi bar liter liters litre litres ml milliliter
    milliliters gallon gallons gal deg degree degrees rad radian radians coulomb coulombs newton newtons ohm
    ohms farad farads tesla teslas mol mole moles lumen lumens pascal pascals hertz epoch unix timestamp
    micros nanos sat sats satoshi satoshis msat msats wei gwei lamport lamports btc eth sol usdc usdt dai
    sgd hkd nzd sek nok dkk krw brl mxn zar try rub pln thb idr php myr vnd aed sar ils czk huf
    beat beats tick ticks frame frames token tokens credit credits point points
    """
)
#: One- and two-letter units read only as the last word of a name (`timeout_s`, `delay_h`, `distance_m`):
#: elsewhere in a name they are usually something else.
_NAME_END_UNITS = word_set("s h m d w y k b kb")
#: SI prefixes glued to a unit or a currency (`microusdc`, `millisats`, `kilobytes`).
_UNIT_PREFIX = LazyPattern(r"(?:micro|milli|nano|kilo|mega|giga|centi|deci)-?")

#: Unit words that also have an everyday meaning in prose ("min 1, max 100", "the second item").
_AMBIGUOUS_IN_PROSE = word_set(
    """
    min second pa bar mi pt em rem dp au cal basis amp
    try sol php dai sat beat beats tick ticks frame frames token tokens credit credits point points
    """
)
#: Chinese unit words that are unambiguous anywhere in a description.
_UNIT_WORDS_ZH = """
    毫秒 微秒 纳秒 分钟 小时 秒钟 字节 千字节 兆字节 公里 千米 厘米 毫米 千克 公斤 毫克 美元 人民币
    欧元 英镑 日元 港元 百分比 百分之 摄氏度 华氏度 英里 英尺 英寸 毫升 加仑 像素 单位 汇率
    """.split()
#: Single-character Chinese units: they also occur inside ordinary words (分析, 年龄), so they count only
#: after a number, in brackets, or in `以X为单位` / `按X计`.
_UNIT_CHARS_ZH = "分元角秒米克斤吨天日周月年升度"
_UNIT_PHRASES = LazyPattern(
    r"\b(?:"
    + "|".join(sorted((re.escape(u) for u in UNIT_WORDS - _AMBIGUOUS_IN_PROSE), key=len, reverse=True))
    + r")\b|\bbasis\s+points?\b|\bminor\s+units?\b|\biso\s*4217\b|\bcurrency\b|\bsmallest\s+(?:currency\s+)?unit\b"
    r"|\bunits?\s+of\s+measure|[%$€£¥℃℉°²³]|\d\s?(?:m|s|g|h|k)\b|\b(?:m|cm|mm|km|ft|in)\^?[23]\b"
    r"|\b(?:J|K|N|W|V|m|s|g|kg|mol|h|km|mi|L|ml|C|Pa|min|hr)/(?:J|K|N|W|V|m|s|g|kg|mol|h|km|mi|L|ml|C|s2|min|hr)\b"
    # "in second", "in sat", "timeout in min": a unit word that is also an everyday word reads as a unit
    # right after "in" (or "expressed in", "per")
    r"|\b(?:in|per|(?:expressed|measured|denominated|given|specified)\s+(?:in|as))\s+(?:whole\s+)?(?:"
    + "|".join(sorted(_AMBIGUOUS_IN_PROSE, key=len, reverse=True))
    + r")\b|"
    + "|".join(_UNIT_WORDS_ZH)
    + rf"|\d\s*[{_UNIT_CHARS_ZH}]|[（(]\s*[{_UNIT_CHARS_ZH}]\s*[）)]|以\s*[{_UNIT_CHARS_ZH}]"
    + rf"|按\s*[{_UNIT_CHARS_ZH}]\s*计",
    re.IGNORECASE,
)


def name_has_unit(words: Sequence[str], extra_units: Iterable[str] = ()) -> bool:
    """A name word is a unit (`timeout_ms`, `amountSats`), also behind an SI prefix (`microusdc`,
    `kilobytes`), or the last one is a short unit (`timeout_s`)."""
    units = UNIT_WORDS | {u.lower() for u in extra_units}
    for word in words:
        prefix = _UNIT_PREFIX.match(word)
        if word in units or (prefix is not None and prefix.end() < len(word) and word[prefix.end() :] in units):
            return True
    return len(words) > 1 and words[-1] in _NAME_END_UNITS


#: "in beats", "in micro-USDC", "denominated in SOL", "expressed as lamports": a unit the lists may not know.
_IN_UNIT = LazyPattern(
    r"\b(?:in|(?:expressed|measured|denominated|given|specified)\s+(?:in|as)|units?\s+of)\s+"
    r"(?:(?i:micro|milli|nano|kilo|mega)-?\w+|(?!(?:JSON|HTML|XML|YAML|CSV|UTC|URL|API|SQL)\b)[A-Z]{3,5}\b"
    r"|(?:(?!(?:the|a|an|this|that|its|their|your|our|all|each|every|some|most|many|other|such|both)\b)[a-z]+\s+){0,2}"
    r"(?!(?i:this|its|is|was|has|these|those|all|ms)\b)[a-z]{2,}s\b)"
)
#: "(0-1)", "0 to 1", "[0, 1]", "0.0-1.0": a ratio.
_UNIT_INTERVAL = LazyPattern(r"(?<![\d.])0(?:\.0+)?\s*(?:-|–|to|\.\.|,)\s*1(?:\.0+)?(?![\d.])")


def text_mentions_unit(text: str, extra_units: Iterable[str] = ()) -> bool:
    """True when a description names a unit (`in seconds`, `kg`, `USD`, `%`, `in satoshis`, `(0-1)`, `毫秒`)."""
    if _UNIT_PHRASES.search(text) or _IN_UNIT.search(text) or _UNIT_INTERVAL.search(text):
        return True
    lowered = text.lower()
    return any(re.search(rf"\b{re.escape(u.lower())}\b", lowered) for u in extra_units)


# --------------------------------------------------------------------------------------------
# Formats and examples (SL207, SL307)
# --------------------------------------------------------------------------------------------

#: An example or a stated shape in a description ("e.g. A1024", "a valid UUID", "8 digits").
EXAMPLE_OR_FORMAT = LazyPattern(
    r"\be\.?\s?g\b|\bfor\s+example\b|\bfor\s+instance\b|\bsuch\s+as\b|\blike\s+['\"`]|\bexample\b"
    r"|\bformat\b|\bformatted\b|\bpattern\b|\blooks\s+like\b|\bin\s+the\s+form\b|例如|比如|格式|示例|形如|如[:：]"
    # a named shape: "a valid UUID", "24-character hex ObjectId", "8 digits"
    r"|\b(?:uuid|guid|ulid|objectid|hex(?:adecimal)?)s?\b|\b\d+[\s-](?:digits?|characters?|chars?)\b",
    re.IGNORECASE,
)


#: How a date or time is written (ISO 8601, YYYY-MM-DD, an example...).
DATE_FORMAT = LazyPattern(
    r"\biso(?:[\s-]?8601)?\b|\brfc[\s-]?3339\b|\brfc[\s-]?2822\b|\byyyy|\bmm[/-]dd\b|\bdd[/-]mm\b|\bhh:mm\b|\bunix\b|\bepoch\b"
    r"|\btimestamp\b|\d{4}-\d{1,2}-\d{1,2}|\d{1,2}:\d{2}|\d{1,2}/\d{1,2}/\d{2,4}|\bformats?\b|\bformatted\b|格式|时间戳"
    r"|\b(?:month|day|year)-(?:month|day|year)-(?:month|day|year)\b|\bdd[/.-]mm\b"
    r"|\b(?:seconds|milliseconds)\s+since\b"
    # examples show the form, a relative one too ("e.g. 2025-01-31", "e.g. today, tomorrow")
    r"|(?:\be\.?\s?g\.?|\bfor\s+example\b|\bsuch\s+as\b)[^;]{0,30}?(?:\d|\b(?:today|tomorrow|yesterday|now|next|last)\b)",
    re.IGNORECASE,
)


# --------------------------------------------------------------------------------------------
# Values listed in a description (SL305, SL307)
# --------------------------------------------------------------------------------------------

#: A value as an enum would hold it: a word or code, quoted or not (a URL, path or `key:value` is not one).
_VALUE = r"(?:`[\w.+-]{1,40}`|'[\w.+-]{1,40}'|\"[\w.+-]{1,40}\"|[A-Za-z0-9][\w.-]{0,39})"
_QUOTED_VALUE = r"(?:`[\w.+-]{1,40}`|'[\w.+-]{1,40}'|\"[\w.+-]{1,40}\")"
_OR = r"\s*(?:,|/|\bor\b|,\s*or\b|\band\b|,\s*and\b)\s*"
#: "one of: a, b, c", "a | b | c", "'x', 'y' or 'z'", "allowed values: a, b": a closed set, whatever the name.
_LISTED_VALUES = LazyPattern(
    rf"\b(?i:one\s+of(?:\s+the\s+following(?:\s+values)?)?|options?(?:\s+are)?"
    rf"|(?:possible|allowed|accepted|valid|supported)\s+values?(?:\s+are)?"
    rf"|values?\s+are|choices?(?:\s+are)?)\b\s*[:=]?\s*[(\[]?\s*{_VALUE}(?:{_OR}{_VALUE})+"
    rf"|(?<![|\w:]){_VALUE}(?:\s*\|\s*{_VALUE})+(?![|\w])"
    rf"|(?:\b(?i:either)\s+)?{_QUOTED_VALUE}(?:\s*,\s*{_QUOTED_VALUE})*,?\s+or\s+{_QUOTED_VALUE}"
)
#: Also "json, markdown or text", "can be a or b", ": load, domcontentloaded, networkidle": values for a
#: name that already suggests a closed set, kinds of things for one that does not.
_LOOSELY_LISTED_VALUES = LazyPattern(
    rf"\b(?i:either|can\s+be|must\s+be|should\s+be)\s*[:=]?\s*{_VALUE}(?:{_OR}{_VALUE})+"
    rf"|\b[a-z][\w-]{{0,24}}(?:,\s*[a-z][\w-]{{0,24}})+,?\s+or\s+[a-z][\w-]{{0,24}}\b"
    rf"|:\s*{_VALUE}(?:\s*,\s*{_VALUE}){{2,}}\s*(?:[.;)]|$)",
)
#: Values after these are examples of an open set, not the set.
_EXAMPLES_BEFORE = LazyPattern(
    r"(?:\be\.?\s?g\b\.?|\bi\.e\b\.?|\b(?:for\s+example|such\s+as|like|examples?|format(?:ted)?|starts?\s+with"
    r"|ends?\s+with|begins?\s+with|returned\s+by|from)\b)[^.;]{0,24}\Z",
    re.IGNORECASE,
)


def lists_values(text: str, loosely: bool = False) -> bool:
    """True when a description lists the values a string takes ("one of: a, b", "a | b | c", "'x' or 'y'";
    `loosely`, also "x, y or z" and "can be a or b"), not examples of an open set ("e.g. 'a' or 'b'")."""
    patterns = (_LISTED_VALUES, _LOOSELY_LISTED_VALUES) if loosely else (_LISTED_VALUES,)
    return any(
        not _EXAMPLES_BEFORE.search(text[max(0, match.start() - 40) : match.start()])
        for pattern in patterns
        for match in pattern.finditer(text)
    )


# --------------------------------------------------------------------------------------------
# Schema helpers shared by the property rules
# --------------------------------------------------------------------------------------------


def properties_of(schema: JSON) -> Mapping[str, JSON]:
    """The schema's `properties`; empty when it has none (or it or they are not an object)."""
    properties = schema.get("properties") if isinstance(schema, Mapping) else None
    return properties if isinstance(properties, Mapping) else {}


def sibling_names(node: SchemaNode) -> list[str]:
    """The other property names of the object that holds this property."""
    properties = properties_of(node.parent.schema) if node.parent is not None else {}
    return [name for name in properties if name != node.property_name]


def description_of(schema: JSON) -> str:
    """The schema's description as the prose rules read it; '' when it is not a string."""
    if not isinstance(schema, Mapping):
        return ""
    text = schema.get("description")
    return analysed(text) if isinstance(text, str) else ""


def is_constrained_string(schema: JSON) -> bool:
    """A string schema whose values are pinned down by enum, const, pattern or format."""
    return isinstance(schema, Mapping) and not _CONSTRAINING_KEYWORDS.isdisjoint(schema)


_CONSTRAINING_KEYWORDS = frozenset(("enum", "const", "pattern", "format"))


# --------------------------------------------------------------------------------------------
# Side effects (SL205)
# --------------------------------------------------------------------------------------------

_SIDE_EFFECT_TEXT = LazyPattern(
    r"""
    \bside[\s-]?effects?\b | \bidempoten | \bidempotency\b | \bretr(?:y|ies|ied|ying)\b
    | \bsafe\s+to\s+(?:call|repeat|re-?run) | \brepeat(?:ing|ed)?\s+(?:the\s+|this\s+|a\s+)?(?:call|request)
    | \breplac(?:es|ing)\s+(?:any|the)\s+(?:earlier|previous|existing|old)
    | \b(?:called|calling|call|run)\s+(?:it\s+)?(?:twice|again|more\s+than\s+once|once|repeatedly|multiple\s+times)\b
    | \bduplicate | \birreversibl | \bcannot\s+be\s+(?:undone|reversed|reverted|recovered) | \bcan'?t\s+be\s+undone
    | \bpermanent(?:ly)?\b | \bundo\b | \brevers(?:e|ible)\b | \bconfirm(?:ation|ed|s)?\b | \bapprov(?:al|e)\b
    | \bcharges?\b | \bbill(?:s|ed|ing)?\b | \bnotif(?:y|ies|ication)\b
    | \b(?:this|it)\s+(?:will|does|may|can)\s+(?:\w+\s+){0,2}
      (?:change|modify|delete|remove|overwrite|create|update|send|cancel)
    | \b(?:this|it)\s+(?:changes|modifies|deletes|removes|overwrites|creates|updates|sends|cancels)\b
    | \boverwrit | \bno\s+changes?\b | \bread[\s-]?only\b | \bdoes\s+not\s+(?:change|modify|write)\b | \bdry[\s-]?run\b
    """,
    re.VERBOSE | re.IGNORECASE,
)
_SIDE_EFFECT_TEXT_ZH = LazyPattern(
    r"副作用|幂等|重复调用|重试|不可撤销|不可逆|无法撤销|无法恢复|永久|确认|扣款|收费|通知|只读|覆盖",
    needs_non_ascii=True,
)


def text_mentions_side_effects(text: str) -> bool:
    """True when a description talks about side effects, idempotency, reversibility or confirmation."""
    return _SIDE_EFFECT_TEXT.search(text) is not None or _SIDE_EFFECT_TEXT_ZH.search(text) is not None


# --------------------------------------------------------------------------------------------
# Tool poisoning (SL601) and hidden characters (SL602)
# --------------------------------------------------------------------------------------------

_NEGATION_BEFORE = LazyPattern(
    r"\b(?:not|never|cannot|can't|won't|no|except|excluding|blocked|denied|refuses?)\b[^.]{0,30}\Z", re.IGNORECASE
)

#: A stretch of text inside one sentence: a dot counts only inside a word (`example.com`, `tools.send`).
_SAME_SENTENCE = r"(?:[^.!?\n]|\.(?=\w))"
#: Imperative verbs that take a file's contents into the conversation or out of it.
_TAKING_VERBS = (
    "read|cat|open|include|send|upload|attach|copy|exfiltrate|pass|load|paste|provide|extract|output|print|"
    "append|embed|dump|leak|post|forward|share|grab|collect"
)
#: Files that hold secrets: keys, cloud and registry credentials, shell history, MCP client configs.
_SECRET_PATHS = (
    r"~/\.(?:ssh|aws|gnupg|kube|docker|config/gcloud|netrc|pgpass|git-credentials|npmrc|pypirc|cursor|bash_history"
    r"|zsh_history|env\b)|\bid_(?:rsa|ed25519|ecdsa|dsa)\b|\.ssh/|\.aws/credentials|/etc/(?:shadow|passwd|sudoers)\b"
    r"|\bmcp\.json\b|claude_desktop_config|\bwallet\.dat\b|\.env\b"
    r"|(?:~/|\$HOME/|%USERPROFILE%\\?)\.?[\w./-]*(?:secret|token|credential|password|passwd|private[\w-]*key)"
)
#: When an order applies: always, before or after every answer, silently.
_EVERY_TIME = (
    r"\balways\b|\bbefore\s+(?:answering|responding|replying|you\s+(?:answer|respond|reply)|(?:each|every|any)\s+"
    r"(?:answer|response|reply|message|request|turn))|\bafter\s+(?:each|every|answering|responding|replying)\b"
    r"|\bwhenever\b|\b(?:every|each)\s+time\b|\bat\s+the\s+(?:start|end|beginning)\s+of\s+(?:each|every|the)\b"
    r"|\b(?:silently|quietly|secretly|covertly)\b|\bwithout\s+(?:asking|telling|informing|notifying|alerting)\b"
    r"|\bin\s+the\s+background\b"
)
#: What a user says or holds as a whole: the conversation, the system prompt, their secrets.
_USER_DATA = (
    r"(?:conversation|chat(?:\s+(?:history|log|transcript|messages))?|transcripts?|message\s+history"
    r"|(?:previous|prior|earlier|past|all)\s+(?:(?:the|of|user['’]?s?|their)\s+)*messages|system\s+prompt"
    r"|(?:user['’]?s?|their)\s+(?:personal\s+(?:data|information|details)|credentials|passwords?|api\s+keys?|tokens|contacts)"
    r"|api\s+keys?|credentials|passwords|secrets|environment\s+variables|env\s+vars)\b"
)
#: One thing the user said, sent to an address outside (`... the user's question to x@y.com`).
_USER_INPUT_OUT = (
    r"(?:user['’]?s?|their)\s+(?:messages?|inputs?|queries|query|questions?|prompts?|requests?|data|files?|details|emails?)\b"
    rf"{_SAME_SENTENCE}{{0,40}}?\bto\s+(?:[\w.+-]+@[\w-]+\.\w|https?://)"
)
#: Verbs that move data somewhere (`call send_email with ...` moves it too).
_MOVING_VERBS = (
    r"send|forward|post|upload|transmit|relay|copy|pass|include|attach|submit|share|report|log|cc|bcc|email|mail"
    r"|sync|leak|call|invoke"
)
_MOVING_VERB = LazyPattern(rf"\b(?:{_MOVING_VERBS})\b", re.IGNORECASE)
_EVERY_TIME_PATTERN = LazyPattern(_EVERY_TIME, re.IGNORECASE)
#: Between the verb and the data, a word that makes the data the destination ("post the answer to the
#: conversation") or the order a prohibition ("never send the conversation").
_DESTINATION_OR_NEGATION = LazyPattern(r"\b(?:to|into|in|within|from|on|not|never|n't)\b", re.IGNORECASE)
_SENTENCE_END = LazyPattern(r"[.!?\n](?!\w)")


def _moves_user_data(text: str, data: re.Match[str]) -> str | None:
    """The order around `data` (a match of the user-data anchor) to move it, if there is one: a moving verb
    at most 60 characters before it in the same sentence with no destination or negation between, and a
    trigger (always, before answering, silently...) in that sentence. Every check reads a bounded slice."""
    start = data.start()
    before = text[max(0, start - 60) : start]
    ends = list(_SENTENCE_END.finditer(before))
    if ends:
        before = before[ends[-1].end() :]
    verbs = list(_MOVING_VERB.finditer(before))
    if not verbs or _DESTINATION_OR_NEGATION.search(before, verbs[-1].end()):
        return None
    sentence_start = max(0, start - len(before) - 120)
    head = text[sentence_start : start - len(before)]
    head_ends = list(_SENTENCE_END.finditer(head))
    head = head[head_ends[-1].end() :] if head_ends else head
    tail = text[data.end() : data.end() + 120]
    tail_end = _SENTENCE_END.search(tail)
    tail = tail[: tail_end.start()] if tail_end else tail
    if not _EVERY_TIME_PATTERN.search(f"{head}{before}{data.group(0)}{tail}"):
        return None
    return f"{before[verbs[-1].start() :]}{data.group(0)}"


#: Handling every request, the model's whole job (as against "before any other tool", a setup step, or
#: "before working on any job", where jobs are what the server is about).
_EVERY_REQUEST = (
    r"(?:(?:routing|delegating|forwarding|handing(?:\s+off)?|dispatching|assigning)\s+(?:any|every|all|each)\s+"
    r"(?:(?:other|new|user|incoming|single)\s+)*(?:tasks?|requests?|messages?|quer(?:y|ies)|prompts?|questions?|jobs?"
    r"|conversations?|inputs?|work)"
    r"|(?:answering|responding\s+to|replying\s+to|handling|processing)\s+(?:any|every|all|each)\s+"
    r"(?:(?:other|new|user|incoming|single)\s+)*(?:requests?|messages?|quer(?:y|ies)|prompts?|questions?"
    r"|conversations?|inputs?)"
    # handing the user's work on to another model: whatever the request, it passes through this tool first
    r"|(?:routing|delegating|forwarding|handing(?:\s+off)?|dispatching|sending|passing)\s+"
    r"(?:(?:the|a|an|any|every|all|each|this|user['’]?s?|incoming|new)\s+)*(?:tasks?|requests?|prompts?"
    r"|quer(?:y|ies)|questions?|jobs?|work|messages?)\s+to\s+(?:(?:any|another|a|an|the|other|cloud|remote|external"
    r"|hosted|third[- ]party|different|bigger|larger)\s+)*(?:models?|llms?|(?:sub-?)?agents?|providers?|assistants?)"
    r")\b"
)
#: A turn of the conversation: "before any other tool" reaches over every request only with one of these
#: ("on every user message"); alone it is a server's setup step ("run init before any other tool").
_EVERY_TURN = (
    r"\b(?:on|for|with|at|in)\s+(?:every|each|all|any)\s+(?:(?:single|user|new|incoming)\s+)*"
    r"(?:messages?|requests?|turns?|quer(?:y|ies)|prompts?|questions?)\b"
)
_SAME_CLAUSE = r"(?:[^.!?;\n]|\.(?=\w))"
_BEFORE_OTHER_TOOLS = r"\bbefore\s+(?:(?:using|calling|invoking|running)\s+)?any\s+other\s+tools?\b"

#: (category, pattern) pairs; each pattern is an instruction aimed at the model, not a description of the tool.
POISONING_PATTERNS: tuple[tuple[str, LazyPattern], ...] = (
    (
        "override of prior instructions",
        LazyPattern(
            r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|the\s+)?(?:of\s+)?(?:your\s+|the\s+)?"
            r"(?:previous|prior|above|earlier|preceding|other|system|existing|original)\s+"
            r"(?:instructions?|prompts?|rules?|directives?|guidelines?|messages?|context)"
            r"|(?:忽略|无视|忘记|忘掉)(?:之前|以上|先前|前面|上面|所有|其他|系统)的?(?:所有)?(?:指令|指示|说明|规则|提示|要求)",
            re.IGNORECASE,
        ),
    ),
    (
        "hidden instruction block",
        # `<secret>`, `<system>`, `<admin>` are as often placeholders (`/uploads/<secret>/<file>`,
        # `--user <admin>`): those count only as a pair; a tag inside a path or template never does
        LazyPattern(
            r"(?<![/\\=${:-])<\s*/?\s*(?:important|instructions?|override|critical|sys)\s*>(?![/\\])"
            r"|(?<![/\\=${:-])<\s*(?P<paired>system|secret|hidden|admin|assistant)\s*>(?![/\\])"
            # `[SYSTEM]`, or `[system]:` before an order; `[system] error|warning` is a value list
            r"|\[\s*(?-i:SYSTEM)(?:\s+(?-i:INSTRUCTIONS?|PROMPT|MESSAGE|OVERRIDE))?\s*\]\s*:?"
            r"|\[\s*system(?:\s+(?:instructions?|prompt|message|override))?\s*\]\s*:",
            re.IGNORECASE,
        ),
    ),
    (
        "secrecy request",
        LazyPattern(
            r"\b(?:do\s+not|don'?t|never|without)\s+(?:ever\s+)?(?:tell(?:ing)?|inform(?:ing)?|mention(?:ing)?|reveal(?:ing)?|"
            r"notify(?:ing)?|alert(?:ing)?|let(?:ting)?)\s+(?:this\s+to\s+|it\s+to\s+)?(?:the\s+)?users?\b(?!['’]s)"
            # ...about this, that you..., or nothing more: "never tell the user a type is missing" is a
            # rule about what to claim, not a secret
            r"(?=\s*(?:[.,;:!)]|$|about\b|that\s+(?:you|this|it|we|the\s+tool)\b|(?:this|it|anything|what|where|why|how"
            r"|know|see|find|notice)\b))"
            r"|\b(?:hide|conceal|keep)\s+(?:this|it|these\s+\w+)\s+(?:secret\s+)?from\s+the\s+user\b"
            r"|\bthe\s+user\s+(?:must|should)\s+(?:not|never)\s+(?:know|see|be\s+told|find\s+out)\b"
            r"|\bkeep\s+(?:this|it)\s+(?:a\s+)?secret\b"
            r"|\b(?:do\s+not|don'?t|never)\s+(?:mention|tell|reveal|disclose)\s+(?:that\s+you|anything\s+about\s+th)"
            r"|不要(?:告诉|通知|提醒)用户|不要让用户(?:知道|看到|发现)|对用户保密|向用户隐瞒|不要向用户(?:透露|提及|显示|说明)",
            re.IGNORECASE,
        ),
    ),
    (
        "reading credentials or dotfiles",
        # an order to read or hand over a secret file: a verb aimed at the model before the path, or one
        # that moves its contents after it. A path named as a default or an example ("key file, e.g.
        # ~/.ssh/id_rsa") and a tool's own config file (`~/.acme-mcp.json`) are not secrets being taken.
        LazyPattern(
            rf"\b(?:{_TAKING_VERBS})\b{_SAME_SENTENCE}{{0,60}}?\s(?<!\binto\s)(?<!\bto\s)(?<!\bonto\s)(?<!\bin\s)\S*?"
            rf"(?:{_SECRET_PATHS})"
            rf"|(?:{_SECRET_PATHS}){_SAME_SENTENCE}{{0,60}}?\b(?:pass|send|include|attach|upload|exfiltrate|paste|append|"
            r"embed|put|forward|post)(?:e?[sd]|ing)?\b(?:\s+(?:it|them|its\s+contents?))?\s+(?:as|in|into|to|with)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "instructions about other tools",
        LazyPattern(
            r"\b(?:when|whenever|every\s+time)\s+(?:you\s+|the\s+(?:assistant|model|agent|ai)\s+)?"
            r"(?:call|use|invoke|run)(?:s|ing)?\s+(?:any|another|other|the\s+other|all)\s+(?:\w+\s+)?tools?\b"
            r"|\b(?:all|any|every)\s+(?:other\s+)?tools?\s+(?:must|should|shall)\b"
            r"|\b(?:change|modify|override|redirect|hijack|alter)s?\s+(?:the\s+)?behaviou?r\s+of\s+(?:the\s+|any\s+|all\s+|other\s+)"
            r"|\b(?:send|forward|bcc|cc|redirect)\s+(?:a\s+copy\s+of\s+)?(?:all\s+|every\s+)?(?:emails?|messages?)\s+"
            r"(?:\w+\s+){0,3}to\s+[\w.+-]+@[\w-]+\.[\w.]+"
            r"|(?:调用|使用)(?:任何|其他|其它|所有)(?:的)?工具(?:之前|前|时|后)|所有(?:其他|其它)?工具(?:都)?(?:必须|应该|需要)",
            re.IGNORECASE,
        ),
    ),
    (
        "exfiltration of user data",
        # anchored on the data; `_moves_user_data` then asks for an order to move it, on every turn or
        # silently: a tool that saves or shares a conversation when asked has no such trigger
        LazyPattern(rf"{_USER_DATA}|{_USER_INPUT_OUT}", re.IGNORECASE),
    ),
    (
        "priority steering",
        # an order to go through this tool before, or instead of, whatever the model does for any request;
        # "about <topic>" after it scopes the order to the tool's own domain
        LazyPattern(
            rf"{_BEFORE_OTHER_TOOLS}{_SAME_CLAUSE}{{0,80}}?{_EVERY_TURN}|{_EVERY_TURN}{_SAME_CLAUSE}{{0,80}}?"
            rf"{_BEFORE_OTHER_TOOLS}"
            rf"|\b(?:before|prior\s+to|instead\s+of|ahead\s+of)\s+{_EVERY_REQUEST}"
            r"(?!\s+(?:about|regarding|concerning|involving|related|relating|on|for|that|which|in\s+this)\b)"
            r"|\b(?:prefer(?:red)?|priority|precedence|priorit[iy][sz]ed?)\b[^.!?\n]{0,40}\b(?:over|above|to)\s+"
            r"(?:any|all|every)\s+other\s+(?:tools?|models?|agents?|servers?|assistants?|functions?)\b"
            r"|\b(?:must|always)\s+(?:be\s+)?(?:use|used|call|called|invoke|invoked|run)\s+(?:\w+\s+){0,3}?"
            r"(?:for|on)\s+(?:any|all|every|each)\s+(?:(?:user|incoming|new)\s+)?(?:tasks?|requests?|messages?|quer(?:y|ies)"
            r"|prompts?|questions?)\b(?!\s+(?:about|regarding|concerning|involving|related|relating|on|for|that|which)\b)",
            re.IGNORECASE,
        ),
    ),
    (
        "role or prompt manipulation",
        LazyPattern(
            r"\byou\s+are\s+now\b|\bnew\s+instructions?\s*:|\b(?:reveal|print|output|repeat|leak|show)\s+(?:me\s+)?"
            r"(?:your|the)\s+(?:system\s+prompt|hidden\s+instructions|initial\s+instructions)"
            r"|\b(?:these|this|the\s+following)\s+(?:instructions?|rules?)\s+(?:take|takes|have|has)\s+"
            r"(?:precedence|priority)\b|你现在是|新的指令[:：]",
            re.IGNORECASE,
        ),
    ),
)


def poisoning_matches(text: str) -> list[tuple[str, str]]:
    """(category, matched text) for each tool-poisoning pattern found in the text.

    A credentials/dotfile mention preceded by a negation ("cannot read ~/.ssh") is a restriction,
    not an instruction, and is skipped.
    """
    scan = _scan_for_poisoning_cached if len(text) <= _CACHED_TEXT_CHARS else _scan_for_poisoning
    return list(scan(text))


def _scan_for_poisoning(text: str) -> tuple[tuple[str, str], ...]:
    found: list[tuple[str, str]] = []
    lowered = text.lower()
    if len(lowered) == len(text) and not any(map(lowered.__contains__, _ALL_TRIGGERS)):
        return ()  # no trigger word anywhere: no pattern can match (one scan instead of one per trigger)
    closed: frozenset[str] | None = None  # tags closed somewhere in the text, found once if a pairable tag opens
    opens_section = _OPENING_INSTRUCTIONS.match(text) is not None

    def instruction(category: str, match: re.Match[str]) -> str | None:
        """The text to quote when the match is an instruction, else None."""
        nonlocal closed
        if category == "exfiltration of user data":
            return _moves_user_data(text, match)
        if category == "reading credentials or dotfiles":
            if _NEGATION_BEFORE.search(text[max(0, match.start() - 60) : match.start()]):
                return None
        elif category == "hidden instruction block" and match.group(0).startswith("<") and _SECTION_TAG.search(text):
            return None
        elif category == "hidden instruction block" and "instruction" in match.group(0).lower() and opens_section:
            return None  # a description written as an `<instructions>` section from its first character
        elif match.groupdict().get("paired"):
            if closed is None:
                closed = frozenset(tag.lower() for tag in _CLOSING_TAG.findall(text))
            if match.group("paired").lower() not in closed:
                return None
        return match.group(0)

    for category, pattern in POISONING_PATTERNS:
        # lower() may change the length of rare characters (`İ`): then offsets differ, so read everything
        windows = (
            _trigger_windows(lowered, _POISONING_TRIGGERS[category]) if len(lowered) == len(text) else [(0, len(text))]
        )
        for window in windows:
            quoted = next(filter(None, (instruction(category, m) for m in pattern.finditer(text, *window))), None)
            if quoted is not None:
                found.append((category, quoted))
                break
    return tuple(found)


#: Section tags of a description written as structured prompt sections (`<use_case>`, `<workflow>`,
#: `<important_notes>`): there an `<instructions>` section is structure, not a hidden block.
_SECTION_TAG = LazyPattern(
    r"<\s*(?:[a-z]+_[a-z_]+|workflow|examples?|usage|notes|returns|parameters|guidelines|steps|overview|summary)\s*>",
    re.IGNORECASE,
)


_OPENING_INSTRUCTIONS = LazyPattern(r"\s*<\s*instructions?\s*>", re.IGNORECASE)


_CLOSING_TAG = LazyPattern(r"<\s*/\s*(system|secret|hidden|admin|assistant)\s*>", re.IGNORECASE)


#: SL601 reads every description and title, and parameter descriptions recur across tools: a short text
#: is scanned once per run (a long one is scanned each time rather than kept alive by the cache)
_CACHED_TEXT_CHARS = 2_000
_scan_for_poisoning_cached = lru_cache(maxsize=4096)(_scan_for_poisoning)


#: Literal words without which a category's pattern cannot match: the patterns run only in windows
#: around them, so a huge description is scanned at the speed of `str.find`.
_POISONING_TRIGGERS: dict[str, tuple[str, ...]] = {
    "override of prior instructions": ("ignore", "disregard", "forget", "override", "bypass", "忽略", "无视", "忘"),
    "hidden instruction block": ("<", "["),
    "secrecy request": ("user", "secret", "mention", "disclose", "用户"),
    "reading credentials or dotfiles": tuple(
        "~/ .ssh id_ .aws /etc/ mcp.json claude_desktop wallet.dat $home %userprofile%".split()
    ),
    "instructions about other tools": ("tool", "mail", "behavio", "message", "工具"),
    "exfiltration of user data": tuple(
        "always before after whenever time each every silently quietly secretly covertly without background".split()
    ),
    "priority steering": ("before", "prior", "instead", "ahead", "prefer", "priorit", "precedence", "must", "always"),
    "role or prompt manipulation": ("you are now", *"instruction prompt precedence priority 你现在是 指令".split()),
}
#: every trigger, looked for one by one with `str.__contains__`: faster than one regex alternation
_ALL_TRIGGERS = tuple(dict.fromkeys(t for triggers in _POISONING_TRIGGERS.values() for t in triggers))
_WINDOW = 300


def _trigger_windows(lowered: str, triggers: tuple[str, ...]) -> list[tuple[int, int]]:
    """Merged (start, end) spans of `_WINDOW` characters either side of every trigger occurrence."""
    spans: list[tuple[int, int]] = []
    for trigger in triggers:
        position = lowered.find(trigger)
        while position != -1:
            spans.append((max(0, position - _WINDOW), position + len(trigger) + _WINDOW))
            position = lowered.find(trigger, position + _WINDOW)
    spans.sort()
    merged_spans: list[tuple[int, int]] = []
    for start, end in spans:
        if merged_spans and start <= merged_spans[-1][1]:
            merged_spans[-1] = (merged_spans[-1][0], max(end, merged_spans[-1][1]))
        else:
            merged_spans.append((start, end))
    return merged_spans


#: (first, last code point, what it is) of the characters SL602 reports
_HIDDEN: tuple[tuple[int, int, str], ...] = (
    (0x200B, 0x200B, "zero-width space"),
    (0x200C, 0x200C, "zero-width non-joiner"),
    (0x200D, 0x200D, "zero-width joiner"),
    (0x2060, 0x2064, "word joiner / invisible operator"),
    (0xFEFF, 0xFEFF, "zero-width no-break space (BOM)"),
    (0x180E, 0x180E, "Mongolian vowel separator"),
    (0x00AD, 0x00AD, "soft hyphen"),
    (0x034F, 0x034F, "combining grapheme joiner"),
    (0x115F, 0x1160, "Hangul filler"),
    (0x3164, 0x3164, "Hangul filler"),
    (0x200E, 0x200F, "bidi mark"),
    (0x061C, 0x061C, "Arabic letter mark"),
    (0x202A, 0x202E, "bidi embedding/override"),
    (0x2066, 0x2069, "bidi isolate"),
    (0xE0000, 0xE007F, "Unicode tag character"),
    (0xE0100, 0xE01EF, "variation selector supplement"),
    # a decoded string holds one only from an escape such as `\\ud800` with no partner: no UTF-8 encodes it
    (0xD800, 0xDFFF, "lone surrogate"),
)
_HIDDEN_CHAR = LazyPattern(
    "[" + "".join(f"{re.escape(chr(low))}-{re.escape(chr(high))}" for low, high, _ in _HIDDEN) + "]",
    needs_non_ascii=True,
)


def _is_emoji(char: str) -> bool:
    code = ord(char)
    return code >= 0x1F000 or 0x2600 <= code <= 0x27BF or code == 0xFE0F


def _joins_script(char: str) -> bool:
    """Scripts where ZWNJ/ZWJ are ordinary spelling (Arabic, Persian, Indic, Sinhala...)."""
    code = ord(char)
    return 0x0600 <= code <= 0x08FF or 0x0900 <= code <= 0x0DFF or 0xFB50 <= code <= 0xFEFC


def hidden_characters(text: str) -> list[tuple[int, str, str]]:
    """(index, U+XXXX, kind) of each invisible or direction-changing character in the text.

    A zero-width joiner inside an emoji sequence, ZWNJ/ZWJ between letters of scripts that use
    them in ordinary spelling, and a BOM at the very start are legitimate and not reported.
    """
    found: list[tuple[int, str, str]] = []
    for match in _HIDDEN_CHAR.finditer(text):  # ASCII text is answered unscanned; others: one C-speed scan
        index, code = match.start(), ord(match.group())
        kind = next(k for low, high, k in _HIDDEN if low <= code <= high)
        before = text[index - 1] if index > 0 else ""
        after = text[index + 1] if index + 1 < len(text) else ""
        if code == 0x200D and before and after and _is_emoji(before) and _is_emoji(after):
            continue
        if code in (0x200C, 0x200D) and before and after and (_joins_script(before) or _joins_script(after)):
            continue
        if code == 0xFEFF and index == 0:
            continue
        found.append((index, f"U+{code:04X}", kind))
    return found
