"""What separates two tools' jobs, read from their names, descriptions and parameters.

Two tools of one server share a domain, and so a vocabulary: embeddings rate `list_group_members`
and `list_member_groups`, or `get_order` and `list_orders`, as near-duplicates. A model does not
confuse them when the names and texts draw the line, so SL502 discounts a pair by the strongest
separating signal it finds (`job_factor`, in (0, 1]; 1 when nothing separates the jobs):

- opposite actions in the names (`encode`/`decode`, `fade_in`/`fade_out`, `register`/`deregister`);
- an inverse lookup: the same object words in another order (`user_groups` / `group_users`);
- one against many: the same words, one name plural or batch (`delete_file` / `delete_files`),
  stronger when the texts or the parameters say so too;
- reading one thing against listing or searching many (`get_order` / `list_orders`, also
  `get_orders` / `list_orders`);
- listing all against searching by a query, when the list takes no query (`list_recipes` /
  `search_recipes`);
- another action on the same object: names that differ only in a verb, and not by synonyms
  (`create_view` / `update_view`, `http_get` / `http_post`, `copy_sheet` / `create_sheet`);
- other objects: the names share an object word and one has an object word the other lacks
  (`purchase_orders` / `sales_orders`, `get_issue` / `get_issue_comments`, `add_issue_reaction`
  / `add_comment_reaction`);
- other objects named apart under the same verb (`create_branch` / `create_repository`), also
  when one name has no verb and its description opens with the other's (`hours_in_shift`: "Get ...");
- a lone verb whose description never names the other's object (`verify` / `verify_signature`);
- a draft against the action: one name prepares or tries out the action (`draft`, `preview`,
  `simulate`), the other does it (`create_reply_draft` / `reply_message`);
- a new item against an existing one: one tool requires only ids, the other requires content
  (`post_tweet(text)` / `retweet(tweet_id)`);
- paging: one tool pages through results (`page`, `cursor`, `offset`), the other does not;
- inputs: names that share an object word, and required parameters that share no name.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, NamedTuple

from schemalint.similarity.actions import (
    UMBRELLA_VERBS,
    VERBS,
    are_opposite,
    are_synonyms,
    identifier_words,
    tool_action,
)

OPPOSITE = 0.1
INVERSE = 0.15
ONE_VS_MANY_STATED = 0.3
ONE_VS_MANY = 0.6
ONE_VS_LIST = 0.35
LIST_VS_SEARCH = 0.8
UNFILTERED_LIST_VS_SEARCH = 0.45
OTHER_ACTION = 0.45
OTHER_OBJECT = 0.45
PAGED_VS_NOT = 0.45
DRAFT_VS_ACTION = 0.3
NEW_VS_EXISTING = 0.7
DISJOINT_INPUTS = 0.6
READS_WHAT_OTHER_DOES = 0.3

#: word pairs that flip a name's meaning without being verbs of their own
_PARTICLES = frozenset(
    frozenset(pair.split(":"))
    for pair in (
        "in:out on:off up:down to:from start:end begin:end before:after push:pull enter:exit "
        "open:close open:closed show:hide min:max first:last next:previous next:prev forward:backward "
        "inbound:outbound incoming:outgoing input:output sent:received buy:sell bid:ask "
        "encode:decode encrypt:decrypt serialize:deserialize compress:decompress import:export "
        "upload:download load:save read:write get:set add:remove attach:detach credit:debit "
        "horizontal:vertical left:right zoom_in:zoom_out follower:following followers:following undo:redo"
    ).split()
)
#: verbs that are no nouns: after a prefix word (`wiki_get_page_count`) one is the name's verb
_PLAIN_VERBS = frozenset("get fetch retrieve read create update delete remove add upload download execute send".split())
_ONE_VERBS = frozenset("get fetch retrieve read show view describe inspect".split())
_LIST_VERBS = frozenset("list enumerate browse".split())
_SEARCH_VERBS = frozenset("search query filter".split())
_BATCH_WORDS = frozenset("batch bulk multiple many all several multi mass".split())
#: words a name adds without naming another object (`get_order_details` is still the order)
_NEUTRAL_WORDS = frozenset(
    "details detail info information data by id ids for of the a an my all current new tool item items "
    "entry entries record records resource resources one single "
    # qualifiers of time and ownership narrow a request without naming another object
    "my own open current latest recent today todays now".split()
)
#: words that add a detail to the result, not another object: `list_folder_with_dates` still lists the folder
_DETAIL_WORDS = frozenset("with including incl plus".split())
#: a name's general nouns: not another object beside a specific one, but the object of a name that has no other
_GENERAL_NOUNS = frozenset("record item entry resource".split())
#: words that make a tool prepare or try out an action instead of doing it (`create_reply_draft` / `reply`)
_DRAFT_WORDS = frozenset("draft preview dryrun simulate".split())
#: parameter names that filter a list by free text, as a search does
_QUERY = frozenset("query q search search_query search_term term keyword keywords text filter".split())
#: parameter names that page through many results
_PAGING = frozenset("page per_page page_size cursor offset page_token next_token next_page_token".split())
_MANY_TEXT = re.compile(
    r"\b(multiple|several|many|batch|bulk|list of|array of|set of|at once|in one call"
    r"|all (?:the )?(?:[\w-]+ ){0,3}[\w-]+s\b)",  # "all the open items", "all pending to-do items"
    re.IGNORECASE,
)
_ONE_TEXT = re.compile(r"\b(a single|one|single|an? specific|by (?:its )?id|given id)\b", re.IGNORECASE)


#: plurals that name one thing (`get_mailbox_settings` reads one mailbox's settings)
_ONE_THING_PLURALS = frozenset("settings preferences details stats statistics analytics metrics".split())


def singular(word: str) -> str:
    """`orders` -> `order`, `entries` -> `entry`, `addresses` -> `address`; short words and words that
    name one thing (`settings`) stay."""
    if len(word) <= 3 or word.endswith(("ss", "us", "is")) or word in _ONE_THING_PLURALS:
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes", "zes")):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


class NameShape(NamedTuple):
    """A name's words, singular, in order; which were plural; the verb words and the object words."""

    words: tuple[str, ...]
    plural: frozenset[str]
    verbs: tuple[str, ...]
    objects: tuple[str, ...]


