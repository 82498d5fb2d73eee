from __future__ import annotations

from typing import Any

import pytest

from schemalint.model import Severity
from schemalint.rules.sl304_unitless_quantity import Options as SL304Options
from schemalint.rules.sl304_unitless_quantity import UnitlessQuantity
from schemalint.rules.sl305_enum_candidate import EnumCandidate
from schemalint.rules.sl306_unbounded_collection import UnboundedCollection
from schemalint.rules.sl307_datetime_without_format import DatetimeWithoutFormat
from schemalint.rules.sl308_ref_problem import RefProblem
from schemalint.rules.sl310_too_many_parameters import Options as SL310Options
from schemalint.rules.sl310_too_many_parameters import TooManyParameters
from schemalint.rules.sl312_missing_type import MissingType
from schemalint.testing import run_rule

from .helpers import prop, tool


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("amount", "How much to refund."),
        ("timeout", "How long to wait."),
        ("price", "Price of the item."),
        ("fileSize", "Size of the uploaded file."),
        ("distance", "距离"),
        ("interest_amount", "Interest owed in total."),
        ("max_wait", "Longest wait in the queue."),
        # everyday words that are also units, where they are not units
        ("retry_delay", "Second delay, used after the first retry fails."),
        ("entry_price", "Price of the second leg."),
        ("disk_capacity", "Capacity of the attached volume."),
    ],
)
def test_sl304_flags_unitless_quantities(name: str, description: str) -> None:
    [finding] = run_rule(UnitlessQuantity(), [tool(**{name: prop("number", description)})])
    assert finding.key and finding.data["parameter"] == name


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("amountCents", "How much to refund."),
        ("timeout_ms", "How long to wait."),
        ("price", "Price in USD."),
        ("weight", "Weight of the parcel in kilograms."),
        ("timeout", "超时时间，单位：毫秒"),
        ("amount", "金额（分）"),
        ("duration", "The number of nights to stay."),
        ("speed", "Playback speed, where 1.0 is the normal speed."),
        ("page_size", "Rows per page."),
        ("size", "The size of the map."),
        ("quantity", "How many items."),
        # units in names: short suffixes, camelCase units, currencies incl. crypto, micro-units
        ("cooldown_timeout_s", "How long to wait."),
        ("pollIntervalSec", "Pause between polls."),
        ("settle_delay_h", "Pause before settling."),
        ("tipSats", "Tip for the author."),
        ("depositLamports", "What to deposit."),
        ("budgetMicros", "Campaign budget."),
        ("fee_microusdc", "Fee per call."),
        ("maxUploadSizeKb", "Largest upload file."),
        ("cache_size_mb", "Memory for the cache."),
        ("refundPct", "Part of the amount to refund."),
        # units in descriptions: any "in <unit>s" / "in <CODE>", ratios, percent
        ("note_duration", "Length of each note in quarter beats."),
        ("stake_amount", "Stake, in nanoerg."),
        ("bounty", "Reward amount, expressed in micro-ALGO."),
        ("gas_price", "Gas price in gwei."),
        ("fare", "Fare amount in THB."),
        ("max_budget", "Budget cap denominated in ETH."),
        ("weight", "Blend weight (0-1) of the second image."),
        ("discount", "Discount as a percent of the list price."),
        ("fee", "Fee from 0.0 to 1.0 of the order value."),
        # singular units after "in", units with modifiers, everyday words that are units after "in"
        ("cooldown_delay", "Cooldown in second."),
        ("chunk_timeout", "Per-chunk timeout, in whole min."),
        ("tip_amount", "Tip in sat."),
        ("mint_amount", "Tokens to mint, in token base units."),
        ("max_payload_size", "Largest request body in byte."),
        # scales and counts named after a quantity
        ("fontWeight", "Weight of the label's font."),
        ("max_capacity", "Most workers the pool keeps alive."),
        ("max_distance", "Largest edit distance still counted as a match."),
        # ratios, counts and codes named after a quantity
        ("tax_rate", "The tax rate."),
        ("price_multiplier", "Applied to every price."),
        ("fee_tier", "Fee tier of the pool."),
    ],
)
def test_sl304_accepts_units_counts_and_multipliers(name: str, description: str) -> None:
    assert run_rule(UnitlessQuantity(), [tool(**{name: prop("number", description)})]) == []


@pytest.mark.parametrize(
    ("name", "suggestion"),
    [
        ("amount", "`amount_cents`"),
        ("maxPrice", "`maxPriceCents`"),
        ("RetryDelay", "`RetryDelayMs`"),
        ("timeout_xu", "say the unit in the description (is `xu` one?)"),
        ("fee_nanoalgos", "say the unit in the description (is `nanoalgos` one?)"),
        ("timeout_value", "`timeout_value_ms`"),
    ],
)
def test_sl304_suggestion_matches_the_name_and_never_stacks_units(name: str, suggestion: str) -> None:
    [finding] = run_rule(UnitlessQuantity(), [tool(**{name: prop("number", "How much.")})])
    assert suggestion in finding.message


