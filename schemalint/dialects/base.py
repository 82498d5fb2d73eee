"""What every dialect module provides: recognise one tool object, read it, and write one."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from schemalint.model import Dialect, Tool, is_mapping


@dataclass(frozen=True)
class Shape:
    """Where a dialect keeps each part of a tool, relative to the tool object."""

    dialect: Dialect
    parameters: tuple[str, ...]  # the first key present wins (Gemini has two spellings)
    output: tuple[str, ...] = ()
    annotations: str | None = None
    wrapper: str | None = None  # OpenAI Chat nests the function under "function"

    def read(self, obj: Mapping[str, Any], path: str, pointer: str, index: int) -> Tool:
        """The tool `obj` defines. Its pointers are built by appending the shape's keys, which are plain
        words (`escape_pointer_token` leaves them as they are; a test holds every shape to that)."""
        base = pointer
        if self.wrapper is not None:
            obj = obj[self.wrapper]
            base = f"{pointer}/{self.wrapper}"
        params_key = next((key for key in self.parameters if key in obj), None)
        output_key = next((key for key in self.output if key in obj), None)
        annotations = obj.get(self.annotations) if self.annotations else None
        name = obj.get("name")
        description = obj.get("description")
        strict = obj.get("strict")
        title = obj.get("title")
        return Tool(
            name=name if isinstance(name, str) else None,
            description=description if isinstance(description, str) else None,
            parameters=obj.get(params_key) if params_key else None,
            dialect=self.dialect,
            path=path,
            pointer=pointer,
            parameters_pointer=f"{base}/{params_key}" if params_key else None,
            name_pointer=f"{base}/name" if "name" in obj else None,
            description_pointer=f"{base}/description" if "description" in obj else None,
            output_schema=obj.get(output_key) if output_key else None,
            output_pointer=f"{base}/{output_key}" if output_key else None,
            annotations=annotations if is_mapping(annotations) else None,
            annotations_pointer=f"{base}/{self.annotations}" if self.annotations and self.annotations in obj else None,
            strict=strict if isinstance(strict, bool) else None,
            title=title if isinstance(title, str) else None,
            index=index,
        )


def canonical_fields(tool: Tool, title: bool = True) -> dict[str, Any]:
    """The fields every dialect writes (the title where it has a place), in a stable order, leaving out
    what the tool does not have."""
    out: dict[str, Any] = {"name": tool.name}
    if title and tool.title is not None:
        out["title"] = tool.title
    if tool.description is not None:
        out["description"] = tool.description
    return out