@lru_cache(maxsize=65536)
def name_shape(name: str) -> NameShape:
    raw = identifier_words(name)
    words = tuple(singular(w) for w in raw)
    # a name's verb leads it (`get_issue`), starts a camelCase part after a prefix (`jira_getIssue`),
    # follows one prefix word when it is no noun (`jira_get_issue_count`) or, failing that, ends it
    # (`issue_write`); any other word is a noun, even one that can be a verb (`delete_file`,
    # `get_tweet`, `get_release_by_tag`, `linear_archiveInitiativeUpdate`, `pull_request_review_write`)
    slot = 0 if raw and raw[0] in VERBS else _camel_verb(name, raw)
    if slot is None and len(raw) > 2 and raw[1] in _PLAIN_VERBS:
        slot = 1
    if slot is None and len(raw) > 1 and raw[-1] in VERBS:
        slot = len(raw) - 1
    verbs = (raw[slot],) if slot is not None else ()
    # the words before a verb inside the name are its namespace (`users_get_current` reads one user)
    first = slot + 1 if slot is not None and slot < len(raw) - 1 else 0
    plural = frozenset(s for w, s in zip(raw[first:], words[first:], strict=True) if w != s)
    detail = next((position for position, w in enumerate(raw) if w in _DETAIL_WORDS), len(raw))
    objects = tuple(s for position, s in enumerate(words[:detail]) if position != slot and not _neutral(s))
    if not objects:  # `create_record` acts on records, not on nothing
        objects = tuple(s for position, s in enumerate(words) if position != slot and s in _GENERAL_NOUNS)
    return NameShape(words, plural, verbs, objects)


_VERSION = re.compile(r"v\d+")


def _neutral(word: str) -> bool:
    """Words that name no object: `details`, `by_id`, and version tags (`v1`)."""
    return word in _NEUTRAL_WORDS or _VERSION.fullmatch(word) is not None


_CAMEL_PART = re.compile(r"(?:^|[_\-. ])([a-z]+)[A-Z0-9]")


def _camel_verb(name: str, words: tuple[str, ...]) -> int | None:
    """The position in `words` of the verb that starts a camelCase part of `name` (`getIssue`)."""
    for match in _CAMEL_PART.finditer(name):
        head = match.group(1)
        if head in VERBS:
            before = len(identifier_words(name[: match.start(1)]))
            return before if before < len(words) and words[before] == head else None
    return None


def _opposed(left: frozenset[str], right: frozenset[str]) -> bool:
    return any(frozenset((x, y)) in _PARTICLES or are_opposite(x, y) for x in left for y in right)


