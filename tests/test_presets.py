"""Presets (`extend`), what a user's own settings do on top of them, `rule`'s table and `--show-settings`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from schemalint.config import Config, ConfigError, load_config
from schemalint.presets import NOT_RECOMMENDED, PRESETS, PROVIDER_RULES, preset_codes
from schemalint.rules import RULE_INDEX, all_rules

from .test_catalogue import CATALOGUE, INPUT_SUFFIXES, folder_name
from .test_cli import run


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _tool(name: str, properties: dict[str, object], required: list[str] | None = None) -> dict[str, object]:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": f"{name.replace('_', ' ').capitalize()} for a city. Do not use it for forecasts.",
            "parameters": {
                "type": "object",
                "properties": properties,
                "required": list(properties) if required is None else required,
                "additionalProperties": False,
            },
        },
    }


CITY = {"city": {"type": "string", "description": "City name"}}
#: `weather` is not verb + noun (SL102, left out of recommended)
NOT_VERB_NOUN = [_tool("weather", CITY)]
#: an optional property: SL401 only when the tool is checked against openai-strict
OPTIONAL = [
    _tool("get_weather", {**CITY, "units": {"type": "string", "enum": ["c", "f"], "description": "Units"}}, ["city"])
]
#: an MCP tool with `uniqueItems`: Gemini rejects it; a warning, since an MCP tool may never reach Gemini
MCP_UNIQUE = {
    "tools": [
        {
            "name": "tag_user",
            "description": "Add tags to a user. Do not use it to remove tags; it changes the user record.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "tags": {
                        "type": "array",
                        "items": {"type": "string"},
                        "uniqueItems": True,
                        "maxItems": 5,
                        "description": "Tags to add",
                    }
                },
                "required": ["tags"],
                "additionalProperties": False,
            },
        }
    ]
}


def write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def codes(*args: str) -> list[tuple[str, str]]:
    code, out = run("check", *args, "--output-format", "json")
    assert code in (0, 1), out
    return [(f["code"], f["severity"]) for f in json.loads(out)]


def test_recommended_is_the_default_and_leaves_out_the_imprecise_rules(project: Path) -> None:
    write(project / "tools.json", NOT_VERB_NOUN)
    assert ("SL102", "info") not in codes("tools.json")
    assert ("SL102", "info") in codes("tools.json", "--preset", "strict")
    default = Config(root=project)
    assert set(default.enabled_rules) == preset_codes(PRESETS["recommended"])
    assert not set(NOT_RECOMMENDED) & set(default.enabled_rules)
    assert {"SL203", "SL303", "SL901"} <= set(default.enabled_rules)  # precise, fixable, and --against's rules


def test_user_settings_win_over_the_preset(project: Path) -> None:
    write(project / "tools.json", NOT_VERB_NOUN)
    config = project / "pyproject.toml"
    config.write_text('[tool.schemalint]\nextend-select = ["SL102"]\n', encoding="utf-8")
    assert ("SL102", "info") in codes("tools.json")
    config.write_text('[tool.schemalint]\nselect = ["SL1"]\n', encoding="utf-8")
    assert ("SL102", "info") in codes("tools.json")
    config.write_text('[tool.schemalint]\nextend = "strict"\nignore = ["name-not-verb-noun"]\n', encoding="utf-8")
    assert ("SL102", "info") not in codes("tools.json")
    assert ("SL102", "info") not in codes("tools.json", "--select", "SL102")  # `ignore` wins, as before presets
    assert ("SL102", "info") in codes("tools.json", "--no-config", "--select", "SL102")


def test_strict_reports_provider_findings_as_errors_unless_configured(project: Path) -> None:
    write(project / "mcp.json", MCP_UNIQUE)
    assert ("SL402", "warning") in codes("mcp.json")
    assert ("SL402", "error") in codes("mcp.json", "--preset", "strict")
    (project / ".schemalint.toml").write_text(
        'extend = ["strict"]\n[rules.SL402]\nseverity = "warning"\n', encoding="utf-8"
    )
    assert ("SL402", "warning") in codes("mcp.json")


def test_provider_presets_set_targets_that_an_explicit_target_replaces(project: Path) -> None:
    write(project / "tools.json", OPTIONAL)
    assert not [c for c in codes("tools.json") if c[0] == "SL401"]
    assert ("SL401", "error") in codes("tools.json", "--preset", "openai-strict")
    assert not [c for c in codes("tools.json", "--preset", "openai-strict", "--target", "openai") if c[0] == "SL401"]
    write(project / "mcp.json", MCP_UNIQUE)
    assert ("SL402", "error") in codes("mcp.json", "--preset", "gemini")
    assert not [c for c in codes("mcp.json", "--preset", "anthropic") if c[0] == "SL402"]


def test_presets_combine(project: Path) -> None:
    (project / ".schemalint.toml").write_text('extend = ["mcp", "gemini"]\n', encoding="utf-8")
    config = load_config(project / ".schemalint.toml")
    assert {"SL701", "SL702"} <= set(config.enabled_rules)
    assert config.provider_targets == ("gemini",)
    assert config.promoted == PROVIDER_RULES


@pytest.mark.parametrize("value", ['"lenient"', '["recommended", "loose"]', "3"])
def test_bad_preset_is_a_config_error_naming_the_key(project: Path, value: str) -> None:
    (project / ".schemalint.toml").write_text(f"extend = {value}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="`extend`"):
        load_config(project / ".schemalint.toml")
    write(project / "tools.json", NOT_VERB_NOUN)
    code, out = run("check", "tools.json")
    assert code == 2 and "extend" in out
    assert run("check", "tools.json", "--no-config", "--preset", "nope")[0] == 2


def test_every_preset_names_real_rules_and_recommended_documents_each_omission() -> None:
    known = {entry.code for entry in RULE_INDEX}
    assert set(NOT_RECOMMENDED) <= known and known >= PROVIDER_RULES
    for preset in PRESETS.values():
        assert preset_codes(preset) >= preset_codes(PRESETS["recommended"]) or preset.name == "recommended"
    assert preset_codes(PRESETS["strict"]) == known
    docs = (Path(__file__).resolve().parent.parent / "docs" / "presets.md").read_text(encoding="utf-8")
    for code in NOT_RECOMMENDED:
        assert f"| {code} " in docs, f"docs/presets.md does not say why {code} is not recommended"
    for name in PRESETS:
        assert f"`{name}`" in docs


def test_rule_table_shows_default_presets_and_fixes() -> None:
    code, out = run("rule", "--output-format", "json")
    assert code == 0
    rows = {row["code"]: row for row in json.loads(out)}
    assert rows["SL303"]["default"] is True and rows["SL303"]["fixable"] == ["safe"]
    assert rows["SL401"]["fixable"] == ["unsafe"] and rows["SL401"]["severity"] == "error"
    assert rows["SL502"]["default"] is False and rows["SL502"]["presets"] == ["strict"]
    assert rows["SL702"]["presets"] == ["strict", "mcp"]
    code, out = run("rule")
    line = next(line for line in out.splitlines() if line.startswith("SL502"))
    assert " off " in line and "strict" in line
    code, out = run("rule", "SL303")
    assert "default: on; presets: all; fix: safe" in out


def test_declared_fixes_match_the_fixes_rules_offer(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule whose catalogue inputs get a fix declares its kind, and a rule that declares one offers it there."""
    for rule in all_rules():
        folder = CATALOGUE / folder_name(rule)
        if not folder.is_dir():
            continue
        monkeypatch.chdir(folder)
        inputs = sorted(p.name for p in folder.iterdir() if p.suffix in INPUT_SUFFIXES)
        config = folder / "schemalint.toml"
        args = ["check", *inputs, "--select", rule.code, "--output-format", "json", "--fail-on", "never"]
        args += ["--config", str(config)] if config.is_file() else ["--no-config"]
        code, out = run(*args)
        assert code == 0, out
        offered = {"safe" if f["fix"]["safe"] else "unsafe" for f in json.loads(out) if f["fix"]}
        assert offered == set(rule.fixable), f"{rule.code} declares {rule.fixable}, offers {sorted(offered)}"


