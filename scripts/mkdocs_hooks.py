"""mkdocs hooks (mkdocs.yml `hooks:`): the site's generated pages, added while mkdocs builds.

- one page per rule, the rule table (schemalint.docs_site, from the rules' docstrings and options);
- index.md: README.md, less the sections that get a page of their own;
- configuration.md: README's "Configuration" section and the reference of every rule option;
- output-formats.md: README's "Output formats" and "Fixing" sections.

docs/ holds the hand-written pages (providers, JSON output, baseline, ...). Nothing generated is
written to the repository: the pages exist only in mkdocs' file list.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # the checkout being documented, before any installed schemalint
    sys.path.insert(0, str(REPO))

from schemalint import __version__  # noqa: E402
from schemalint.docs_site import generated_pages, options_reference_markdown  # noqa: E402

#: README sections that become pages of their own: page -> (title, sections)
SECTION_PAGES = {
    "configuration.md": ("Configuration", ("Configuration",)),
    "output-formats.md": ("Output formats and fixes", ("Output formats", "Fixing")),
}
_LINK = re.compile(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)")
_CATALOGUE_FOLDER = re.compile(r"^rules/(SL\d{3}-[a-z0-9-]+)/?$")


def on_config(config: Any) -> Any:
    config["site_name"] = f"schemalint {__version__}"
    return config


def on_files(files: Files, config: Any) -> Files:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    sections = _sections(readme)
    pages = dict(generated_pages())
    for path in pages:
        folder = REPO / path.removesuffix(".md")  # rules/SL309-invalid-schema.md -> the catalogue folder
        if folder.name.startswith("SL") and folder.is_dir():
            pages[path] += _catalogue_section(folder)
    moved: dict[str, str] = {}
    for page, (title, names) in SECTION_PAGES.items():
        body = "\n\n".join(sections[name] for name in names)
        pages[page] = f"# {title}\n\n{body}\n"
        moved.update(dict.fromkeys(names, page))
    pages["configuration.md"] += "\n" + options_reference_markdown()
    index = [sections[""]]
    for name, text in sections.items():
        if name in moved:
            index.append(f"## {name}\n\nSee [{name}]({moved[name]}).\n")
        elif name:
            index.append(text)
    pages["index.md"] = "\n".join(index)
    for page in ("index.md", *SECTION_PAGES):
        pages[page] = _site_links(pages[page])
    for path, content in pages.items():
        files.append(File.generated(config, path, content=content))
    return files


#: a catalogue input longer than this is named, not shown
MAX_SHOWN_INPUT = 3000
_FENCE = {".json": "json", ".yaml": "yaml", ".yml": "yaml", ".py": "python", ".txt": "text"}


def _catalogue_section(folder: Path) -> str:
    """The rule's catalogue folder (rules/SLnnn-slug/): its inputs and the findings on them."""
    lines = [
        "## In the catalogue",
        "",
        f"The inputs of `rules/{folder.name}/` and what schemalint reports on them.",
        "",
    ]
    inputs = sorted(p for p in folder.iterdir() if p.suffix in _FENCE and p.name != "expected.txt")
    for kind in ("bad", "good"):
        for path in (p for p in inputs if p.name.startswith(kind)):
            text = path.read_text(encoding="utf-8")
            lines.append(f"`{path.name}`" + (":" if len(text) <= MAX_SHOWN_INPUT else f" ({len(text):,} characters)"))
            lines.append("")
            if len(text) <= MAX_SHOWN_INPUT:
                lines += [f"```{_FENCE[path.suffix]}", text.rstrip("\n"), "```", ""]
    expected = folder / "expected.txt"
    if expected.is_file():
        lines += ["Findings:", "", "```text", expected.read_text(encoding="utf-8").rstrip("\n"), "```", ""]
    return "\n".join(lines)


def _sections(markdown: str) -> dict[str, str]:
    """Level-2 sections by heading ("" for the text before the first one); fenced code is not read."""
    sections: dict[str, list[str]] = {"": []}
    current, fenced = "", False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and line.startswith("## "):
            current = line[3:].strip()
            sections[current] = []
        sections[current].append(line)
    return {name: "\n".join(lines) + "\n" for name, lines in sections.items()}


def _site_links(markdown: str) -> str:
    """README links as the site has them: docs/X.md -> X.md, the catalogue -> the rule pages; a link to
    another file of the repository becomes its path in code (the site does not hold it)."""

    def replace(match: re.Match[str]) -> str:
        text, target = match.group(1), match.group(2)
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            return match.group(0)
        path, _, fragment = target.partition("#")
        anchor = f"#{fragment}" if fragment else ""
        if path.startswith("docs/"):
            return f"[{text}]({path.removeprefix('docs/')}{anchor})"
        if path in ("rules/README.md", "rules/", "rules"):
            return f"[{text}](rules/index.md)"
        folder = _CATALOGUE_FOLDER.match(path)
        if folder:
            return f"[{text}](rules/{folder.group(1)}.md)"
        return text if text.startswith("`") else f"{text} (`{path}`)"

    return _LINK.sub(replace, markdown)
