"""Regular expressions compiled the first time they are used, not when their module is imported.

Compiling the rules' large patterns (word alternations, CJK character classes) costs tens of
milliseconds, and a run that meets no matching text never needs many of them. A LazyPattern is a
drop-in for the `re.Pattern` methods the rules call, so a module-level constant changes from
`re.compile(...)` to `LazyPattern(...)` and nothing else does.

A pattern declared `needs_non_ascii` (every match holds a non-ASCII character: a CJK class, Chinese
phrases, invisible characters) answers an ASCII text without being compiled or run: most tool
definitions are ASCII, and `str.isascii()` costs nothing.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from typing import Any


class LazyPattern:
    __slots__ = ("_compiled", "flags", "needs_non_ascii", "source")

    def __init__(self, source: str, flags: int | re.RegexFlag = 0, *, needs_non_ascii: bool = False) -> None:
        self.source = source
        self.flags = flags
        self.needs_non_ascii = needs_non_ascii
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.source, self.flags)
        return self._compiled

    def _cannot_match(self, string: str) -> bool:
        return self.needs_non_ascii and string.isascii()

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return None if self._cannot_match(string) else self.compiled.search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return None if self._cannot_match(string) else self.compiled.match(string, pos, endpos)

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return iter(()) if self._cannot_match(string) else self.compiled.finditer(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        return [] if self._cannot_match(string) else self.compiled.findall(string, pos, endpos)

    def sub(self, replacement: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        return string if self._cannot_match(string) else self.compiled.sub(replacement, string, count)

    def __repr__(self) -> str:
        return f"LazyPattern({self.source!r}, {self.flags!r})"
