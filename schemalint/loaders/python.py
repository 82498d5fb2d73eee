"""Loader for Python source: tools declared with FastMCP / MCP SDK, LangChain, the OpenAI Agents SDK
and pydantic-ai, plus literal tool definitions written as dicts. The user's code is never imported
or run: libcst parses it, and only when `might_contain_tools` says the file is worth parsing.
"""

from __future__ import annotations

import re
import warnings

from schemalint.loaders import Document

# A decorator or call that registers a tool, or a literal `tools = [...]` / `Tool(...)` definition.
_TOOL_MARKERS = re.compile(
    r"@\s*[\w.]*tool\b|@\s*[\w.]*tool_plain\b|@\s*function_tool\b|\badd_tool\s*\(|\bfrom_function\s*\("
    r"|\bTool\s*\(|\btools\s*=|\btool\s*\(|\"type\"\s*:\s*\"function\"|\binputSchema\b|\binput_schema\b"
)


def might_contain_tools(text: str) -> bool:
    """A cheap textual pre-check: False means the file certainly declares no tool we can extract."""
    return _TOOL_MARKERS.search(text) is not None


def load_python(text: str, path: str) -> Document:
    """Parse `text` and extract its tools; raises LoadError (with line/column) on a syntax error."""
    from schemalint.loaders.pyextract.extract import extract_document

    # Parsing and reading literals compiles the file's code, and Python warns about its style
    # (invalid escapes, `is` with a literal): not schemalint's findings, and never on the user's stderr.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        return extract_document(text, path)
