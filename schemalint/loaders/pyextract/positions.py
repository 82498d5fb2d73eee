"""The position map of a synthetic document extracted from Python source."""

from __future__ import annotations

from schemalint.model import Span

SpanPair = tuple[Span, Span]


class PythonPositions:
    """Maps pointers of the synthetic document to (key span, value span) in the Python file.

    A pointer with no entry of its own falls back to its nearest mapped ancestor, so every node
    under a tool (a nested `items`, an `anyOf` branch) still lands on the parameter or field.
    """

    def __init__(self, spans: dict[str, SpanPair] | None = None) -> None:
        self.spans: dict[str, SpanPair] = dict(spans or {})

    def add(self, pointer: str, key: Span, value: Span) -> None:
        self.spans[pointer] = (key, value)

    def locate(self, pointer: str, key: bool = False) -> Span | None:
        current = pointer
        while True:
            pair = self.spans.get(current)
            if pair is not None:
                return pair[0] if key else pair[1]
            if not current:
                return None
            current = current.rsplit("/", 1)[0]
