"""A real editor: Neovim's built-in LSP client (driven headless by
tests/editors/nvim_jaxlint.lua) opens a file, gets jaxlint's diagnostics and
applies a quick fix from the code-action menu.

Neovim comes from Debian (``apt-get install neovim``: 0.7.2 on bookworm); when
it is missing and this runs as root with apt-get, the test installs it, and
otherwise skips saying why."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("pygls.lsp.server", reason="the [lsp] extra (pygls 2) is not installed")

SCRIPT = Path(__file__).resolve().parent / "editors" / "nvim_jaxlint.lua"
INSTALL_TIMEOUT = 300

SOURCE = textwrap.dedent('''\
    import jax
    import jax.numpy as jnp


    def update():
        x = jnp.zeros((3, 3))
        x[1, :] = 1.0
        return x


    def g(key):
        a = jax.random.normal(key, (3,))
        return jax.tree_map(lambda v: v, a)
    ''')


def _install_neovim() -> str:
    """'' when nvim is available, else why it is not."""
    if shutil.which("nvim"):
        return ""
    if not shutil.which("apt-get"):
        return "nvim is not installed and apt-get is not available to install it"
    if os.geteuid() != 0:
        return "nvim is not installed and installing it needs root (apt-get install neovim)"
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    try:
        for cmd in (["apt-get", "update", "-qq"],
                    ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "neovim"]):
            proc = subprocess.run(cmd, capture_output=True, text=True, env=env,
                                  timeout=INSTALL_TIMEOUT)
            if proc.returncode != 0:
                last = (proc.stderr or proc.stdout).strip().splitlines()[-1:]
                return f"`{' '.join(cmd)}` failed: {last[0] if last else proc.returncode}"
    except subprocess.TimeoutExpired:
        return f"installing neovim took more than {INSTALL_TIMEOUT} s"
    return "" if shutil.which("nvim") else "apt-get installed neovim but nvim is not on PATH"


@pytest.fixture(scope="module")
def nvim() -> str:
    why = _install_neovim()
    if why:
        pytest.skip(why)
    return shutil.which("nvim")  # type: ignore[return-value]


def test_neovim_gets_diagnostics_and_applies_a_quick_fix(nvim, tmp_path):
    src = tmp_path / "model.py"
    src.write_text(SOURCE)
    out = tmp_path / "result.json"
    env = dict(os.environ,
               JAXLINT_SERVER_CMD=json.dumps([sys.executable, "-m", "jaxlint", "server"]),
               JAXLINT_FILE=str(src), JAXLINT_OUT=str(out), JAXLINT_FIX_CODE="JAX901",
               XDG_STATE_HOME=str(tmp_path / "state"), XDG_DATA_HOME=str(tmp_path / "data"))
    proc = subprocess.run(
        [nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {SCRIPT}"],
        env=env, capture_output=True, text=True, timeout=180, cwd=tmp_path,
    )
    assert out.is_file(), f"nvim wrote no result (exit {proc.returncode}): {proc.stderr[-2000:]}"
    result = json.loads(out.read_text())
    assert result["errors"] == [], result
    assert [(d["code"], d["lnum"], d["col"], d["end_lnum"], d["end_col"], d["source"], d["severity"])
            for d in result["before"]] == [
        ("JAX101", 6, 4, 6, 17, "jaxlint", 1),
        ("JAX901", 12, 11, 12, 23, "jaxlint", 1),
    ]
    assert result["before"][1]["message"] == (
        "`jax.tree_map` was removed in JAX 0.6.0 (deprecated in 0.4.26): use `jax.tree.map` "
        "instead (identical signature)")
    assert result["offered"] == [
        "jaxlint (JAX901): Replace with `jax.tree.map`",
        "jaxlint: Disable JAX901 for this line",
        "jaxlint: Fix all auto-fixable problems",
    ]
    assert result["lines"] == SOURCE.replace("jax.tree_map(", "jax.tree.map(").splitlines()
    assert [(d["code"], d["lnum"], d["col"]) for d in result["after"]] == [("JAX101", 6, 4)]
    assert src.read_text() == SOURCE  # the buffer changed, the file was not written


def test_the_skip_reason_is_clear(monkeypatch):
    import test_server_nvim as mod

    monkeypatch.setattr(mod.shutil, "which", lambda name: "/usr/bin/apt-get" if name == "apt-get" else None)
    monkeypatch.setattr(mod.os, "geteuid", lambda: 1000)
    assert mod._install_neovim() == (
        "nvim is not installed and installing it needs root (apt-get install neovim)")
    monkeypatch.setattr(mod.shutil, "which", lambda name: None)
    assert mod._install_neovim() == "nvim is not installed and apt-get is not available to install it"


DOCS_SOURCE = textwrap.dedent('''\
    import jax


    def g():
        key = jax.random.PRNGKey(0)
        a = jax.random.normal(key, (3,))
        b = jax.random.normal(key, (3,))
        return jax.tree_map(lambda v: v, (a, b))
    ''')


def docs_neovim_block() -> str:
    text = (Path(__file__).resolve().parent.parent / "docs" / "editors.md").read_text()
    section = text.split("\n## Neovim\n", 1)[1].split("\n## ", 1)[0]
    return section.split("```lua\n", 1)[1].split("```", 1)[0]


def test_the_documented_neovim_setup_works(nvim, tmp_path):
    """docs/editors.md's Neovim block, as the user's init.lua, with `jaxlint` on PATH."""
    init = tmp_path / "init.lua"
    init.write_text(docs_neovim_block())
    src = tmp_path / "model.py"
    src.write_text(DOCS_SOURCE)
    out = tmp_path / "result.json"
    env = dict(os.environ, JAXLINT_OUT=str(out),
               PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
               XDG_STATE_HOME=str(tmp_path / "state"), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    driver = Path(__file__).resolve().parent / "editors" / "nvim_docs_driver.lua"
    proc = subprocess.run(
        [nvim, "--headless", "-u", str(init), "-i", "NONE", "-n", str(src), "-c", f"luafile {driver}"],
        env=env, capture_output=True, text=True, timeout=180, cwd=tmp_path,
    )
    assert out.is_file(), f"nvim wrote no result (exit {proc.returncode}): {proc.stderr[-2000:]}"
    result = json.loads(out.read_text())
    assert result["errors"] == [], result
    assert result["filetype"] == "python"
    # JAX950 is opt-in: it is there because of the snippet's init_options
    assert result["before"] == [["JAX950", 4, 10], ["JAX301", 6, 8], ["JAX901", 7, 11]]
    assert result["lines"] == DOCS_SOURCE.replace("jax.tree_map(", "jax.tree.map(").splitlines()
    assert result["after"] == [["JAX950", 4, 10], ["JAX301", 6, 8]]
