"""SL502's final score: how likely a model is to confuse two tools, in [0, 1].

    score = semantic * action * boundary * job

- `semantic`: the cosine of the two tools' embeddings (name words + description, minus the
  description's boundary sentences, which talk about other tools), mapped linearly to [0, 1]
  between a typical unrelated-pair cosine (0) and a typical paraphrase cosine (1) (`Scale`). The
  vectors are first centred on a share of the set's mean (compare.py): none for two tools, more
  the more tools there are, so what a server's tools share (their domain) counts less; the map
  moves with that share from the raw cosine's scale to the centred one's.
- `action` (actions.py): 1.0 for the same kind of action, lower for different kinds (a read against
  a write), 0.1 for opposite actions (lock/unlock, 冻结/解冻).
- `boundary`: descriptions that draw an explicit line between the tools are not confusable: 0.15
  when a description names the sibling tool, 0.55 when it has exclusion text ("do not use for",
  "only for", "不用于") without naming it.
- `job` (jobs.py): what separates the jobs in the names and inputs.
- pairs whose descriptions are in different languages (one Chinese, one English) use the larger of
  the full cosine and the cosine of the name words alone: an English-trained model barely relates
  a Chinese description to an English one, but the names are comparable.
- parameter overlap lifts `semantic` a little (up to +0.1) when both tools take the same parameter
  names, since the model can then fill either call with the same arguments.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any, NamedTuple

from schemalint.similarity.actions import CJK, Action, action_affinity, identifier_words, tool_action
from schemalint.similarity.jobs import Separation, job_factor, required_names
from schemalint.similarity.overlap import jaccard, parameter_names

#: (cosine that maps to 0, cosine that maps to 1) per backend: the median cosine of unrelated pairs
#: and of paraphrase pairs on the labelled dev pairs, rounded to 0.05 (the models' cosine scales
#: differ: MiniLM puts unrelated texts near 0, the static model near 0.2); `centred` is the scale
#: of vectors centred on their whole set's mean, where siblings of one server, not strangers, are
#: the typical pair
Scale = tuple[float, float]
CALIBRATION: dict[str, Scale] = {
    "static": (0.20, 0.65),
    "sentence-transformers": (0.05, 0.60),
    "centred": (0.40, 0.90),
}
NAMES_SIBLING = 0.15
HAS_EXCLUSION = 0.55
PARAMETER_BONUS = 0.1

_SENTENCE_END = re.compile(r"(?<=[.!?。；;！？])\s*|\s*\n\s*")
#: a fenced code block (an example request or response), left out of what is embedded
_CODE_BLOCK = re.compile(r"```.*?(?:```|$)", re.DOTALL)
_IDENTIFIER = re.compile(r"[\w\-]+(?:\.[\w\-]+)*")
_EN_EXCLUSIONS = (
    "do not use|don't use|never use|not for|not to be used|use only|only use|only for|instead use|"
    r"use \w+ instead|instead\b"
)
_ZH_EXCLUSIONS = "不用于|不要用|请勿|只用于|仅用于|仅限|请使用|请用|改用"
#: the lookahead on the phrases' first letters lets the regex engine pass over most positions at
#: once instead of trying every phrase there (half the time of a scan)
_FIRST_LETTERS = "".join(sorted({phrase[0] for phrase in f"{_EN_EXCLUSIONS}|{_ZH_EXCLUSIONS}".split("|")}))
_EXCLUSION = re.compile(rf"(?=[{_FIRST_LETTERS}])(?:\b({_EN_EXCLUSIONS})|{_ZH_EXCLUSIONS})", re.IGNORECASE)


def has_exclusion_text(text: str) -> bool:
    """Whether `text` says what a tool is not for ("do not use for", "only for", "不用于"). Every English
    phrase holds "use", "not for", "only" or "instead", so an ASCII text (no Chinese phrase, no Unicode
    case folding) without them is answered by a lowercase copy and four substring tests, not by the
    regex scan, a view's costliest step (most real descriptions have no exclusion text)."""
    if text.isascii():
        lowered = text.lower()
        if not ("use" in lowered or "not for" in lowered or "only" in lowered or "instead" in lowered):
            return False
    return _EXCLUSION.search(text) is not None


