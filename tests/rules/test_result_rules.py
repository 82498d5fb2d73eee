"""Rules about what tools return and how they are retried: SL701, SL702."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from schemalint.rules.sl701_unbounded_list_result import Options as SL701Options
from schemalint.rules.sl701_unbounded_list_result import UnboundedListResult
from schemalint.rules.sl702_missing_idempotency_key import MissingIdempotencyKey
from schemalint.rules.sl702_missing_idempotency_key import Options as SL702Options
from schemalint.testing import run_rule

from .helpers import case_id

RECORDS = {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}


def returning(output: Any, description: str = "Lists the shipments of an order.", **parameters: Any) -> dict[str, Any]:
    return {
        "name": "list_shipments",
        "description": description,
        "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}, **parameters}},
        "outputSchema": output,
    }


@pytest.mark.parametrize(
    ("output", "pointer"),
    [
        ({"type": "object", "properties": {"shipments": RECORDS}}, "/0/outputSchema/properties/shipments"),
        (RECORDS, "/0/outputSchema"),  # Gemini `response` may be an array
        ({"type": "ARRAY", "items": {"type": "OBJECT"}}, "/0/outputSchema"),
        ({"type": "object", "properties": {"result": {"type": "array", "items": {"$ref": "#/$defs/S"}}}}, None),
    ],
)
def test_sl701_flags_record_lists_with_nothing_that_bounds_them(output: Any, pointer: str | None) -> None:
    [finding] = run_rule(UnboundedListResult(), [returning(output)])
    assert pointer is None or finding.pointer == pointer


@pytest.mark.parametrize(
    "tool",
    [
        returning({"type": "object", "properties": {"shipments": RECORDS, "total_count": {"type": "integer"}}}),
        returning({"type": "object", "properties": {"shipments": RECORDS, "hasMore": {"type": "boolean"}}}),
        returning({"type": "object", "properties": {"shipments": RECORDS, "nextPageToken": {"type": "string"}}}),
        returning({"type": "object", "properties": {"shipments": {**RECORDS, "maxItems": 100}}}),
        returning(
            {"type": "object", "properties": {"shipments": RECORDS}}, page_size={"type": "integer", "maximum": 50}
        ),
        returning({"type": "object", "properties": {"shipments": RECORDS}}, "Returns the first 25 shipments."),
        returning({"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}}}}),
        returning({"type": "object", "properties": {"shipment": {"type": "object"}}}),
        {"name": "get_order", "description": "One order.", "parameters": {"type": "object"}},
    ],
)
def test_sl701_accepts_bounded_counted_or_continued_lists(tool: dict[str, Any]) -> None:
    assert run_rule(UnboundedListResult(), [tool]) == []


def test_sl701_a_required_list_input_bounds_a_result_answered_item_by_item() -> None:
    shipments = {"type": "array", "items": {"type": "object"}}
    batch = {
        "name": "create_shipments",
        "description": "Creates the shipments and returns each with its new id.",
        "parameters": {"type": "object", "properties": {"shipments": shipments}, "required": ["shipments"]},
        "outputSchema": {"type": "object", "properties": {"created": RECORDS}},
    }
    assert run_rule(UnboundedListResult(), [batch]) == []
    optional_filter = {**batch, "parameters": {"type": "object", "properties": {"carriers": shipments}}}
    assert len(run_rule(UnboundedListResult(), [optional_filter])) == 1


def test_sl701_catalogues_and_reports_on_one_given_thing_are_bounded() -> None:
    catalogue = returning({"type": "object", "properties": {"report_templates": RECORDS}})
    assert run_rule(UnboundedListResult(), [catalogue]) == []
    report = {**returning({"type": "object", "properties": {"problems": RECORDS}}), "name": "validate_pipeline"}
    assert run_rule(UnboundedListResult(), [report]) == []
    assert len(run_rule(UnboundedListResult(), [{**report, "name": "search_pipelines"}])) == 1


def test_sl701_lists_of_one_record_or_of_one_named_thing_are_its_parts() -> None:
    def output(**fields: Any) -> dict[str, Any]:
        return {"type": "object", "properties": {**fields, "parcels": RECORDS}}

    string = {"type": "string"}
    assert run_rule(UnboundedListResult(), [returning(output(id=string))]) == []  # the record's own id
    assert run_rule(UnboundedListResult(), [returning(output(orderId=string))]) == []  # the id it was given
    assert run_rule(UnboundedListResult(), [returning(output(order={"type": "object"}))]) == []
    assert len(run_rule(UnboundedListResult(), [returning(output(requestId=string))])) == 1  # not given

    required = {"type": "object", "properties": {"depot_name": string}, "required": ["depot_name"]}
    depot = {"name": "get_depot", "description": "A depot.", "parameters": required, "outputSchema": output()}
    assert run_rule(UnboundedListResult(), [depot]) == []
    assert len(run_rule(UnboundedListResult(), [{**depot, "name": "get_depots"}])) == 1
    assert len(run_rule(UnboundedListResult(), [{**depot, "parameters": {"type": "object"}}])) == 1


def test_sl701_what_a_call_found_wrong_with_its_input_is_bounded_by_it() -> None:
    for field in ("diagnostics", "errors", "parse_warnings"):
        run = {**returning({"type": "object", "properties": {field: RECORDS}}), "name": "run_script"}
        assert run_rule(UnboundedListResult(), [run]) == []


def test_sl701_an_uncapped_limit_is_not_a_bound_and_words_extend() -> None:
    uncapped = returning({"type": "object", "properties": {"shipments": RECORDS}}, limit={"type": "integer"})
    assert len(run_rule(UnboundedListResult(), [uncapped])) == 1
    with_marker = returning({"type": "object", "properties": {"shipments": RECORDS, "watermark": {"type": "string"}}})
    assert len(run_rule(UnboundedListResult(), [with_marker])) == 1
    assert run_rule(UnboundedListResult(SL701Options(extend_continuation_words=("watermark",))), [with_marker]) == []


def _examples(section: str) -> dict[str, Any]:
    docs = UnboundedListResult.docs()
    [block] = re.findall(rf"## {section}\n```json\n(.*?)\n```", docs, re.S)
    example: dict[str, Any] = json.loads(block)
    example["parameters"] = example.pop("inputSchema")
    return example


def test_sl701_docs_example_fires_and_its_fix_does_not() -> None:
    assert len(run_rule(UnboundedListResult(), [_examples("Example")])) == 1
    assert run_rule(UnboundedListResult(), [_examples("Use instead")]) == []


@pytest.mark.parametrize(
    ("name", "description", "properties"),
    [
        ("create_refund", "Refunds a charge.", {"charge_id": {"type": "string"}}),
        ("purchaseTicket", "Buys a ticket for the show.", {"show_id": {"type": "string"}}),
        ("post_message", "Posts a message to a channel.", {"request_text": {"type": "string"}}),
        ("create_label", "Creates a label. Use update_label to rename one.", {"color": {"type": "string"}}),
        ("create_label", "Creates a label; fails if one exists or updates are pending.", {}),
        ("send_invite", "Sends an invite, or a reminder if it was already sent.", {}),
        ("transfer_funds_to_account", "Moves money to another account.", {}),
    ],
)
def test_sl702_flags_repeat_unsafe_writes_without_a_key(name: str, description: str, properties: Any) -> None:
    definition = {"name": name, "description": description, "parameters": {"type": "object", "properties": properties}}
    [finding] = run_rule(MissingIdempotencyKey(), [definition])
    assert finding.pointer == "/0/name"


@pytest.mark.parametrize(
    ("name", "description", "properties", "annotations"),
    [
        ("create_refund", "Refunds a charge.", {"idempotencyKey": {"type": "string"}}, None),
        ("create_refund", "Refunds a charge.", {"ClientToken": {"type": "string"}}, None),
        ("create_refund", "Refunds a charge.", {"dedupe_id": {"type": "string"}}, None),
        ("create_refund", "Refunds a charge. Safe to retry: a charge is refunded at most once.", {}, None),
        ("create_refund", "Refunds a charge.", {}, {"idempotentHint": True}),
        ("delete_refund", "Deletes a draft refund.", {}, None),
        ("get_refund", "One refund.", {}, None),
        ("create_label", "Creates a label or updates the colour of an existing one.", {}, None),
        ("publish_note", "Publishes the note: saves it, or silently overwrites the live copy.", {}, None),
        ("create_folder", "Makes a folder. If the folder already exists, the call succeeds.", {}, None),
        ("create_tag", "Creates the tag on the page if it does not exist yet.", {}, None),
        ("create_record", "Upserts a record keyed by its email.", {}, None),
        ("create_invite_link", "Makes an invite link when one of that kind doesn't already exist.", {}, None),
        ("hotel_place_details", "Describes a hotel.", {}, None),
        ("transfer_to_support_agent", "Hands the chat over to a support agent.", {}, None),
        ("create_checkout_session", "Opens a checkout session for the cart.", {}, None),
        ("create_share_preview", "Renders a preview of the page.", {}, None),
        ("create_login_link", "Creates a temporary sign-in link for the admin panel.", {}, None),
        ("publish_draft_post", "Publishes a saved draft.", {}, None),
        ("submit_pending_timesheet", "Submits the week's pending timesheet.", {}, None),
    ],
)
def test_sl702_accepts_keys_statements_hints_and_other_verbs(
    name: str, description: str, properties: Any, annotations: Any
) -> None:
    definition: dict[str, Any] = {
        "name": name,
        "description": description,
        "parameters": {"type": "object", "properties": properties},
    }
    if annotations:
        definition["annotations"] = annotations
    assert run_rule(MissingIdempotencyKey(), [definition]) == []


def test_sl702_creating_a_draft_is_still_a_write() -> None:
    draft = {"name": "create_draft_post", "description": "Saves a new draft.", "parameters": {"type": "object"}}
    assert len(run_rule(MissingIdempotencyKey(), [draft])) == 1


def test_sl702_docs_example_fires_and_its_fix_does_not() -> None:
    docs = MissingIdempotencyKey.docs()
    example, fix = (json.loads(b) for b in re.findall(r"```json\n(.*?)\n```", docs, re.S))
    assert len(run_rule(MissingIdempotencyKey(), [example])) == 1
    assert run_rule(MissingIdempotencyKey(), [fix]) == []
    assert len(run_rule(MissingIdempotencyKey(SL702Options(extend_verbs=("launch",))), [
        {"name": "launch_campaign", "description": "Launches an email campaign.", "parameters": {"type": "object"}}
    ])) == 1  # fmt: skip


def _writer(name: str, description: str, required: tuple[str, ...] = (), **descriptions: str) -> dict[str, Any]:
    properties = {key: {"type": "string", "description": text} for key, text in descriptions.items()}
    for key in required:
        properties.setdefault(key, {"type": "string"})
    return {
        "name": name,
        "description": description,
        "parameters": {"type": "object", "properties": properties, "required": list(required)},
    }


# A repeat that finds the work done: publishing what exists by its id, a `create_*` whose caller gives the new
# thing's id, a key with an unusual name described as one; and a tool whose description says it only reads.
SL702_VALID = [
    _writer("publish_article", "Makes the article visible to readers.", ("article_id",)),
    _writer("create_webhook", "Registers a webhook.", ("webhook_id", "target_url")),
    _writer("create_device", "Enrols a device under the id you give.", ("uuid",)),
    _writer("send_payout", "Pays a vendor.", stamp="Any value; a payout whose stamp was seen is not processed again."),
    _writer("reserve_table", "Look up free tables at a restaurant for a time.", ("restaurant",)),
    _writer("ferry_schedule", "Get the sailing schedule of a ferry line.", ("line",)),
]
SL702_INVALID = [
    _writer("publish_article", "Publishes a new article from the text.", ("body",)),
    _writer("send_invoice", "Emails the invoice to the customer.", ("invoice_id",)),
    _writer("reserve_table", "Check availability and reserve a table.", ("restaurant",)),
    _writer("create_webhook", "Registers a webhook.", ("callback_url",)),
    _writer("send_payout", "Pays a vendor.", stamp="Any value you like."),
    _writer("create_card_from_template", "Adds a card to the board.", ("template_id",)),
    _writer("create_access_token", "Generate a new token for the account.", ("account",)),
    # a verb ending in "e" read back from its -s, -es, -ed, -ing form after "and"/"then"
    _writer("schedule_pickup", "Computes the fee and schedules a courier pickup.", ("address",)),
    _writer("purchase_plan", "Shows the price, then purchases the plan.", ("plan",)),
    # "checks out" buys; it is no read
    _writer("purchase_basket", "Checks out the basket with the saved card.", ("basket",)),
    # the id names where the new thing goes, not the thing published
    _writer("publish_event", "Publishes a new event to a channel.", ("channel_id", "payload")),
    # a parameter saying the call is NOT idempotent is no key
    _writer("send_payout", "Pays a vendor.", stamp="Note that sending a payout is not idempotent."),
]


@pytest.mark.parametrize(
    ("definition", "findings"), [(d, 0) for d in SL702_VALID] + [(d, 1) for d in SL702_INVALID], ids=case_id
)
def test_sl702_repeats(definition: dict[str, Any], findings: int) -> None:
    assert len(run_rule(MissingIdempotencyKey(), [definition])) == findings
