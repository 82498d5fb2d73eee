"""The README's Neovim recipe for `vim.lsp.start_client` (Neovim 0.7-0.9), run as written in headless Neovim
against `schemalint server`: it must attach to a tool file and get the server's diagnostics back."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import REPO

NVIM = shutil.which("nvim")

pytest.importorskip("pygls")


def start_client_recipe() -> str:
    """The Lua block of the README that uses `vim.lsp.start_client`."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```lua\n(.*?)```", readme, re.DOTALL)
    (recipe,) = [block for block in blocks if "vim.lsp.start_client" in block]
    return recipe


# after the recipe: once Neovim has started with the tool file (`nvim FILE`), wait for diagnostics, write
# them out, quit
HARNESS = """
vim.api.nvim_create_autocmd("VimEnter", { once = true, callback = function()
local buf = vim.api.nvim_get_current_buf()
local attached = vim.wait(30000, function() return #vim.lsp.get_active_clients() > 0 end, 100)
local got = vim.wait(60000, function() return #vim.diagnostic.get(buf) > 0 end, 100)
local out = {
  version = vim.version(),
  filetype = vim.bo[buf].filetype,
  attached = attached,
  clients = #vim.lsp.get_active_clients(),
  diagnostics = {},
}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(out.diagnostics, { lnum = d.lnum, col = d.col, code = d.code, message = d.message, source = d.source })
end
local file = io.open(os.getenv("RESULT_FILE"), "w")
file:write(vim.fn.json_encode(out))
file:close()
vim.cmd("qa!")
end })
"""

TOOLS = """\
[
  {
    "name": "get_weather",
    "description": "Current weather for a city. Read-only; not for forecasts.",
    "parameters": {"type": "dict", "properties": {"city": {"type": "string", "description": "City."}}}
  }
]
"""


@pytest.mark.skipif(NVIM is None, reason="Neovim is not installed (apt-get install neovim)")
def test_neovim_start_client_recipe_gets_diagnostics(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "tools").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.schemalint]\nselect = ["SL309", "SL303"]\n')
    tool_file = project / "tools" / "weather.json"
    tool_file.write_text(TOOLS)
    # `schemalint` on PATH, as the recipe calls it: this checkout's
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    launcher = bin_dir / "schemalint"
    launcher.write_text(f'#!/bin/sh\nPYTHONPATH="{REPO}" exec "{sys.executable}" -m schemalint "$@"\n')
    launcher.chmod(0o755)
    init = tmp_path / "init.lua"
    init.write_text(start_client_recipe() + HARNESS)
    result_file = tmp_path / "result.json"
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "RESULT_FILE": str(result_file),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    run = subprocess.run(
        [str(NVIM), "--headless", "-n", "-i", "NONE", "-u", str(init), str(tool_file.relative_to(project))],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result_file.is_file(), f"nvim exited {run.returncode}: {run.stderr[-2000:]}"
    outcome = json.loads(result_file.read_text())
    assert outcome["filetype"] == "json"
    assert outcome["attached"] is True and outcome["clients"] == 1
    found = sorted((d["code"], d["lnum"]) for d in outcome["diagnostics"])
    assert ("SL309", 4) in found  # `"type": "dict"` on the fifth line
    assert all(d["source"] == "schemalint" for d in outcome["diagnostics"])
