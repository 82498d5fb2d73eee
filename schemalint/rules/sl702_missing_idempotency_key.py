from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.lazy_pattern import LazyPattern
from schemalint.model import Severity, Tool, is_mapping
from schemalint.rules._retries import has_idempotency_key, states_safe_retry
from schemalint.rules.base import LintContext, ToolRule, rule_options, vocabulary
from schemalint.text import ALL_VERBS, action_verb, analysed, hands_off, split_name, word_set

#: verbs whose repetition does something twice: a second order, payment, message or booking
REPEAT_UNSAFE_VERBS = word_set(
    """
    create post send email notify publish submit pay charge refund transfer withdraw deposit book reserve
    purchase buy sell place mint swap stake schedule enqueue dispatch
    """
)
#: a description that says the write lands on what exists: "create or update", "creates the file or overwrites
#: it", "if the folder already exists, nothing happens"
_UPSERT_TEXT = LazyPattern(
    r"""
    \bupsert | \b(?:create|add|insert|save|write|set|put)s?\b(?:\s+[\w-]+){0,4}?,?\s+or\s+(?:\w+ly\s+)?(?:update|replace|overwrite)
    | \bif\s+(?:it|one|they|the\s+[\w-]+|an?\s+[\w-]+)\s+(?:already\s+)?exists?\b[^.;]{0,40}?
      (?:updated|replaced|overwritten|returned|reused|succeeds?|nothing|no-?op|unchanged)
    | \b(?:unless|if)\s+(?:it|they|one)\s+(?:does\s+not|doesn't|do\s+not|don't)\s+(?:already\s+)?exist
    | \b(?:does\s+not|doesn't|do\s+not|don't)\s+already\s+exist
    """,
    re.VERBOSE | re.IGNORECASE,
)


#: what a `publish_draft_note` or `submit_pending_review` acts on: a repeat finds it done
_PENDING_WORDS = word_set("draft drafts pending")
#: what a `create` makes that expires by itself: a repeat leaves a second one to lapse, nothing to undo
_THROWAWAY_OBJECTS = word_set("session sessions preview previews")
_THROWAWAY_TEXT = LazyPattern(r"\b(?:temporary|short-lived|ephemeral|expiring|one-time)\b", re.IGNORECASE)


@rule_options
class Options:
    verbs: tuple[str, ...] = tuple(sorted(REPEAT_UNSAFE_VERBS))
    """Action verbs that do something again when the call is repeated (replaces the default list)."""
    extend_verbs: tuple[str, ...] = ()
    """Verbs added to `verbs`."""


class MissingIdempotencyKey(ToolRule):
    """
    ## What it does
    Flags a tool that creates, pays, sends or books something (its name's action verb: `create`,
    `send`, `pay`, `charge`, `book`, `submit`, `place`, ...) when it takes no idempotency key (a
    parameter such as `idempotency_key`, `client_request_id`, `dedupe_key`, `clientToken`), its
    description does not say that retries are safe ("idempotent", "safe to retry", "deduplicated",
    "幂等"), and no MCP `idempotentHint: true` says so.

    ## Why is this bad?
    Calls are retried: by the model after a timeout or an unclear error, by the agent loop, by the
    client's network layer. Without a key that lets the server recognise the second attempt, a
    retry books a second room or charges the card twice. A key the model passes unchanged on retries
    (or a documented guarantee) makes a retry safe; the guide's advice for every write that is not
    naturally idempotent.

    ## Example
    ```json
    {"name": "create_payment", "description": "Charges the customer's saved card.", "parameters": {"type": "object", "properties": {"amount_cents": {"type": "integer"}}}}
    ```

    ## Use instead
    ```json
    {"name": "create_payment", "description": "Charges the customer's saved card.", "parameters": {"type": "object", "properties": {"amount_cents": {"type": "integer"}, "idempotency_key": {"type": "string", "description": "A new UUID per payment; reuse it when retrying."}}}}
    ```

    ## Trade-off
    Updates, deletes, upserts (`create_or_update_*`, or a description saying "create or update",
    "overwrites an existing file", "if it already exists, nothing happens") and `set_*` tools are left
    alone: repeating them leaves the same state. So is publishing or submitting a draft or pending
    thing (`publish_draft_note`), or publishing what exists by its id (`publish_article(article_id)`): a
    repeat finds it done. So is a hand-off to a person
    (`transfer_to_human_agents`): nothing is moved or bought. So are `add_*`/`insert_*` edits of a document, which a key would not make
    safer, and a `create_*` whose caller names the new thing (a required `name` or file path, or `branch`
    for `create_branch`, the new thing's id or `uuid`): a repeat finds it exists. So is a `create_*` of something that expires by itself
    (a session, a preview, "a temporary link"), and a tool whose description opens with a reading verb and
    names no such action ("Retrieve the items in stock" under a `purchase` name). Only the top-level
    parameters are searched for a key; one of any name counts when its description says a repeat is not
    processed twice.

    ## Fix safety
    No automatic fix: the server has to honour the key.
    """

    severity = Severity.WARNING
    summary = "a tool that creates, pays, sends or books takes no idempotency key and says nothing of retries"
    Options = Options

    unsafe_verbs = vocabulary("verbs", "extend_verbs")

    def _described_as_a_read(self, description: str | None) -> bool:
        """`walmart.purchase`: "Retrieve information of items..." The description opens with a reading verb and
        goes on to no repeat-unsafe action: the name overstates what the tool does."""
        words = _WORD.findall(analysed(description).lower())
        if not words or words[0] not in _READ_OPENERS:
            return False
        # a verb after "and", "then", "to": "Check availability and reserve a table"; not the noun in "the match
        # schedule"
        return not any(
            before in _VERB_LEADS and not self.unsafe_verbs.isdisjoint(_stems(word))
            for before, word in itertools.pairwise(words)
        )

    def check(self, tool: Tool, context: LintContext) -> Iterable[Finding]:
        words = split_name(tool.name or "")
        verb = action_verb(words, ALL_VERBS | self.unsafe_verbs)
        if verb not in self.unsafe_verbs or hands_off(words) or _finishes_pending(verb, words):
            return
        if (verb == "publish" and _names_an_existing_one(tool)) or self._described_as_a_read(tool.description):
            return
        if (
            has_idempotency_key(tool)
            or _is_upsert(words, tool.description)
            or (
                verb == "create"
                and (_names_what_it_creates(tool, words) or _creates_throwaway(words, tool.description))
            )
        ):
            return
        if states_safe_retry(tool):
            return
        yield Finding(
            f"`{tool.display_name}` does something again on every retry (`{verb}`) but takes no idempotency key; "
            "add an `idempotency_key` parameter the caller reuses on retries, or say why repeating is safe",
            tool.name_pointer or tool.pointer,
            data={"tool": tool.name, "verb": verb},
        )