def test_sl304_sibling_currency_and_options() -> None:
    assert run_rule(UnitlessQuantity(), [tool(amount=prop("number", "Amount."), currency=prop())]) == []
    assert run_rule(UnitlessQuantity(), [tool(amount=prop("string", "Amount."))]) == []
    options = SL304Options(extend_units=("credits",))
    assert run_rule(UnitlessQuantity(options), [tool(cost=prop("integer", "Cost in credits."))]) == []


def test_sl305_enum_candidates() -> None:
    findings = run_rule(
        EnumCandidate(),
        [tool(order_status=prop(), sortOrder=prop(), status_message=prop(), state=prop(enum=["open", "closed"]))],
    )
    assert sorted(f.data["parameter"] for f in findings) == ["order_status", "sortOrder"]


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("mode", "How to apply it."),
        ("action", "What to do with the label."),
        ("outfmt", "Shape of the output."),
        ("operation", "What to run."),
        ("target", "Where to write: file | stdout | clipboard"),
        ("shape", "One of: circle, square, triangle."),
        ("level_name", "Allowed values are debug, info, warn."),
        ("align", "'left', 'center' or 'right'."),
        ("scope", "Either `user` or `org`."),
    ],
)
def test_sl305_names_and_listed_values_suggest_an_enum(name: str, description: str) -> None:
    [finding] = run_rule(EnumCandidate(), [tool(**{name: prop(description=description)})])
    assert finding.data["parameter"] == name


@pytest.mark.parametrize(
    "description",
    [
        "Search text, e.g. 'red shoes' or 'boots'.",
        "Branch to push to (e.g., 'main' or 'develop').",
        "Must start with 'http' or 'https'.",
        "The user, group or team to notify.",
        "Can be a username or an email address.",
        "The id of the item, as returned by 'list_items' or 'find_items'.",
        "Search text; narrow it with the qualifiers label:x, archived:yes|no and owner:name.",
    ],
)
def test_sl305_examples_and_prose_lists_are_not_enums(description: str) -> None:
    assert run_rule(EnumCandidate(), [tool(recipient=prop(description=description))]) == []


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("attachment_type", "The MIME type of the upload."),
        ("mimeType", ""),
        ("body_format", "Media type of the payload, like application/xml."),
        ("Content-Type", ""),
        ("owner_id", "The owner's numeric id, 'nobody' or 'anyone'."),
    ],
)
def test_sl305_media_types_and_identifiers_with_special_values_are_open(name: str, description: str) -> None:
    assert run_rule(EnumCandidate(), [tool(**{name: prop(description=description)})]) == []


def test_sl305_message_asks_for_the_enum() -> None:
    [by_name, by_values] = run_rule(EnumCandidate(), [tool(tier=prop(), align=prop(description="'left' or 'right'."))])
    assert (
        by_name.message == "`tier` is a free string but its name suggests a fixed set of values; list them with `enum`"
    )
    assert by_values.message.endswith("its description lists the values it takes; list them with `enum`")


def test_sl306_result_counts_need_a_maximum() -> None:
    findings = run_rule(
        UnboundedCollection(),
        [tool(limit=prop("integer"), pageSize=prop("integer", default=20), top_k=prop("integer", maximum=50))],
    )
    assert sorted(f.data["parameter"] for f in findings) == ["limit", "pageSize"]
    assert "and a `default`" in next(f.message for f in findings if f.data["parameter"] == "limit")


def test_sl306_ambiguous_names_and_stated_maximums() -> None:
    definition = tool(
        n=prop("integer", "The number to compute the factorial of."),
        count=prop("integer", "Number of results to return, max 100."),
        per_page=prop("integer", "Results per page (1-100)."),
        limit_zh=prop("integer", "返回条数，最多 50"),
    )
    assert run_rule(UnboundedCollection(), [definition]) == []
    [finding] = run_rule(UnboundedCollection(), [tool(count=prop("integer", "Number of results to return."))])
    assert finding.severity is None


def test_sl306_arrays_are_info() -> None:
    [finding] = run_rule(UnboundedCollection(), [tool(tags={"type": "array", "items": prop()})])
    assert finding.severity is Severity.INFO
    assert run_rule(UnboundedCollection(), [tool(tags={"type": "array", "items": prop(), "maxItems": 10})]) == []


