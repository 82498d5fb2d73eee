"""schemalint: a linter for the tool definitions LLM applications give to models."""

__version__ = "0.1.0"


class UserError(Exception):
    """A problem the user can fix (a file that cannot be read or written, clashing options): the command
    line prints its message as one line and exits 2."""
