"""SL502 on real embeddings: what is flagged, what is not, and the measured precision on labelled pairs."""

from __future__ import annotations

import importlib.util
import itertools
import os
import sys
from pathlib import Path

import pytest

from schemalint.rules.sl502_similar_descriptions import Options, SimilarDescriptions
from schemalint.similarity.actions import are_opposite, normalized_identifier, split_identifier, tool_action
from schemalint.similarity.backends import StaticBackend, sentence_transformers_installed
from schemalint.testing import run_rule

REPO = Path(__file__).resolve().parent.parent
BACKENDS = [
    "static",
    pytest.param(
        "sentence-transformers",
        marks=pytest.mark.skipif(
            not sentence_transformers_installed(), reason="the `embeddings` extra is not installed"
        ),
    ),
]


def _settings(backend: str, tmp_path: Path) -> dict[str, str]:
    return {"embedding-backend": backend, "cache-dir": str(tmp_path)}


def _tool(name: str, description: str, *params: str) -> dict:
    return {
        "name": name,
        "description": description,
        "parameters": {"type": "object", "properties": {p: {"type": "string"} for p in params}},
    }


WEATHER = _tool(
    "get_current_weather", "Get the current weather conditions for a city: temperature, humidity and wind.", "city"
)
WEATHER_TOO = _tool(
    "fetch_outside_conditions", "Returns how warm, humid and windy it is right now at a given place.", "place"
)


@pytest.mark.parametrize("backend", BACKENDS)
def test_paraphrased_tools_are_reported_with_score_backend_and_sibling(backend: str, tmp_path: Path) -> None:
    findings = run_rule(SimilarDescriptions(), [WEATHER, WEATHER_TOO], settings=_settings(backend, tmp_path))
    assert len(findings) == 1
    finding = findings[0]
    assert finding.pointer == "/1/description"
    assert finding.data["sibling"] == "get_current_weather"
    assert finding.data["backend"] == backend
    assert 0.5 <= finding.data["score"] <= 1.0
    assert "get_current_weather" in finding.message and "when to use it" in finding.message


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "pair",
    [
        [
            _tool("lock_door", "Lock a smart door lock by its device ID."),
            _tool("unlock_door", "Unlock a smart door lock by its device ID."),
        ],
        [
            _tool("冻结银行卡", "冻结用户的银行卡，冻结后无法消费。", "card_id"),
            _tool("解冻银行卡", "解冻用户的银行卡，解冻后可以正常消费。", "card_id"),
        ],
        [
            _tool("search_docs", "Search product documentation. For incidents use search_incidents instead.", "query"),
            _tool(
                "search_incidents", "Search past production incidents. For how-to questions use search_docs.", "query"
            ),
        ],
        [
            _tool("get_invoice", "Fetch one invoice with its line items. Read-only.", "invoice_id"),
            _tool("void_invoice", "Void an invoice so it can no longer be paid.", "invoice_id"),
        ],
        [WEATHER, _tool("rotate_api_key", "Generate a new API key for a service account.", "account")],
    ],
    ids=["opposite", "opposite-zh", "bounded", "read-vs-write", "unrelated"],
)
def test_separable_tools_are_not_reported(pair: list[dict], backend: str, tmp_path: Path) -> None:
    assert run_rule(SimilarDescriptions(), pair, settings=_settings(backend, tmp_path)) == []


def test_threshold_zero_reports_every_pair(tmp_path: Path) -> None:
    tools = [WEATHER, WEATHER_TOO, _tool("lock_door", "Lock a door."), _tool("no_description", "")]
    findings = run_rule(SimilarDescriptions(Options(threshold=0)), tools, settings=_settings("static", tmp_path))
    assert len(findings) == 3  # three described tools, three pairs
    assert all(0.0 <= f.data["score"] <= 1.0 for f in findings)


def test_fewer_than_two_described_tools_need_no_embeddings(tmp_path: Path) -> None:
    assert run_rule(SimilarDescriptions(), [WEATHER], settings=_settings("static", tmp_path)) == []
    assert not (tmp_path / "vectors").exists()