@pytest.mark.parametrize("name", ["start_time", "createdAt", "date", "deadline", "since", "expires_on"])
def test_sl307_flags_dates_without_format(name: str) -> None:
    [finding] = run_rule(DatetimeWithoutFormat(), [tool(**{name: prop(description="When.")})])
    assert finding.data["parameter"] == name


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("due_date", "New due date for the card (optional)."),
        ("sys_updated_on", "Updated on."),
        ("publishedBefore", "Only posts published before this."),
        ("checkout", "Last night of the stay; default is the day after check-in."),
        ("reminder_time", "When to ping the user, in their time."),
        ("updated_after", ""),
    ],
)
def test_sl307_flags_dates_whose_description_gives_no_form(name: str, description: str) -> None:
    assert len(run_rule(DatetimeWithoutFormat(), [tool(**{name: prop(description=description)})])) == 1


@pytest.mark.parametrize(
    ("name", "schema"),
    [
        ("start_time", prop(format="date-time")),
        ("date", prop(description="Date, YYYY-MM-DD.")),
        ("since", prop(description="ISO 8601 timestamp with timezone.")),
        ("date", prop(description="出发日期，格式 2025-01-31")),
        ("time_zone", prop(description="Zone name.")),
        ("date_format", prop(description="How to print dates.")),
        ("time_signature", prop(description="Of the piece.")),
        ("created_at", prop("integer", "Unix seconds.")),
        # an identifier or version beside a date word, and choices listed in the description
        ("timeLogId", prop(description="Which log line.")),
        ("since_revision", prop(description="Only changes after this one.")),
        ("until_tag", prop(description="Last release to include.")),
        ("time", prop(description="Window to rank over: all, hour, day, week or month.")),
        ("wait_until", prop(description="When navigation is done: load, domcontentloaded, networkidle.")),
        ("date_range", prop(description="One of: today | yesterday | last_week")),
        # durations, wait conditions, column names, times of day by name, forms shown by example
        ("since", prop(description="Entries newer than this relative time (e.g. '90s', '4h').")),
        ("waitUntil", prop(description="Page state to wait for before returning.")),
        ("time_column", prop(description="The table's timestamp column.")),
        ("date_field", prop(description="Which field of the record to bucket by.")),
        ("time", prop(description="Name of the column holding event times.")),
        ("departure_time", prop(description="Preferred part of the day; default 'evening'.")),
        ("due_date", prop(description="Due date (ISO string).")),
        ("date", prop(description="Day of the match, e.g. tomorrow or next saturday.")),
        ("meeting_time", prop(description="Start, for example 14:30 local time.")),
        ("session_timeout", prop(description="How long until the session expires.")),
        ("time", prop(description="When to run, as a cron expression.")),
        ("checked_after", prop(description="Values to compare once the write is done.")),
        ("due_date_lang", prop(description="Two-letter code of the language the due date is written in.")),
    ],
)
def test_sl307_accepts_formats_and_non_dates(name: str, schema: dict[str, Any]) -> None:
    assert run_rule(DatetimeWithoutFormat(), [tool(**{name: schema})]) == []


def _ref_tool(properties: dict[str, Any], defs: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    parameters: dict[str, Any] = {"type": "object", "properties": properties, **extra}
    if defs is not None:
        parameters["$defs"] = defs
    return {"name": "t", "description": "d", "parameters": parameters}


def test_sl308_unresolvable_and_remote_refs_are_errors() -> None:
    findings = run_rule(
        RefProblem(),
        [
            _ref_tool(
                {
                    "a": {"$ref": "#/$defs/Missing"},
                    "b": {"$ref": "https://example.com/schema.json"},
                    "c": {"$ref": "other.json#/X"},
                    "d": {"$ref": "#/components/schemas/Address"},
                },
                {},
            )
        ],
    )
    assert sorted((f.data["problem"], f.severity) for f in findings) == [
        ("remote", None),
        ("remote", None),
        ("unresolvable", None),
        ("unresolvable", None),
    ]
    assert all(f.pointer.endswith("/$ref") for f in findings)


def test_sl308_resolves_defs_definitions_and_components() -> None:
    definition = _ref_tool(
        {"a": {"$ref": "#/$defs/A"}, "b": {"$ref": "#/definitions/B"}, "c": {"$ref": "#/components/schemas/C"}},
        {"A": {"type": "string"}},
        definitions={"B": {"type": "string"}},
        components={"schemas": {"C": {"type": "integer"}}},
    )
    assert run_rule(RefProblem(), [definition]) == []


def test_sl308_recursive_and_deep_refs_are_warnings_and_terminate() -> None:
    node = {"type": "object", "properties": {"child": {"$ref": "#/$defs/Node"}}}
    chain = {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}}, "B": {"type": "string"}}
    findings = run_rule(RefProblem(), [_ref_tool({"root": {"$ref": "#/$defs/Node"}}, {"Node": node})])
    assert [(f.data["problem"], f.severity) for f in findings] == [("recursive", Severity.WARNING)]
    findings = run_rule(RefProblem(), [_ref_tool({"a": {"$ref": "#/$defs/A"}}, chain)])
    assert [(f.data["problem"], f.data["hops"]) for f in findings] == [("deep", 1)]
    mutual = {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}
    findings = run_rule(RefProblem(), [_ref_tool({"a": {"$ref": "#/$defs/A"}}, mutual)])
    assert [f.data["problem"] for f in findings] == ["recursive"]


