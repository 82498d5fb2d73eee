"""The progress of a long step (embedding many descriptions) for the command line to show: the
pipeline itself never writes to the terminal."""

from __future__ import annotations

from collections.abc import Callable

#: called with (what, done, total) as a long step advances; the command line sets it on a terminal
report: Callable[[str, int, int], None] | None = None
