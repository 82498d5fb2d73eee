"""The rules site: `mkdocs build --strict` on the real mkdocs.yml, the generated pages, where rule links point,
and the built pages in headless Chromium (skipped when it is not installed)."""

from __future__ import annotations

import functools
import html
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner

from schemalint import __version__, docs_site
from schemalint.cli import main
from schemalint.rules import all_rules
from schemalint.rules.base import Rule

from .conftest import REPO

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def example_code(rule: type[Rule]) -> str:
    """The code of the rule's `## Example` section ("" when the example is prose)."""
    section = rule.docs().partition("## Example\n")[2].split("\n## ", 1)[0]
    fenced = re.search(r"```\w*\n(.*?)```", section, re.DOTALL)
    return fenced.group(1) if fenced else ""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1"}
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    return out


def test_every_rule_has_a_page_with_its_docs_and_example(site: Path) -> None:
    for rule in all_rules():
        page = site / docs_site.rule_page(rule.code, rule.slug)
        assert page.is_file(), f"no page for {rule.code}"
        text = html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))
        assert rule.summary.replace("`", "") in text
        assert "What it does" in text and "Example" in text
        assert re.sub(r"\s+", "", example_code(rule)) in re.sub(r"\s+", "", text)


def test_the_catalogue_and_options_are_on_the_pages(site: Path) -> None:
    page = (site / docs_site.rule_page("SL309", "invalid-schema")).read_text(encoding="utf-8")
    assert "In the catalogue" in page and "bad.json" in page and "is not a JSON Schema type" in page
    config = (site / "configuration.html").read_text(encoding="utf-8")
    assert "max-depth" in config and "fix-max-items" in config  # the rule options reference
    index = (site / "rules" / "index.html").read_text(encoding="utf-8")
    assert all(f'href="{rule.code}-{rule.slug}.html"' in index for rule in all_rules())
    assert (site / "providers.html").is_file() and (site / "output-formats.html").is_file()


def test_generated_pages_are_not_committed() -> None:
    assert not (REPO / "docs" / "rules").exists()
    assert not (REPO / "docs" / "index.md").exists()
    assert "site/" in (REPO / ".gitignore").read_text(encoding="utf-8").split()


def test_fixability_is_what_the_rule_declares() -> None:
    by_code = {rule.code: docs_site.fixability(rule) for rule in all_rules()}
    assert by_code["SL303"] == "safe"
    assert by_code["SL306"] == "unsafe"
    assert by_code["SL401"] == "unsafe"
    assert by_code["SL201"] == "no" and by_code["SL004"] == "no"
    for rule in all_rules():  # the section says no fix exactly when none is declared
        section = rule.docs().partition("## Fix safety")[2].strip().lower()
        says_none = section.startswith(("no automatic fix", "no fix", "none"))
        assert says_none == (by_code[rule.code] == "no"), rule.code


# --------------------------------------------------------------------------------------------------
# Where rule links point


