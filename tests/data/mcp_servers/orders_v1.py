"""An MCP server for the tests: two tools, one with findings (no description, open object).

Over stdio by default; `--http PORT` serves Streamable HTTP on 127.0.0.1:PORT/mcp instead.
"""

import sys

from mcp.server.mcpserver import MCPServer

server = MCPServer("orders")


@server.tool(description="Look up one order by its id. Use for order status questions, not for refunds.")
def get_order(order_id: str) -> str:
    return order_id


@server.tool()
def refund(order_id: str, amount: float) -> str:
    return order_id


if __name__ == "__main__":
    if sys.argv[1:2] == ["--http"]:
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run()
