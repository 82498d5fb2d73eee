"""Text for a terminal or a CI log: control characters in a file name or a tool's text are shown, never obeyed.

A file may be named `a.json\\nother.json:1:1: SL000 [error] forged`; printed raw, that name would write a
finding line of its own (or move the cursor, with an escape sequence). Paths and messages show such
characters as escapes (`\\n`, `\\x1b`); source excerpts as one-column stand-ins, so the caret under the
line stays aligned.
"""

from __future__ import annotations

import re

#: C0 controls but the tab, DEL and C1 controls: each can end a line, move the cursor or start a sequence
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")
_ESCAPES = {"\n": "\\n", "\r": "\\r"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    return _ESCAPES.get(char) or f"\\x{ord(char):02x}"


def _stand_in(match: re.Match[str]) -> str:
    """The Unicode "control picture" of a C0 control or DEL (one column wide, like the character it
    replaces in the excerpt); U+FFFD for the C1 controls, which have none."""
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)
    return "\u2421" if code == 0x7F else "\ufffd"


def printable(text: str) -> str:
    """The text on one line, control characters escaped."""
    return _CONTROL.sub(_escape, text)


def printable_excerpt(line: str) -> str:
    """A source line with each control character replaced by a one-column stand-in."""
    return _CONTROL.sub(_stand_in, line)
