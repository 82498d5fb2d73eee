"""The server: tools registered by hand-applied decorators, handler classes and a register() function."""

from mcp.server.mcpserver import MCPServer

from acme_ops.app import AcmeApp
from acme_ops.handlers.jobs import JobHandler
from acme_ops.handlers.metrics import MetricTools
from acme_ops.registry import register

mcp = MCPServer("acme-ops")


def ping(message: str = "ping") -> str:
    """Answer with the message, to check the server is up."""
    return message


def server_status(verbose: bool = False) -> dict:
    """Report the server's uptime and version."""
    return {"verbose": verbose}


mcp.tool()(ping)
mcp.tool(name="get_server_status", description="Uptime and version of the ops server.")(server_status)
MetricTools(mcp)
JobHandler(mcp, allow_write=True)
register(mcp)
app = AcmeApp()