def _read_mode(shape: NameShape, other: NameShape) -> str | None:
    """`one`, `list` or `search` for a name that reads, else None."""
    verb = shape.verbs[0] if shape.verbs else None
    if verb in _LIST_VERBS:
        return "list"
    if verb in _SEARCH_VERBS:
        return "search"
    # a plural object ("get_orders", "show_conditions") may be a list or a mass noun, unless the
    # other name is the same but for its verb (`get_orders` / `list_orders`)
    one = not shape.plural & set(shape.objects) or _swapped_verbs(shape, other) is not None
    if verb in _ONE_VERBS and shape.objects and not _BATCH_WORDS & set(shape.words) and one:
        return "one"
    return None


def _swapped_verbs(a: NameShape, b: NameShape) -> tuple[str, str] | None:
    """The two verbs when the names differ in one word only, a verb on both sides."""
    if len(a.words) != len(b.words):
        return None
    differing = [(x, y) for x, y in zip(a.words, b.words, strict=True) if x != y]
    if len(differing) != 1 or not (differing[0][0] in VERBS and differing[0][1] in VERBS):
        return None
    return differing[0]


def _other_action(a: NameShape, b: NameShape) -> bool:
    """Whether the names differ only by a verb that is not a synonym (`create_view` / `update_view`)."""
    swapped = _swapped_verbs(a, b)
    return swapped is not None and not are_synonyms(*swapped)


class Separation(NamedTuple):
    factor: float
    #: what separates the jobs, for the finding's data ("" when nothing does)
    reason: str


NOTHING = Separation(1.0, "")


def job_factor(
    name_a: str,
    text_a: str,
    parameters_a: frozenset[str],
    required_a: frozenset[str],
    name_b: str,
    text_b: str,
    parameters_b: frozenset[str],
    required_b: frozenset[str],
) -> Separation:
    """The strongest signal that the two tools do different jobs (the lowest factor found)."""
    a, b = name_shape(name_a), name_shape(name_b)
    found = [NOTHING]
    only_a, only_b = frozenset(a.words) - frozenset(b.words), frozenset(b.words) - frozenset(a.words)
    if only_a and only_b and _opposed(only_a, only_b):
        found.append(Separation(OPPOSITE, "opposite actions"))
    if a.words != b.words and sorted(a.words) == sorted(b.words) and len(a.objects) >= 2:
        found.append(Separation(INVERSE, "inverse lookup"))
    found.append(_number(a, text_a, b, text_b))
    mode_a, mode_b = _read_mode(a, b), _read_mode(b, a)
    if mode_a and mode_b and mode_a != mode_b:
        if "one" in (mode_a, mode_b):
            found.append(Separation(ONE_VS_LIST, "one item against a list"))
        else:
            # a list that takes no query lists everything: looking something up is the search's job
            listing = parameters_a if mode_a == "list" else parameters_b
            factor = LIST_VS_SEARCH if listing & _QUERY else UNFILTERED_LIST_VS_SEARCH
            found.append(Separation(factor, "list against search"))
    elif _other_action(a, b):
        found.append(Separation(OTHER_ACTION, "different actions"))
    if _reads_what_other_does(a, b) or _reads_what_other_does(b, a):
        found.append(Separation(READS_WHAT_OTHER_DOES, "reads what the other one's action makes"))
    objects_a, objects_b = frozenset(a.objects), frozenset(b.objects)
    shared = objects_a & objects_b
    # `manage_playlist` covers adding a song to it, not `manage_playlist_sharing` deleting a playlist,
    # nor another umbrella tool's objects
    umbrella_a, umbrella_b = bool(UMBRELLA_VERBS & set(a.verbs)), bool(UMBRELLA_VERBS & set(b.verbs))
    umbrella = (umbrella_a and not umbrella_b and objects_a <= objects_b) or (
        umbrella_b and not umbrella_a and objects_b <= objects_a
    )
    if not umbrella and shared and objects_a != objects_b:
        # one vocabulary, and a word of the name that the other lacks: another object, or a part of it
        found.append(Separation(OTHER_OBJECT, "different objects"))
    elif not umbrella and objects_a and objects_b and not shared and _same_verb(a, name_a, text_a, b, name_b, text_b):
        # the same verb on objects named apart: the object is what the author set apart
        found.append(Separation(OTHER_OBJECT, "different objects"))
    if _unclaimed_object(a, text_a, b) or _unclaimed_object(b, text_b, a):
        found.append(Separation(OTHER_OBJECT, "different objects"))
    if bool(_DRAFT_WORDS & set(a.words)) != bool(_DRAFT_WORDS & set(b.words)):
        # one prepares the action for review, the other does it: the name says which
        found.append(Separation(DRAFT_VS_ACTION, "a draft against the action itself"))
    if required_a and required_b and _by_id(required_a) != _by_id(required_b):
        # one needs only the id of something that exists, the other the content of something new
        found.append(Separation(NEW_VS_EXISTING, "a new item against an existing one"))
    if _paged(parameters_a) != _paged(parameters_b):
        found.append(Separation(PAGED_VS_NOT, "a paged list against a single result"))
    if shared and required_a and required_b and not required_a & required_b:
        # one vocabulary, deliberately different inputs (strangers' paraphrases differ in names anyway)
        found.append(Separation(DISJOINT_INPUTS, "different required inputs"))
    return min(found, key=lambda separation: separation.factor)


