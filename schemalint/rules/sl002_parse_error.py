from __future__ import annotations

from schemalint.model import Severity
from schemalint.rules.base import EngineRule


class ParseError(EngineRule):
    """
    ## What it does
    Reports a file that cannot be read as JSON, YAML or Python: a syntax error, invalid UTF-8, a
    binary or empty file, duplicate keys, `NaN`, unsafe YAML tags, alias bombs or nesting deeper
    than schemalint reads. The message gives the line and column of the problem.

    ## Why is this bad?
    A definition that does not parse never reaches the model; the SDK or the provider fails the
    request. Duplicate keys and `NaN` parse in some libraries and not in others, so the payload
    differs between your tests and production.

    ## Example
    ```json
    {"name": "get_weather", "name": "get_forecast"}
    ```

    ## Use instead
    Fix the syntax at the reported position; keep every key once.

    ## Fix safety
    No automatic fix. The other files are still linted.
    """

    severity = Severity.ERROR
    summary = "file is not valid JSON/YAML/Python; message has line:col"
