"""The tools hash: one sha256 of what the model is sent, to log beside each request as `tools_hash`.

The same tools give the same hash whatever dialect, key order, formatting or file format they were
written in. What the model never reads (MCP annotations and output schemas, where the tool was
written) does not count; the order of the tools does, because the definitions are the start of the
prompt and of the provider's prompt cache.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from schemalint.dialects import gemini
from schemalint.model import JSON, Tool


def canonical_json(value: JSON) -> str:
    """A stable text form: equal content gives equal text, whatever the key order or source format."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def digest(value: JSON) -> str:
    """`sha256:` and the hex digest of the value's canonical JSON (sorted keys, no spaces, UTF-8)."""
    # a lone surrogate is valid JSON text (\ud800) and must hash, not fail
    return "sha256:" + hashlib.sha256(canonical_json(value).encode("utf-8", "surrogatepass")).hexdigest()


def sent_definition(tool: Tool) -> dict[str, JSON]:
    """The tool as the model is sent it, in one spelling for every dialect."""
    parameters = gemini.parameters_as_json_schema(tool)
    definition: dict[str, JSON] = {"name": tool.name, "description": tool.description, "parameters": parameters}
    if tool.strict:
        definition["strict"] = True
    return definition


def tool_hash(tool: Tool) -> str:
    return digest(sent_definition(tool))


def tools_hash(tools: Sequence[Tool]) -> str:
    """The hash of the whole set, in order."""
    return digest([sent_definition(tool) for tool in tools])