def test_sl310_too_many_parameters() -> None:
    many = tool(**{f"field_{i}": prop() for i in range(11)})
    [finding] = run_rule(TooManyParameters(), [many])
    assert finding.pointer == "/0/parameters/properties" and finding.data["count"] == 11
    assert run_rule(TooManyParameters(SL310Options(max_parameters=11)), [many]) == []


def test_sl312_missing_type() -> None:
    definition = tool(
        untyped={"description": "Something."},
        typed=prop(),
        choice={"enum": ["a", "b"]},
        ref={"$ref": "#/$defs/X"},
        anything={"description": "Any JSON value is accepted."},
    )
    findings = run_rule(MissingType(), [definition])
    assert [f.data["parameter"] for f in findings] == ["untyped"]


# Open sets a name or a listing suggests an enum for, but the text or the context says otherwise: a place's
# `state`, a pattern to write (dates, spreadsheet codes), a taxonomy that trails off ("etc."), values that depend
# on the account's setup, an identifier, a JSON value, a database column type, a data point's `category` label,
# special values listed for a free-content field.
SL305_VALID = [
    tool(ship_state=prop(description="Region of the delivery address."), city=prop(), postal_code=prop()),
    tool(state=prop(description="Two-letter code of the U.S. state, like 'WA'.")),
    tool(date_format=prop(description="Pattern for the output, default 'DD.MM.YYYY'.")),
    tool(number_format=prop(description="Spreadsheet code such as '#,##0.0'.")),
    tool(cuisine_type=prop(description="Kind of cuisine, e.g. thai, creole, etc.")),
    tool(ticket_type=prop(description="Ticket types depend on your project configuration.")),
    tool(label_category=prop(description="The category ID of the label.")),
    tool(column_type=prop(description="PostgreSQL column type, e.g. numeric(10,2).")),
    tool(visibility=prop(description='Audience as a JSON string like \'{"team": "ops"}\'.')),
    tool(
        points={
            "type": "array",
            "items": {"type": "object", "properties": {"category": prop(), "value": prop("number")}},
        }
    ),
    tool(reply_text=prop(description="Text to type; 'yes' or 'no' for a confirmation box.")),
    tool(category=prop(description="Filter by the project category ID.")),
]

SL305_INVALID = [
    tool(sort=prop(description="Field to sort by: name, ID or date.")),
    tool(unit=prop(description="Length unit: 'inch', 'foot', etc.")),
    tool(room_type=prop(description="Options: 'twin', 'queen', etc.")),
    tool(state=prop(description="Lifecycle state of the ticket.")),
    tool(category=prop(description="Shelf category."), label=prop(description="Shelf label.")),
    tool(output_format=prop(description="Return the report as JSON or as CSV.")),
    tool(mode=prop(description="PostgreSQL connection mode.")),
    # words near the open-set signals that are not them: quoted capitals, "us", an address sibling, an
    # identifier or ID the values are not, JSON as one of the values, a code from a short list
    tool(state=prop(description="Power of the lamp: 'ON' or 'OFF'.")),
    tool(state=prop(description="Review state of the draft; tell us which.")),
    tool(state=prop(description="Subscription state."), email_address=prop()),
    tool(lookup_kind=prop(description="Which identifier is given: 'email' or 'phone'.")),
    tool(order=prop(description="Sort direction; ties broken by ascending ID.")),
    tool(export_format=prop(description="'json' (JSON-encoded rows) or 'csv'.")),
    tool(language_code=prop(description="One of 'en', 'fr' or 'de'.")),
]


@pytest.mark.parametrize("definition", SL305_VALID, ids=lambda d: next(iter(d["parameters"]["properties"])))
def test_sl305_open_sets_are_not_enum_candidates(definition: dict[str, object]) -> None:
    assert run_rule(EnumCandidate(), [definition]) == []


@pytest.mark.parametrize("definition", SL305_INVALID, ids=lambda d: next(iter(d["parameters"]["properties"])))
def test_sl305_closed_sets_stay_enum_candidates(definition: dict[str, object]) -> None:
    assert len(run_rule(EnumCandidate(), [definition])) == 1
