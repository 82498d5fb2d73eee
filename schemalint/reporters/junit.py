"""JUnit XML: one test suite per file, one failing test case per finding; a clean file is one passing case."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from itertools import groupby

from schemalint.diagnostics import Diagnostic
from schemalint.loaders import Document

#: characters XML 1.0 cannot carry at all (a finding about hidden characters may quote them)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
#: what ElementTree escapes in attribute values besides &, < and >
_ATTRIBUTE_ENTITIES = {'"': "&quot;", "\r": "&#13;", "\n": "&#10;", "\t": "&#09;"}
_ATTRIBUTE_SPECIAL = re.compile('[&<>"\r\n\t]')
_TEXT_SPECIAL = re.compile("[&<>]")


def _xml_text(text: str) -> str:
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def _escape(value: str, entities: Mapping[str, str] = {}) -> str:
    """`xml.sax.saxutils.escape`, whose module imports urllib.request, http.client and ssl."""
    value = value.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")
    for char, entity in entities.items():
        value = value.replace(char, entity)
    return value


def _attribute(value: str) -> str:
    """An attribute value escaped as ElementTree escapes it."""
    return _escape(value, _ATTRIBUTE_ENTITIES) if _ATTRIBUTE_SPECIAL.search(value) else value


def _text(value: str) -> str:
    return _escape(value) if _TEXT_SPECIAL.search(value) else value


def _start_tag(tag: str, **attributes: str) -> str:
    return f"<{tag}" + "".join(f' {name}="{_attribute(value)}"' for name, value in attributes.items())


def render(diagnostics: Sequence[Diagnostic], documents: Mapping[str, Document], color: bool = False) -> str:
    """The XML ElementTree writes for this tree once `ET.indent` has indented it, written directly
    (ElementTree's pure-Python serializer is slow on large reports). `test_junit_is_what_
    elementtree_writes` compares the two."""
    by_path = {
        path: list(group) for path, group in groupby(sorted(diagnostics, key=lambda d: d.path), lambda d: d.path)
    }
    lines: list[str] = []
    total = failures = 0
    for path in sorted(set(by_path) | set(documents)):
        findings = by_path.get(path, [])
        cases = max(len(findings), 1)
        lines.append(
            "  " + _start_tag("testsuite", name=path, tests=str(cases), failures=str(len(findings)), errors="0") + ">"
        )
        if not findings:
            lines.append("    " + _start_tag("testcase", name="schemalint", classname=path, file=path) + " />")
        in_file = f'classname="{_attribute(path)}" file="{_attribute(path)}"'
        xml_path = _xml_text(path)
        for d in findings:
            line, column, code = d.span.line, d.span.column, _attribute(d.code)
            message = _xml_text(d.message)
            name = _attribute(f"{d.code} {d.slug} at {line}:{column}")
            lines.append(f'    <testcase name="{name}" {in_file} line="{line}">')
            text = _text(f"{xml_path}:{line}:{column}: {d.code} [{d.severity.label}] {message}")
            lines.append(f'      <failure message="{_attribute(message)}" type="{code}">{text}</failure>')
            lines.append("    </testcase>")
        lines.append("  </testsuite>")
        total += cases
        failures += len(findings)
    root = _start_tag("testsuites", name="schemalint", tests=str(total), failures=str(failures), errors="0")
    body = root + (">\n" + "\n".join(lines) + "\n</testsuites>" if lines else " />")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"
