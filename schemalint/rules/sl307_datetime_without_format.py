from __future__ import annotations

import re
from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.lazy_pattern import LazyPattern
from schemalint.model import SchemaNode, Severity
from schemalint.rules.base import LintContext, NodeRule, Nodes
from schemalint.text import DATE_FORMAT, is_constrained_string, lists_values, split_name

#: Name words that make a string a date or time.
DATE_WORDS = frozenset(
    "date dates datetime datetimes timestamp timestamps time times deadline birthday birthdate dob expiry "
    "expiration since until checkin checkout".split()
)
#: `created_at`, `expires_on`, `starts_at`: a verb form followed by at/on.
_TIME_SUFFIXES = frozenset({"at", "on"})
#: `publishedBefore`, `updated_after`: an event's time bounding a search (`expected_after` is no event).
_BOUNDS = frozenset({"before", "after"})
_EVENTS = frozenset(
    "created updated modified published started ended completed closed opened merged deleted changed "
    "received sent scheduled occurred posted edited resolved due".split()
)
#: Words that, next to a date word, make the value something else (`time_zone`, `date_format`, `time_unit`).
NOT_A_DATE = frozenset(
    "zone timezone tz unit units format formats period range ranges frame window type kind slot slots "
    "preference limit limits span spent taken out interval step signature meal supplier provider "
    # an identifier or a version that happens to sit next to a date word: `timeEntryId`, `sinceCommit`
    "id ids ref refs commit commits sha hash revision rev version versions tag tags cursor token key entry "
    "entries event events filter filters option options mode "
    # a column or field that holds dates, named rather than given: `time_column`, `date_field`
    "column columns field fields attribute property "
    # the language or locale dates are written in: `deadline_lang`, `date_locale`
    "lang language locale "
    # a wait condition or a length of time, not a point in time: `wait_until`, `timeout`, `ttl`
    "wait duration durations timeout ttl elapsed delay sleep idle ago offset relative".split()
)
#: A description that makes the value something other than a point in time: a duration ("relative
#: time, e.g. '5s'"), a column's name, a time of day picked by name ("morning"), a cron schedule.
_NOT_A_DATE_TEXT = LazyPattern(
    r"\b(?:duration|relative\s+(?:time|date)|(?:column|field|attribute)\s+name"
    r"|name\s+of\s+(?:the\s+|a\s+)?(?:\w+\s+)?(?:column|field)|(?:timestamp|date|time)\s+column"
    r"|morning|afternoon|evening|anytime|cron|crontab)\b|['\"`]\d+\s*(?:ms|s|m|h|d|min)['\"`]",
    re.IGNORECASE,
)


def looks_like_datetime(name: str) -> bool:
    words = split_name(name)
    if not words or set(words) & NOT_A_DATE:
        return False
    if set(words) & DATE_WORDS:
        return True
    if len(words) < 2:
        return False
    if words[-1] in _BOUNDS:
        return words[-2] in _EVENTS
    return words[-1] in _TIME_SUFFIXES and words[-2].endswith(("ed", "s"))


class DatetimeWithoutFormat(NodeRule):
    """
    ## What it does
    Flags a string parameter named like a date or time (`date`, `start_time`, `createdAt`,
    `deadline`, `since`, `until`, `expires_on`) that has no `format` (`date-time`, `date`,
    `time`), no `pattern`, no `enum`, and no format or example in its description ("ISO 8601",
    "YYYY-MM-DD", "e.g. 2025-01-31T09:00:00Z", "格式").

    ## Why is this bad?
    "Next Friday", "03/04/2025" (March or April?) and a time without a timezone are all valid
    strings. The model picks one, the backend parses another, and the booking lands on the wrong
    day.

    ## Example
    ```json
    {"start_time": {"type": "string", "description": "When the meeting starts."}}
    ```

    ## Use instead
    ```json
    {"start_time": {"type": "string", "format": "date-time",
      "description": "Start, ISO 8601 with timezone offset, e.g. 2025-01-31T09:00:00+08:00."}}
    ```

    ## Options
    None.

    ## Trade-off
    Any stated format is accepted, even one that leaves the timezone open: the rule catches the
    unspecified case, not every ambiguous one. `time_zone`, `date_format`, `time_period` and
    similar names are not dates and are skipped, and so are identifiers and versions beside a
    date word (`timeEntryId`, `sinceCommit`, `until_tag`), strings whose description lists
    the values they take (`time`: "all, hour, day or week"; `wait_until`: "load, networkidle"),
    durations and wait conditions (`timeout`, "relative time, e.g. '5s'"), column names
    (`time_column`), cron schedules and times of day by name ("morning"). An example in the
    description ("e.g. 14:30", "e.g. tomorrow") counts as a stated form.

    ## Fix safety
    No automatic fix: `format: date-time` changes what the validator accepts.
    """

    severity = Severity.WARNING
    summary = "a date/time string has no format (date-time/date/time) and no stated ISO 8601 format"
    nodes = Nodes.NAMED_PROPERTIES
    types = frozenset({"string"})

    def applies_to_name(self, name: str) -> bool:
        return looks_like_datetime(name)

    def check(self, node: SchemaNode, context: LintContext) -> Iterable[Finding]:
        schema = node.schema
        if is_constrained_string(schema) or "examples" in schema:
            return
        default = schema.get("default")
        if DATE_FORMAT.search(node.description) or (isinstance(default, str) and DATE_FORMAT.search(default)):
            return
        if lists_values(node.description, loosely=True):  # `time`: "all, hour, day" is a choice, not a date
            return
        if _NOT_A_DATE_TEXT.search(node.description):
            return
        yield Finding(
            f'`{node.property_name}` is a date/time string with no format; add `"format": "date-time"` (or '
            '`date`) and say "ISO 8601 with timezone, e.g. 2025-01-31T09:00:00Z"',
            node.pointer,
            key=True,
            data={"parameter": node.property_name},
        )
