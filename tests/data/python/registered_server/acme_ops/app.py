"""A class that makes its own server (through a project factory) and decorates tools in a method."""

from acme_ops.factory import make_server


class AcmeApp:
    def __init__(self):
        self.mcp = make_server("acme-app")
        self._setup()

    def _setup(self):
        @self.mcp.tool()
        def echo(text: str, times: int = 1) -> str:
            """Repeat the text."""
            return text * times