def test_mixed_language_paraphrases_are_compared_by_name(tmp_path: Path) -> None:
    tools = [
        _tool("play_song", "Start playing a song on the user's speaker, by title or artist."),
        _tool("start_music", "在用户绑定的智能音箱上播放指定的歌曲，可以按歌名或歌手查找。"),
    ]
    findings = run_rule(SimilarDescriptions(Options(threshold=0)), tools, settings=_settings("static", tmp_path))
    names = StaticBackend().encode(["play song", "start music"])
    texts = StaticBackend().encode([f"{' '.join(split_identifier(t['name']))}: {t['description']}" for t in tools])
    name_cosine, text_cosine = float(names[0] @ names[1]), float(texts[0] @ texts[1])
    assert name_cosine > text_cosine + 0.1
    assert findings[0].data["cosine"] == pytest.approx(name_cosine, abs=1e-3)


def test_action_extraction() -> None:
    assert split_identifier("getMyOpenTickets") == ["get", "my", "open", "tickets"]
    assert split_identifier("parseHTTPResponse2") == ["parse", "http", "response2"]
    assert split_identifier("get_order-17.json") == ["get", "order", "17", "json"]  # no case change: no regex split
    assert {normalized_identifier(n) for n in ("userId", "user-id", "USER_ID", "user_id")} == {"user_id"}
    assert tool_action("git_log", "Show the commit history of a repository.").verb == "show"
    assert tool_action("news_search", "Find recent news articles.").kind == "read"
    assert tool_action("x", "查询订单的物流信息").verb == "查询"
    assert (
        are_opposite("follow", "unfollow") and are_opposite("订阅", "取消订阅") and are_opposite("encrypt", "decrypt")
    )
    assert not are_opposite("get", "fetch")
    # reasoning to oneself is not a look-up: a notes-to-self tool is not a search tool
    assert tool_action("think", "Think about the results so far.").kind == "compute"
    assert tool_action("scratchpad", "Reflect on what was found and plan the next step.").kind == "compute"
    assert tool_action("search_web", "Search the web for a question.").kind == "read"