_WORD = LazyPattern(r"[a-z]+")
_VERB_LEADS = word_set("and then to or also will")
#: verbs a description of a read opens with (not `generate`, `render`: those make something)
_READ_OPENERS = word_set(
    "get gets list lists search searches find finds fetch fetches look looks retrieve retrieves "
    "show shows view count counts calculate calculates compute computes"
)


def _stems(word: str) -> set[str]:
    """The word and its possible base forms: `books` `booked` `booking` -> `book`, `charges` `charged` `charging`
    -> `charge` (enough to find a verb of the list in a description)."""
    stems = {word}
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            stems.update((word[: -len(suffix)], word[: -len(suffix)] + "e"))
    return stems


def _names_an_existing_one(tool: Tool) -> bool:
    """`publish_article(article_id)`: publishing what exists, named by its id, leaves it published on a repeat.
    The id must be of the thing the name publishes: a topic's id in `publish_message` names where a new message
    goes."""
    required = tool.parameters.get("required") if is_mapping(tool.parameters) else None
    if not isinstance(required, list):
        return False
    published = set(split_name(tool.name or "")) - {"publish"}
    return any(
        isinstance(name, str)
        and split_name(name)[-1:] in (("id",), ("ids",))
        and not published.isdisjoint(split_name(name)[:-1])
        for name in required
    )


def _is_upsert(words: tuple[str, ...], description: str | None) -> bool:
    """`create_or_update_file`, `upsert_record`, "creates the label, or updates it if it exists": a repeat writes
    the same state again."""
    named = "upsert" in words or ("or" in words and bool({"update", "replace", "overwrite"} & set(words)))
    return named or _UPSERT_TEXT.search(analysed(description)) is not None


def _finishes_pending(verb: str, words: tuple[str, ...]) -> bool:
    """`publish_draft_note`, `send_draft`, `submit_pending_review`: what exists is moved on, a repeat finds it done
    (creating a draft is no such thing)."""
    return verb != "create" and not _PENDING_WORDS.isdisjoint(words)


def _creates_throwaway(words: tuple[str, ...], description: str | None) -> bool:
    """`create_upload_session`, `create_preview`, "creates a temporary login link": it lapses by itself."""
    return bool(_THROWAWAY_OBJECTS.intersection(words)) or _THROWAWAY_TEXT.search(description or "") is not None


_PREPOSITIONS = word_set("from with in for to by on")


def _names_what_it_creates(tool: Tool, words: tuple[str, ...]) -> bool:
    """`create_branch(branch)`, `create_table(table_name)`, `create_repository(name)`: the caller names the new
    thing, so a repeat finds it exists instead of making a second one."""
    required = tool.parameters.get("required") if is_mapping(tool.parameters) else None
    if not isinstance(required, list) or not words:
        return False
    # `create_page_from_template`: the page is created, the template only read
    cut = next((i for i, word in enumerate(words) if word in _PREPOSITIONS and i > 1), len(words))
    created = words[cut - 1]
    for name in required:
        parameter = split_name(name) if isinstance(name, str) else ()
        if parameter in (("name",), ("path",), ("filename",), ("file", "path"), ("filepath",), ("uuid",), ("guid",)):
            return True
        if created in parameter and parameter[-1] in {created, "name", "id", "uuid", "key", "slug"}:
            return True
    return False
