from __future__ import annotations

from schemalint.model import Severity
from schemalint.rules.base import EngineRule


class NoToolsFound(EngineRule):
    """
    ## What it does
    Reports a file named on the command line that holds no tool definition schemalint recognises.
    Files found by walking a folder are skipped silently instead, and so are files passed by the
    pre-commit hook (`--skip-non-tool-files`).

    ## Why is this bad?
    Usually the file uses a shape schemalint does not know (a wrapper key, a typo in
    `input_schema`), so nothing in it was checked although you asked for it.

    ## Example
    ```json
    {"my_tools": [{"name": "get_weather", "schema": {"type": "object"}}]}
    ```

    ## Use instead
    One of the accepted shapes: OpenAI Chat `tools`, the legacy `functions` array, OpenAI
    Responses function tools, Anthropic tools, Gemini `functionDeclarations`, MCP `Tool` objects or
    a `tools/list` result, a request body with `tools`, a bare array of
    `{name, description, parameters}`, or decorated Python functions.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.WARNING
    summary = "a file named on the command line holds no recognisable tool definitions"