_READ_VERBS = _ONE_VERBS | _LIST_VERBS | _SEARCH_VERBS


def _same_verb(a: NameShape, name_a: str, text_a: str, b: NameShape, name_b: str, text_b: str) -> bool:
    """Whether both tools do the same verb, one name at least saying it: a name without one
    (`hours_in_shift`) does the verb its description opens with ("Get the number of hours ...")."""
    if not a.verbs and not b.verbs:
        return False
    verb_a = a.verbs[0] if a.verbs else tool_action(name_a, text_a).verb
    verb_b = b.verbs[0] if b.verbs else tool_action(name_b, text_b).verb
    return verb_a == verb_b


_WORD = re.compile(r"[a-z]+")


def _unclaimed_object(bare: NameShape, text: str, scoped: NameShape) -> bool:
    """Whether a name that is a lone verb (`validate`) faces the same verb on an object (`validate_theme`)
    that its own description never names: its text says what it acts on, and that is not the other's."""
    if bare.words != bare.verbs or not scoped.objects or bare.verbs != scoped.verbs:
        return False
    named = {singular(word) for word in _WORD.findall(text.lower())}
    return not named & set(scoped.objects)


def _reads_what_other_does(reader: NameShape, doer: NameShape) -> bool:
    """Whether one name reads the things the other's verb makes or does (`list_subscriptions` /
    `subscribe`, `get_reminders` / `remind_user`): a look-up against the action itself."""
    if not reader.verbs or reader.verbs[0] not in _READ_VERBS or not doer.verbs or doer.verbs[0] in _READ_VERBS:
        return False
    verb = doer.verbs[0]
    return any(_same_root(word, verb) for word in reader.objects)


def _same_root(noun: str, verb: str) -> bool:
    """`subscription` / `subscribe`, `reminder` / `remind`, `watch` / `watch`: a shared stem."""
    stem = next((i for i, (x, y) in enumerate(zip(noun, verb, strict=False)) if x != y), min(len(noun), len(verb)))
    return stem >= 4 and stem >= 0.7 * min(len(noun), len(verb))


def _by_id(required: frozenset[str]) -> bool:
    """Whether every required input is an identifier: the tool acts on something that exists."""
    return all(identifier_words(name)[-1:] in (("id",), ("ids",)) for name in required)


def _paged(parameters: frozenset[str]) -> bool:
    return bool(parameters & _PAGING)


#: words that only say how many (`insert_one` / `insert_many`, `create_a_contact` / `create_contacts`)
_COUNT_WORDS = _BATCH_WORDS | frozenset("one single a an".split())


def _number(a: NameShape, text_a: str, b: NameShape, text_b: str) -> Separation:
    """One against many: the same words but for number, or for a batch word."""
    batch_a, batch_b = _BATCH_WORDS & set(a.words), _BATCH_WORDS & set(b.words)
    same_words = tuple(w for w in a.words if w not in _COUNT_WORDS and not _neutral(w)) == tuple(
        w for w in b.words if w not in _COUNT_WORDS and not _neutral(w)
    )
    if not same_words or (a.plural == b.plural and batch_a == batch_b):
        return NOTHING
    many_a = bool(batch_a) or bool(a.plural - b.plural)
    many_text, one_text = (text_a, text_b) if many_a else (text_b, text_a)
    if _MANY_TEXT.search(many_text) or _ONE_TEXT.search(one_text):
        return Separation(ONE_VS_MANY_STATED, "one against many")
    return Separation(ONE_VS_MANY, "one against many")


def required_names(parameters: Any) -> frozenset[str]:
    """The names a tool's parameters schema requires (none for anything else)."""
    if not isinstance(parameters, dict):
        return frozenset()
    required = parameters.get("required")
    if not isinstance(required, list):
        return frozenset()
    return frozenset(name for name in required if isinstance(name, str))
