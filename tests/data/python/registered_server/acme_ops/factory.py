from mcp.server.mcpserver import MCPServer


def make_server(name: str) -> MCPServer:
    return MCPServer(name)
