from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import Severity, ToolSet
from schemalint.rules.base import LintContext, ToolSetRule, rule_options


@rule_options
class Options:
    threshold: float = 0.5
    """Report pairs whose final score (0..1) is at least this; 0 reports every pair with its score."""
    max_pairs_per_tool: int = 5
    """Each tool is compared in full with its nearest neighbours by cosine, at most this many."""


class SimilarDescriptions(ToolSetRule):
    """
    ## What it does
    Finds pairs of tools in the same set that a model is likely to confuse: their names and
    descriptions say the same thing. Each pair gets a final score in 0..1 and is reported when the
    score reaches `threshold`, on the later tool of the pair, naming the earlier one.

    The score is not raw embedding cosine, which rates `create_invoice` and `delete_invoice`, or
    `get_order` and `list_orders`, as near-duplicates. It is `semantic x action x boundary x job`,
    on a documented 0..1 scale (not a probability):
    - semantic: cosine of the embeddings of "name words: description" (boundary sentences such as
      "Not for X; use y", code examples, and sentences or lines that three or more tools of the set
      repeat, left out), mapped linearly so 0 is a typical unrelated pair and 1 a typical paraphrase
      (plus up to 0.1 when the parameter names overlap); for a Chinese/English pair, the cosine of
      the names alone when that is higher. Each pair's vectors are first centred on the mean of the
      *other* tools of the set, weighed against one tool's worth of zeros: (n - 2) / (n - 1) of it
      for n tools, none for two, half for three, nearly all for a server of dozens, so what a
      server's tools share (their domain) counts less the more the set shows of it, and the map
      moves by the same share from the backend's own (static: cosine 0.2 -> 0, 0.65 -> 1) to the
      centred one (0.4 -> 0, 0.9 -> 1), without a jump at any set size;
    - action: 1 for the same kind of action (two reads, two creates) or synonyms (patch/put/replace/
      update, apply/create), lower for different kinds (a read against a write), 0.1 for opposite
      actions (lock/unlock, approve/reject, 冻结/解冻); read from the name and from the description
      without the sentences three or more tools of the set repeat (a shared preamble says no action);
    - boundary: 0.15 when a description names its sibling ("for past dates use
      get_weather_history"), by its name, or by its name or title in any case when quoted or
      followed by "tool" ("use the GeoCode tool"), 0.55 when it has exclusion text ("do not use
      for", "只用于") in a sentence that not three or more tools of the set repeat;
    - job: what separates the jobs in the names and inputs (0.1 opposite words such as
      encode/decode or in/out, 0.15 an inverse lookup such as team_projects/project_teams, 0.3-0.6
      one against many, 0.35 one item against a list (`get_x`/`list_x`), 0.45 another action on the
      same object (`create_view`/`update_view`, not synonyms such as add/create), another object (also
      against a lone verb whose text never names it: `verify`/`verify_signature`), a list that
      takes no query against a search, or a paged list against a single result, 0.3 a draft or preview against the action itself
      (`create_reply_draft`/`reply_message`) or a read of what the other's action makes
      (`list_subscriptions`/`subscribe`), 0.6 disjoint required inputs); words after "with" or
      "including" add a detail, not an object (`list_folder`/`list_folder_with_sizes` is one job),
      version tags (`V1`) name nothing, and after a prefix the verb is read from a camelCase part
      (`acme_archiveProjectUpdate` archives a project update) or from a verb that is no noun
      (`wiki_get_page_count` gets a page count); `data.separation` names it.

    Embeddings come from the backend chosen by the global setting `embedding-backend`
    (`static`, the default, or `sentence-transformers`, used only when named; `auto` is a deprecated
    alias of `static`; `embedding-model` names the sentence-transformers model or folder) and are cached in `cache-dir` (default `.schemalint_cache/`). The finding's
    data holds `score`, `backend`, `sibling`, the score's parts, and `backend_notice` when the
    requested backend could not be used and the static one was.

    ## Why is this bad?
    When two tools' descriptions overlap, the model picks between them by chance: the wrong tool
    gets called, or different runs call different tools for the same request.

    ## Example
    ```json
    [{"name": "get_current_weather", "description": "Get the current weather for a city: temperature, wind and rain."},
     {"name": "get_weather_now", "description": "Returns the weather right now in a city: temperature, wind and rain."}]
    ```

    ## Use instead
    Merge the two tools, or give each its own job and draw the line in both descriptions: say when
    to use each and name the other.
    ```json
    [{"name": "get_current_weather",
      "description": "Get the current weather for a city: temperature, wind and rain. For the days ahead use get_forecast."},
     {"name": "get_forecast",
      "description": "Returns the weather forecast for the next days in a city. For right now use get_current_weather."}]
    ```

    ## Trade-off
    Measured on labelled pairs (paraphrases and overlapping scopes against opposite actions, bounded
    siblings, same-domain tools with different jobs, unrelated tools; English and Chinese): see
    `benchmarks/eval_similarity.py`. Tools without a description are skipped (SL2xx rules cover
    missing descriptions). The rule reads and writes the embedding cache, the one rule that does I/O.

    ## Fix safety
    No automatic fix: only the author knows where the boundary between the two tools lies.
    """

    severity = Severity.WARNING
    summary = "two tools' names and descriptions are near-duplicates a model will confuse"
    Options = Options

    def check(self, toolset: ToolSet, context: LintContext) -> Iterable[Finding]:
        from schemalint.similarity.compare import similar_pairs

        tools = [t for t in toolset.tools if t.description and t.description.strip()]
        result = similar_pairs(
            [(t.name, t.description, t.parameters) for t in tools],
            context.settings,
            threshold=self.options.threshold,
            top_k=None if self.options.threshold <= 0 else self.options.max_pairs_per_tool,
            titles=[t.title for t in tools],
        )
        names = [t.display_name for t in tools]  # once per tool: a tool can be in many pairs
        for first, second, score in result.pairs:
            earlier, later = tools[first], tools[second]
            data = {
                "score": round(score.score, 4),
                "cosine": round(score.cosine, 4),
                "action_factor": round(score.action, 4),
                "boundary_factor": round(score.boundary, 4),
                "parameter_overlap": round(score.parameters, 4),
                "job_factor": round(score.job, 4),
                "separation": score.separation,
                "backend": result.backend,
                "sibling": names[first],
                "sibling_pointer": earlier.pointer,
                "path": later.path,
            }
            if result.notice:
                data["backend_notice"] = result.notice
            message = _message(names[second], names[first], score.score, result.backend)
            yield Finding(message, later.description_pointer or later.pointer, data=data)


def _message(later: str, earlier: str, score: float, backend: str) -> str:
    return (
        f"`{later}` and `{earlier}` describe near-duplicate jobs "
        f"(score {score:.2f} on SL502's 0-1 scale, {backend} embeddings): a model may call either for the same request; "
        f"merge them, or say in each description when to use it and name the other "
        f'(e.g. "... ; for <case> use {earlier}")'
    )
