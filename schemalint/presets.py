"""Presets: named starting points for the rule selection, chosen with `extend = "NAME"` (default
`recommended`). A user's own `select`, `targets` and `rules.X.severity` win over every preset;
`extend-select` and `ignore` apply on top of it. docs/presets.md says why each rule is where it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

#: the rules that report what a provider will refuse, ignore or rewrite: `strict` and the provider presets
#: raise their warnings (uncertain rows, tools forwarded to a provider that is not their own) to errors
PROVIDER_RULES = frozenset({"SL103", "SL107", "SL208", "SL401", "SL402", "SL403", "SL404"})

#: the rules `recommended` leaves out, each with the reason; read hits on real tool sets decided it
#: (benchmarks/corpus_rule_hits.py; judged samples in docs/presets.md)
NOT_RECOMMENDED: dict[str, str] = {
    "SL102": "an opinion on naming style: many good names are not verb + noun",
    "SL105": "a style opinion; mixed styles are common in real servers and harmless to models",
    "SL207": "not judged on real servers; many ids have no fixed shape",
    "SL307": "about 11 of 18 hits on real servers were right",
    "SL502": "fewer than half of a sample of real-server pairs were confusable tools",
    "SL504": "not judged on real servers; overlapping parameters are often deliberate",
    "SL701": "not measured: the real tool sets at hand have no output schemas",
    "SL702": "half of its real-server hits were arguable (the API refuses the duplicate)",
    "SL703": "not measured: the real tool sets at hand have no output schemas",
    "SL803": "not measured on real requests; its write and retry words are SL205's and SL702's",
}

#: rules the `mcp` preset adds to `recommended`: an MCP server owns its results, errors and retries
MCP_RULES = ("SL701", "SL702", "SL703")


@dataclass(frozen=True)
class Preset:
    name: str
    summary: str
    #: selectors of the rules it turns on
    select: tuple[str, ...]
    #: selectors of the rules it leaves out of `select`
    ignore: tuple[str, ...] = ()
    #: provider targets, when the preset names them (otherwise each tool's dialect decides)
    targets: tuple[str, ...] = ()
    #: codes whose warnings are reported as errors
    promote: frozenset[str] = frozenset()


def _provider(name: str, target: str, provider: str) -> Preset:
    return Preset(
        name,
        f"recommended, checked against {provider} ({target}); what {provider} refuses is an error",
        ("ALL",),
        tuple(NOT_RECOMMENDED),
        (target,),
        PROVIDER_RULES,
    )


PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        Preset(
            "recommended",
            "the rules judged precise on real tool sets (the default)",
            ("ALL",),
            tuple(NOT_RECOMMENDED),
        ),
        Preset("strict", "every rule; provider compatibility findings are errors", ("ALL",), (), (), PROVIDER_RULES),
        _provider("openai-strict", "openai-strict", "OpenAI strict mode"),
        _provider("anthropic", "anthropic", "Anthropic"),
        _provider("gemini", "gemini", "Gemini"),
        Preset(
            "mcp",
            "recommended plus the rules about results, errors and retries (SL701-SL703), for MCP servers",
            ("ALL",),
            tuple(code for code in NOT_RECOMMENDED if code not in MCP_RULES),
        ),
    )
}
DEFAULT_PRESETS = ("recommended",)


@cache
def preset_codes(preset: Preset) -> frozenset[str]:
    """The codes of the rules `preset` turns on."""
    from schemalint.rules import match_selector

    on = {entry.code for selector in preset.select for entry in match_selector(selector)}
    off = {entry.code for selector in preset.ignore for entry in match_selector(selector)}
    return frozenset(on - off)


def presets_with(code: str, names: Iterable[str] = PRESETS) -> list[str]:
    """The presets among `names` that turn the rule `code` on."""
    return [name for name in names if code in preset_codes(PRESETS[name])]