def test_docs_url_order(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(docs_site.DOCS_URL_ENV, raising=False)
    monkeypatch.setattr(docs_site, "_CHECKOUT", tmp_path)
    assert docs_site.rule_url("SL309", "invalid-schema") == docs_site.REPOSITORY_URL + "rules/SL309-invalid-schema/"
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n")
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("<html></html>")
    assert docs_site.rule_url("SL309", "invalid-schema") == (tmp_path / "site").as_uri() + (
        "/rules/SL309-invalid-schema.html"
    )
    monkeypatch.setenv(docs_site.DOCS_URL_ENV, "https://docs.example/schemalint/{version}")
    assert docs_site.rule_url("SL309", "invalid-schema") == (
        f"https://docs.example/schemalint/{__version__}/rules/SL309-invalid-schema.html"
    )
    configured = "https://intranet.example/lint?rule={code}&name={slug}"
    assert docs_site.rule_url("SL309", "invalid-schema", configured) == (
        "https://intranet.example/lint?rule=SL309&name=invalid-schema"
    )


def test_catalogue_links_name_existing_folders(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Without a site, a rule's link is its catalogue folder; change rules (SL9xx) have none and link the
    catalogue, whose index names them."""
    monkeypatch.delenv(docs_site.DOCS_URL_ENV, raising=False)
    monkeypatch.setattr(docs_site, "_CHECKOUT", tmp_path)
    for rule in all_rules():
        url = docs_site.rule_url(rule.code, rule.slug)
        folder = url.removeprefix(docs_site.REPOSITORY_URL)
        assert folder != url and (REPO / folder).is_dir(), (rule.code, url)
    assert docs_site.rule_url("SL903", "required-parameter-added").endswith("/main/rules/")


TOOL = [{"name": "get_weather", "description": "Current weather.", "parameters": {"type": "dict"}}]


def test_sarif_help_uri_and_rule_command_follow_docs_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(docs_site.DOCS_URL_ENV, raising=False)
    (tmp_path / "tools.json").write_text(json.dumps(TOOL))
    (tmp_path / ".schemalint.toml").write_text('docs-url = "https://docs.example/sl/{version}/"\n')
    result = CliRunner().invoke(main, ["check", "tools.json", "--select", "SL309", "--output-format", "sarif"])
    rules = json.loads(result.stdout)["runs"][0]["tool"]["driver"]["rules"]
    assert [r["helpUri"] for r in rules] == [f"https://docs.example/sl/{__version__}/rules/SL309-invalid-schema.html"]
    shown = CliRunner().invoke(main, ["rule", "SL309"])
    assert shown.stdout.rstrip().endswith(
        f"Docs: https://docs.example/sl/{__version__}/rules/SL309-invalid-schema.html"
    )
    as_json = json.loads(CliRunner().invoke(main, ["rule", "SL309", "--output-format", "json"]).stdout)
    assert as_json["url"].endswith("/rules/SL309-invalid-schema.html")
    (tmp_path / ".schemalint.toml").write_text("docs-url = 3\n")
    assert CliRunner().invoke(main, ["rule", "SL309"]).exit_code == 2


# --------------------------------------------------------------------------------------------------
# In a real browser


class _SiteHandler(SimpleHTTPRequestHandler):
    """Serves the built site; the checker page posts its outcome to /_result."""

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(204)
        self.end_headers()
        self.server.outcome = body  # type: ignore[attr-defined]
        self.server.done.set()  # type: ignore[attr-defined]

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def served(site: Path) -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_SiteHandler, directory=str(site)))
    server.done = threading.Event()  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")
def test_pages_in_headless_chromium(site: Path, served: ThreadingHTTPServer, tmp_path: Path) -> None:
    pages = sorted(str(p.relative_to(site)) for p in site.rglob("*.html") if p.name != "404.html")
    examples = {docs_site.rule_page(r.code, r.slug): example_code(r) for r in all_rules()}
    script = (REPO / "tests" / "site_check.js").read_text(encoding="utf-8")
    data = json.dumps({"pages": pages, "examples": examples}).replace("</", "<\\/")
    (site / "_check.html").write_text(
        f'<!doctype html><html><body><script type="application/json" id="input">{data}</script>\n'
        f"<script>{script}</script></body></html>",
        encoding="utf-8",
    )
    browser = subprocess.Popen(
        [
            str(CHROMIUM),
            "--headless",
            "--no-sandbox",  # as root in CI
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            f"--user-data-dir={tmp_path / 'profile'}",
            f"http://127.0.0.1:{served.server_address[1]}/_check.html",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        finished = served.done.wait(timeout=240)  # type: ignore[attr-defined]
    finally:
        os.killpg(browser.pid, signal.SIGKILL)
        browser.wait()
        (site / "_check.html").unlink()
    assert finished, "the checker page did not report back"
    outcome = json.loads(served.outcome)  # type: ignore[attr-defined]
    assert outcome["problems"] == []
    assert outcome["rulePages"] == len(all_rules())
    assert outcome["pages"] == len(pages) and outcome["links"] > len(pages)


def test_option_defaults_on_rule_pages_are_toml_a_user_can_paste() -> None:
    """Each row of a page's option table has three cells, and each default parses as a TOML value or says
    `unset` (TOML has no null)."""
    import tomllib

    shown = 0
    for rule in all_rules():
        page = docs_site.rule_markdown(rule)
        if "| option | type | default |" not in page:
            continue
        table = page.split("| option | type | default |\n|---|---|---|\n", 1)[1].split("\n\n", 1)[0]
        for row in table.splitlines():
            cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", row.strip("|"))]  # `\|` stays in its cell
            assert len(cells) == 3, (rule.code, row)
            shown += 1
            if cells[2] != "unset":
                assert cells[2].startswith("`") and cells[2].endswith("`"), (rule.code, row)
                tomllib.loads(f"x = {cells[2].strip('`')}")  # raises on anything TOML cannot read
    assert shown > 10
