"""JUnit XML: one test suite per file, one failing test case per finding; a clean file is one passing case."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from itertools import groupby

from schemalint.diagnostics import Diagnostic
from schemalint.loaders import Document

#: characters XML 1.0 cannot carry at all (a finding about hidden characters may quote them)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml_text(text: str) -> str:
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def render(diagnostics: Sequence[Diagnostic], documents: Mapping[str, Document], color: bool = False) -> str:
    root = ET.Element("testsuites", name="schemalint")
    by_path = {p: list(g) for p, g in groupby(sorted(diagnostics, key=lambda d: d.path), lambda d: d.path)}
    total = failures = 0
    for path in sorted(set(by_path) | set(documents)):
        findings = by_path.get(path, [])
        cases = max(len(findings), 1)
        suite = ET.SubElement(root, "testsuite", name=path, tests=str(cases), failures=str(len(findings)), errors="0")
        if not findings:
            ET.SubElement(suite, "testcase", name="schemalint", classname=path, file=path)
        for d in findings:
            line, column = d.span.line, d.span.column
            name = f"{d.code} {d.slug} at {line}:{column}"
            case = ET.SubElement(suite, "testcase", name=name, classname=path, file=path, line=str(line))
            failure = ET.SubElement(case, "failure", message=_xml_text(d.message), type=d.code)
            failure.text = _xml_text(f"{path}:{line}:{column}: {d.code} [{d.severity.label}] {d.message}")
        total += cases
        failures += len(findings)
    root.attrib.update(tests=str(total), failures=str(failures), errors="0")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
