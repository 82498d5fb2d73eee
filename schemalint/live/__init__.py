"""Linting what live systems serve (an MCP server's tools/list), as opposed to files."""