class ToolView:
    """What scoring needs of a tool, detached from the model classes. Everything that depends on one
    tool only is derived here once per tool, never once per pair: scoring a pair reads attributes."""

    __slots__ = (
        "_action",
        "_ids",
        "description",
        "has_exclusion",
        "is_cjk",
        "name",
        "own_text",
        "parameter_names",
        "required",
        "sentences",
        "title",
    )

    def __init__(
        self,
        name: str,
        description: str,
        parameter_names: frozenset[str],
        required: frozenset[str] = frozenset(),
        title: str = "",
    ) -> None:
        self.name = name
        self.title = title
        self.description = description
        #: the description less the sentences the set's tools share (`drop_common_sentences`): where the
        #: tool's own action and wording are read
        self.own_text = description
        self.parameter_names = parameter_names
        self.required = required
        #: the description's sentences, each with whether it has exclusion text ("do not use for");
        #: no exclusion phrase spans a sentence end, so this is the one regex scan both uses need
        # an example's JSON and URLs are alike in every tool of an API and say nothing of the job
        prose = _CODE_BLOCK.sub(" ", description) if "```" in description else description
        sentences = [s for s in _SENTENCE_END.split(prose) if s.strip()]
        self.has_exclusion = has_exclusion_text(description)
        self.sentences = [(s, self.has_exclusion and _EXCLUSION.search(s) is not None) for s in sentences]
        #: whether the description is written in Chinese/Japanese (then an English-trained model only
        #: compares it well with other CJK descriptions)
        self.is_cjk = CJK.search(description) is not None
        self._action: Action | None = None
        self._ids: frozenset[str] | None = None

    @property
    def action(self) -> Action:
        """Found on first use: only tools in a candidate pair need one."""
        if self._action is None:
            self._action = tool_action(self.name, self.own_text)
        return self._action

    @property
    def identifiers(self) -> frozenset[str]:
        """Identifier-like words of the description (`get_weather_history`, `weather.now`), found on
        first use: only descriptions that contain a sibling's name need them."""
        if self._ids is None:
            self._ids = frozenset(_IDENTIFIER.findall(self.description))
        return self._ids

    def name_text(self) -> str:
        return " ".join(identifier_words(self.name))

    def embedding_text(self) -> str:
        """Name words, then the description without its boundary sentences ("Not for X; use y") and
        without the set's common sentences (`drop_common_sentences`): names carry the action and keep
        mixed-language pairs comparable, and boundary sentences talk about the *other* tools."""
        words = self.name_text()
        kept = [s for s, excluded in self.sentences if not excluded]
        description = " ".join(kept) if kept else self.description
        return f"{words}: {description}" if words else description


#: a sentence repeated in the descriptions of at least this many tools of a set is the set's, not a tool's
COMMON_SENTENCE_TOOLS = 3


def _sentence_key(sentence: str) -> str:
    return " ".join(sentence.lower().split())


def drop_common_sentences(views: Sequence[ToolView]) -> None:
    """Forget the sentences that at least COMMON_SENTENCE_TOOLS of the tools' descriptions share ("This
    tool belongs to the X API", "Use this for an existing resource; choose the create tool for a new
    one"): they say nothing about which tool does what, yet pull every pair together, and a line that
    every tool draws does not set two of them apart."""
    if len(views) < COMMON_SENTENCE_TOOLS:
        return
    counts = Counter(key for view in views for key in {_sentence_key(s) for s, _ in view.sentences})
    common = {key for key, count in counts.items() if count >= COMMON_SENTENCE_TOOLS}
    for view in views:
        own = [(s, excluded) for s, excluded in view.sentences if _sentence_key(s) not in common]
        if len(own) < len(view.sentences):
            view.sentences = own
            view.has_exclusion = any(excluded for _, excluded in own)
            view.own_text = "\n".join(s for s, _ in own) or view.description