def test_show_settings_says_where_each_value_came_from(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.schemalint]\nextend = "gemini"\nignore = ["SL203"]\n'
        "[tool.schemalint.rules.SL301]\nmax-depth = 3\n",
        encoding="utf-8",
    )
    write(project / "tools.json", NOT_VERB_NOUN)
    code, out = run("check", "--show-settings", "tools.json", "--extend-select", "SL102", "--fail-on", "info")
    assert code == 0, out
    where = f"{project / 'pyproject.toml'}:tool.schemalint"
    assert f'extend = ["gemini"]  # {where}.extend' in out
    assert f"rules off = SL203  # {where}.ignore" in out
    assert "rules on = SL102  # command line (--extend-select)" in out
    assert f"rules.SL301.max-depth = 3  # {where}.rules.SL301" in out
    assert 'rules.SL402.severity = "warnings reported as errors"  # preset gemini' in out
    assert 'targets = ["gemini"]  # preset gemini' in out
    assert 'fail-on = "info"  # command line (--fail-on)' in out
    assert 'include = ["*.json", "*.yaml", "*.yml", "*.py"]  # default' in out
    assert "fixtures." not in out
    with (project / "pyproject.toml").open("a", encoding="utf-8") as config:
        config.write('[tool.schemalint.fixtures]\n"evals/*.json" = "tools.json"\n')
    _, out = run("check", "--show-settings", "evals/orders.json")
    assert f'fixtures.evals/*.json = ["tools.json"]  # {where}.fixtures' in out
    code, out = run("check", "--show-settings", "tools.json", "--output-format", "json", "--no-config")
    rows = {row["key"]: row for row in json.loads(out)}
    assert rows["rule.SL502"] == {"key": "rule.SL502", "value": "off", "origin": "not in preset recommended"}
    assert rows["rule.SL303"]["origin"] == "preset recommended"
    assert rows["extend"] == {"key": "extend", "value": ["recommended"], "origin": "default"}
