"""The rules/ catalogue: one folder per registered rule, bad and good inputs, an expected-output snapshot."""

from __future__ import annotations

import pytest

from schemalint.engine import LintOptions, lint
from schemalint.presets import PRESETS, preset_codes
from schemalint.rules import all_rules
from schemalint.rules.base import Rule, Scope

from .conftest import REPO, UPDATE_SNAPSHOTS

CATALOGUE = REPO / "rules"
INPUT_SUFFIXES = {".json", ".jsonl", ".yaml", ".yml", ".py"}


def folder_name(rule: type[Rule]) -> str:
    return f"{rule.code}-{rule.slug}"


def render_index() -> str:
    lines = [
        "# Rule catalogue",
        "",
        "Generated from the rule registry (`SCHEMALINT_UPDATE_SNAPSHOTS=1 pytest tests/test_catalogue.py`).",
        "Each folder holds bad and good inputs and `expected.txt`, the findings schemalint reports on them.",
        "`schemalint rule CODE` prints a rule's full documentation. `default`: on in the `recommended`",
        "preset, which runs when the configuration names none ([docs/presets.md](../docs/presets.md)).",
        "Change rules (SL9xx) compare two versions, so they have no folder: their cases are in",
        "[tests/diff/](../tests/diff/).",
        "",
        "| code | slug | severity | scope | default | what it flags |",
        "|---|---|---|---|---|---|",
    ]
    recommended = preset_codes(PRESETS["recommended"])
    for rule in all_rules():
        code = rule.code if rule.scope is Scope.CHANGE else f"[{rule.code}]({folder_name(rule)}/)"
        lines.append(
            f"| {code} | {rule.slug} | {rule.severity.label} | {rule.scope.value} "
            f"| {'on' if rule.code in recommended else 'off'} | {rule.summary.replace('|', '/')} |"
        )
    return "\n".join(lines) + "\n"


def test_folders_match_registered_rules() -> None:
    folders = {p.name for p in CATALOGUE.iterdir() if p.is_dir()}
    expected = {folder_name(r) for r in all_rules() if r.scope is not Scope.CHANGE}
    assert folders == expected, f"missing: {sorted(expected - folders)}; unknown: {sorted(folders - expected)}"


def test_index_is_in_sync() -> None:
    index = CATALOGUE / "README.md"
    if UPDATE_SNAPSHOTS:
        index.write_text(render_index(), encoding="utf-8")
    assert index.read_text(encoding="utf-8") == render_index(), "rules/README.md is stale: regenerate it"


def test_every_rule_has_documentation_sections() -> None:
    for rule in all_rules():
        docs = rule.docs()
        for section in ("## What it does", "## Why is this bad?"):
            assert section in docs, f"{rule.code} docs lack {section!r}"


def _cases() -> list[type[Rule]]:
    return [r for r in all_rules() if (CATALOGUE / folder_name(r)).is_dir()]


@pytest.mark.parametrize("rule", _cases(), ids=lambda r: r.code)
def test_catalogue_folder(rule: type[Rule], monkeypatch: pytest.MonkeyPatch) -> None:
    folder = CATALOGUE / folder_name(rule)
    monkeypatch.chdir(folder)
    inputs = sorted(p.name for p in folder.iterdir() if p.suffix in INPUT_SUFFIXES)
    bad = [name for name in inputs if name.startswith("bad")]
    good = [name for name in inputs if name.startswith("good")]
    assert bad and good, f"{folder.name} needs at least one bad* and one good* input"
    config = folder / "schemalint.toml"
    options = LintOptions(
        select=(rule.code,),
        config_file=config if config.is_file() else None,
        no_config=not config.is_file(),
    )
    lines = []
    for name in bad + good:
        result = lint([name], options)
        found = [d for d in result.diagnostics if d.code == rule.code]
        if name.startswith("bad"):
            assert found, f"{folder.name}/{name}: expected {rule.code} findings, got none"
        else:
            assert not found, f"{folder.name}/{name}: expected no {rule.code}, got {[d.message for d in found]}"
        lines += [f"{d.path}:{d.span.line}:{d.span.column}: {d.code} [{d.severity.label}] {d.message}" for d in found]
    snapshot = folder / "expected.txt"
    text = "\n".join(lines) + "\n"
    if UPDATE_SNAPSHOTS:
        snapshot.write_text(text, encoding="utf-8")
    assert snapshot.is_file(), f"{folder.name}/expected.txt is missing"
    assert snapshot.read_text(encoding="utf-8") == text