def tool_view(name: str | None, description: str | None, parameters: Any, title: str | None = None) -> ToolView:
    return ToolView(name or "", description or "", parameter_names(parameters), required_names(parameters), title or "")


def scale_for(backend: str, centring: float = 0.0) -> Scale:
    """The backend's scale moved by `centring` (the share of the set's mean taken out of the
    vectors, 0 to 1) towards the centred one."""
    (raw_low, raw_high), (low, high) = CALIBRATION.get(backend, CALIBRATION["static"]), CALIBRATION["centred"]
    return raw_low + centring * (low - raw_low), raw_high + centring * (high - raw_high)


def calibrate(cosine: float, scale: Scale) -> float:
    low, high = scale
    return min(1.0, max(0.0, (cosine - low) / (high - low)))


def _mentions(view: ToolView, name: str) -> bool:
    # the substring test first: most descriptions name no sibling, and `identifiers` is a regex scan
    return len(name) >= 3 and name in view.description and name in view.identifiers


#: a name or title is a reference to that tool when quoted, or followed by "tool" / "function" / "endpoint"
_REFERENCE = r"(?:['\"`‘“]\s*{label}\s*['\"`’”]|\b{label}\s+(?:tool|function|endpoint)\b)"


def _refers_to(view: ToolView, label: str, fewest_words: int) -> bool:
    """Whether the description refers to a tool by its name or title in any case ("use the GeoCode
    tool", "call 'Resolve Library ID' first"); a title must have `fewest_words` words, as a one-word
    title is a common word too."""
    if len(label) < 3 or len(label.split()) < fewest_words or label.lower() not in view.description.lower():
        return False
    pattern = _REFERENCE.format(label=re.escape(label))
    return re.search(pattern, view.description, re.IGNORECASE) is not None


def names_sibling(a: ToolView, b: ToolView) -> bool:
    """Whether either description names the other tool, by its name or by its title."""
    return any(
        _mentions(x, y.name) or _refers_to(x, y.name, 1) or _refers_to(x, y.title, 2) for x, y in ((a, b), (b, a))
    )


def boundary_factor(a: ToolView, b: ToolView) -> float:
    if names_sibling(a, b):
        return NAMES_SIBLING
    if a.has_exclusion or b.has_exclusion:
        return HAS_EXCLUSION
    return 1.0


def parameter_overlap(a: ToolView, b: ToolView) -> float:
    if not a.parameter_names or not b.parameter_names:
        return 0.0
    return jaccard(a.parameter_names, b.parameter_names)


class PairScore(NamedTuple):
    """A pair's final score and its parts (a named tuple: one is built per candidate pair)."""

    score: float
    cosine: float
    semantic: float
    action: float
    boundary: float
    parameters: float
    #: how much the names, texts and inputs separate the jobs (jobs.py): 1 when nothing does
    job: float
    #: what separates the jobs ("" when nothing does)
    separation: str


def cross_language(a: ToolView, b: ToolView) -> bool:
    return a.is_cjk != b.is_cjk


def score_pair(a: ToolView, b: ToolView, cosine: float, scale: Scale, name_cosine: float | None = None) -> PairScore:
    """The final score; `name_cosine` (cosine of the name words alone) is used for pairs whose
    descriptions are in different languages, where the description cosine says little."""
    if name_cosine is not None and cross_language(a, b):
        cosine = max(cosine, name_cosine)
    overlap = parameter_overlap(a, b)
    semantic = min(1.0, calibrate(cosine, scale) + PARAMETER_BONUS * overlap)
    action = action_affinity(a.action, b.action)
    boundary = boundary_factor(a, b)
    job, reason = separation(a, b)
    return PairScore(semantic * action * boundary * job, cosine, semantic, action, boundary, overlap, job, reason)


def separation(a: ToolView, b: ToolView) -> Separation:
    """What separates the two tools' jobs (jobs.job_factor)."""
    return job_factor(
        a.name, a.own_text, a.parameter_names, a.required, b.name, b.own_text, b.parameter_names, b.required
    )