def _eval_module():
    spec = importlib.util.spec_from_file_location("eval_similarity", REPO / "benchmarks" / "eval_similarity.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["eval_similarity"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("set_name", ["held-out", "dev"])
def test_labelled_pairs_meet_the_targets(backend: str, set_name: str) -> None:
    evaluation = _eval_module()
    path = evaluation.SETS[set_name]
    if not path.is_file():
        pytest.skip(f"{path} is not present (the dev set lives outside the project)")
    model = next(b for b in evaluation.backends() if b.name == backend)
    result = evaluation.evaluate(evaluation.load_pairs(path), model, Options().threshold)
    assert result["auc"] >= 0.90
    assert result["precision"] >= 0.85
    assert result["recall"] >= 0.80


def test_cli_json_output_and_backend_fallback_notice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from click.testing import CliRunner

    from schemalint.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SCHEMALINT_CACHE_DIR")  # the default: beside the working directory
    (tmp_path / "tools.json").write_text(json.dumps([WEATHER, WEATHER_TOO]), encoding="utf-8")
    (tmp_path / ".schemalint.toml").write_text(
        'embedding-backend = "sentence-transformers"\nembedding-model = "no-such/model"\n', encoding="utf-8"
    )
    result = CliRunner().invoke(main, ["check", "tools.json", "--select", "SL502", "--output-format", "json"])
    assert result.exit_code == 0, result.output
    assert "schemalint: warning: embedding model 'no-such/model' is not available offline" in result.stderr
    (finding,) = json.loads(result.stdout)
    assert finding["code"] == "SL502" and finding["data"]["backend"] == "static"
    assert finding["data"]["sibling"] == "get_current_weather"
    assert "using the static backend" in finding["data"]["backend_notice"]
    assert (tmp_path / ".schemalint_cache" / ".gitignore").is_file()


def test_cache_dir_env_moves_the_default_cache_only(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from schemalint.similarity.embed import settings_cache_dir

    monkeypatch.setenv("SCHEMALINT_CACHE_DIR", str(tmp_path))
    assert settings_cache_dir({"cache-dir": ".schemalint_cache"}) == tmp_path
    assert settings_cache_dir({"cache-dir": "elsewhere"}) == Path("elsewhere")
    assert settings_cache_dir({"cache-dir": ""}) is None
    monkeypatch.delenv("SCHEMALINT_CACHE_DIR")
    assert settings_cache_dir({"cache-dir": ".schemalint_cache"}) == Path(".schemalint_cache")


def test_exclusion_text_pre_test_never_hides_a_phrase() -> None:
    """The substring pre-test may only answer "no" where the regex would: every phrase gets through."""
    from schemalint.similarity.scoring import _EN_EXCLUSIONS, _EXCLUSION, has_exclusion_text

    phrases = [phrase.replace(r"\w+", "get_order").replace(r"\b", "") for phrase in _EN_EXCLUSIONS.split("|")]
    assert len(phrases) >= 10
    for phrase in phrases:
        assert has_exclusion_text(f"Returns orders. {phrase.upper()} drafts."), phrase
    texts = [
        "Returns the order.",
        "Läuft nur für Admins; use ONLY in tests.",
        "Fetches the \ufb01le (a ligature, not ASCII) list.",
        "请勿用于退款。",
        "",
    ]
    for text in texts:
        assert has_exclusion_text(text) == (_EXCLUSION.search(text) is not None), text
    assert [has_exclusion_text(t) for t in texts] == [False, True, False, True, False]


def _findings_as_data(tools: list[dict], cache: Path) -> list[tuple[str, dict]]:
    findings = run_rule(SimilarDescriptions(), tools, settings=_settings("static", cache))
    return [(finding.message, finding.data) for finding in findings]


def test_a_flipped_byte_in_the_vector_cache_gives_the_cold_findings(tmp_path: Path) -> None:
    tools = [
        WEATHER,
        WEATHER_TOO,
        _tool("rotate_api_key", "Generate a new API key for a service account.", "account"),
        _tool("send_invoice", "Email an invoice to the customer who owes it.", "invoice_id"),
    ]
    cold = _findings_as_data(tools, tmp_path)
    assert cold  # the paraphrase pair
    (shard,) = (tmp_path / "vectors").glob("*/*.vec")
    intact = shard.read_bytes()
    row_start = len(intact) - 4 * 256 * len(tools)
    # the header, a key, and the sign/exponent byte and a low byte of values in several rows
    positions = [0, 5, 9, 13, 17, 21, row_start + 3, row_start + 1024 + 3, row_start + 1024 + 600, len(intact) - 1]
    for position in positions:
        flipped = bytearray(intact)
        flipped[position] ^= 0x40
        shard.write_bytes(bytes(flipped))
        assert _findings_as_data(tools, tmp_path) == cold, position


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_in_the_cache_folder_does_not_hang_check(tmp_path: Path) -> None:
    import json
    import subprocess

    from schemalint.similarity.embed import resolve_backend

    cache = tmp_path / "cache"
    settings = {"embedding-backend": "static", "cache-dir": str(cache)}
    shards = cache / "vectors" / resolve_backend(settings).model_key
    shards.mkdir(parents=True)
    (cache / "digests").mkdir()
    for fifo in (shards / "0000.vec", cache / ".gitignore", cache / "digests" / "memo"):
        os.mkfifo(fifo)
    (tmp_path / "tools.json").write_text(json.dumps([WEATHER, WEATHER_TOO]), encoding="utf-8")
    command = [sys.executable, "-m", "schemalint", "check", "tools.json", "--select", "SL502", "--no-config"]
    command += ["--output-format", "json"]
    environment = {**os.environ, "SCHEMALINT_CACHE_DIR": str(cache), "PYTHONPATH": str(REPO)}
    result = subprocess.run(command, cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    (finding,) = json.loads(result.stdout)
    assert finding["data"]["sibling"] == "get_current_weather"
    assert len(list(shards.glob("*.vec"))) == 2  # the FIFO, and the shard written beside it


def _required(name: str, description: str, *params: str) -> dict:
    tool = _tool(name, description, *params)
    tool["parameters"]["required"] = list(params[:1])
    return tool


DATABASE = [
    _required("describe_columns", "Show the columns and data types of a table in the database.", "table"),
    _required("run_select", "Run a read-only SQL SELECT query against the database and return the rows.", "sql"),
    _required("create_db_table", "Create a new table in the database with the given columns.", "table", "columns"),
    _required("insert_rows", "Insert rows into a table of the database.", "table", "rows"),
]


def _pairs(tools: list[dict], tmp_path: Path) -> list[tuple[str, str]]:
    findings = run_rule(SimilarDescriptions(), tools, settings=_settings("static", tmp_path))
    return [(finding.data["sibling"], tools[int(finding.pointer.split("/")[1])]["name"]) for finding in findings]


@pytest.mark.parametrize(
    "tools",
    [
        DATABASE,  # one vocabulary, four jobs
        [
            _required(
                "check_bucket_encryption",
                "Check whether a storage bucket in the cloud account encrypts data at rest.",
                "bucket",
            ),
            _required(
                "list_security_alerts", "List the open security alerts raised for the cloud account.", "severity"
            ),
            _required("rotate_access_keys", "Rotate the access keys of a cloud account user.", "user"),
        ],
        [
            _required("http_get", "Send an HTTP GET request to a URL.", "url"),
            _required("http_post", "Send an HTTP POST request to a URL with a body.", "url", "body"),
            _required("http_delete", "Send an HTTP DELETE request to a URL.", "url"),
        ],
        [
            _required("get_invoices", "Get invoices of the billing account.", "account"),
            _required("list_invoices", "List the invoices of the billing account.", "account"),
            _required("pay_invoice", "Pay an invoice of the billing account.", "invoice"),
        ],
    ],
    ids=["database", "cloud-security", "http-methods", "get-vs-list"],
)
def test_small_sets_in_one_domain_are_not_reported(tools: list[dict], tmp_path: Path) -> None:
    """Sets of a few tools of one server: a shared vocabulary, and names that differ only by their
    action, are not confusable."""
    assert _pairs(tools, tmp_path) == []


@pytest.mark.parametrize(
    ("tools", "expected"),
    [
        (
            [
                *DATABASE,
                _required("show_table_schema", "Return the column names and types of a database table.", "name"),
            ],
            [("describe_columns", "show_table_schema")],
        ),
        (
            [
                _required("add_note", "Add a note to the notebook.", "text"),
                _required("create_note", "Create a new note in the notebook.", "text"),
                _required("delete_note", "Delete a note from the notebook.", "note_id"),
            ],
            [("add_note", "create_note")],
        ),
    ],
    ids=["schema-twice", "synonym-verbs"],
)
def test_small_sets_still_report_a_real_duplicate(
    tools: list[dict], expected: list[tuple[str, str]], tmp_path: Path
) -> None:
    assert _pairs(tools, tmp_path) == expected


def test_the_scale_moves_with_the_set_size_without_a_jump() -> None:
    from schemalint.similarity.compare import centring_share
    from schemalint.similarity.scoring import CALIBRATION, scale_for

    shares = [centring_share(tools) for tools in range(2, 200)]
    assert shares[0] == 0.0 and all(a < b for a, b in itertools.pairwise(shares)) and shares[-1] > 0.98
    assert max(b - a for a, b in itertools.pairwise(shares)) <= 1 / 2  # the largest step: 2 -> 3 tools
    assert scale_for("static") == CALIBRATION["static"]
    assert scale_for("static", 1.0) == pytest.approx(CALIBRATION["centred"])


def test_code_examples_and_shared_lines_are_not_embedded() -> None:
    """An API's example requests and its shared input notes are alike in every tool: the embedded text
    keeps each tool's own lines only."""
    from schemalint.similarity.scoring import drop_common_sentences, tool_view

    shared = "Input options:\n- projectSlug: the project, from list_projects\n- branch: the branch name\n"
    example = '\n```console\ncurl -H "Authorization: Bearer $TOKEN" https://api.example.com/v1/runs\n```\n'
    views = [
        tool_view("get_run_logs", f"Fetch the logs of a failed run.\n{shared}{example}", None),
        tool_view("list_run_artifacts", f"List the files a run produced.\n{shared}{example}", None),
        tool_view("cancel_run", f"Cancel a run that is still going.\n{shared}", None),
    ]
    drop_common_sentences(views)
    assert [view.embedding_text() for view in views] == [
        "get run logs: Fetch the logs of a failed run.",
        "list run artifacts: List the files a run produced.",
        "cancel run: Cancel a run that is still going.",
    ]


def _titled(name: str, title: str, description: str) -> dict:
    return {"name": name, "title": title, "description": description, "parameters": {"type": "object"}}


@pytest.mark.parametrize(
    "reference",
    [
        "call the 'Get Package Info' tool first",
        'use "get package info" for the license',
        "see the Get Package Info tool",
    ],
)
def test_a_description_that_names_its_sibling_by_title_draws_the_line(reference: str, tmp_path: Path) -> None:
    """Naming the sibling tells the model how the two jobs relate, by name or by title alike."""
    text = "Look up a package by name and return its version, license and docs"
    tools = [
        _titled("get_package_info", "Get Package Info", f"{text}."),
        _titled("fetch_package_details", "Fetch Package Details", f"{text} summary."),
    ]
    assert run_rule(SimilarDescriptions(), tools, settings=_settings("static", tmp_path))
    tools[1]["description"] = f"{text} summary; {reference}."
    assert run_rule(SimilarDescriptions(), tools, settings=_settings("static", tmp_path)) == []
    # the title's words in plain prose, neither quoted nor called a tool, are no reference
    tools[1]["description"] = f"{text} summary: get package info in one call."
    assert run_rule(SimilarDescriptions(), tools, settings=_settings("static", tmp_path))


def test_a_description_that_calls_its_sibling_by_name_in_any_case_draws_the_line() -> None:
    from schemalint.similarity.scoring import names_sibling, tool_view

    geocode = tool_view("geocode", "Find the coordinates of a place name.", None)
    for text, named in [
        ("Show a map of an area; use the GeoCode tool to find it.", True),
        ("Show a map of an area; call 'Geocode' first.", True),
        ("Show a map of an area found by geocoding.", False),  # a word of the same root is no reference
    ]:
        assert names_sibling(tool_view("show_map", text, None), geocode) is named


def test_an_exclusion_sentence_every_tool_repeats_draws_no_line() -> None:
    """A house-style sentence ("use this for existing items; choose a create tool for new ones") is
    the set's, not a boundary between two of its tools; a tool's own exclusion sentence still is."""
    from schemalint.similarity.scoring import drop_common_sentences, tool_view

    shared = "Use this only for existing items; choose a create tool for new ones."
    views = [
        tool_view("rename_item", f"Rename an item. {shared}", None),
        tool_view("move_item", f"Move an item to a folder. {shared}", None),
        tool_view("tag_item", f"Tag an item. {shared} Do not use it for folders.", None),
    ]
    assert all(view.has_exclusion for view in views)
    drop_common_sentences(views)
    assert [view.has_exclusion for view in views] == [False, False, True]


def test_a_preamble_every_tool_repeats_does_not_hide_the_action() -> None:
    """A set whose descriptions all open with the same sentence: each tool's action is read from
    its own sentences, so a removal is not taken for a creation's twin."""
    from schemalint.similarity.scoring import drop_common_sentences, tool_view

    preamble = "This command is part of the Acme shell kit, which works on the drive."
    views = [
        tool_view("mkfolder", f"{preamble} Create a folder under the current one.", None),
        tool_view("rmfolder", f"{preamble} Remove a folder under the current one.", None),
        tool_view("lsfolder", f"{preamble} List what a folder holds.", None),
    ]
    assert {view.action.verb for view in views} == {None}
    views = [tool_view(view.name, view.description, None) for view in views]
    drop_common_sentences(views)
    assert [view.action.verb for view in views] == ["create", "remove", "list"]
