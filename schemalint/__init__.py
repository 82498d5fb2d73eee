"""schemalint: a linter for the tool definitions LLM applications give to models."""

__version__ = "0.1.0"
