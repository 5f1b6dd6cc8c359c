"""The pre-commit configurations of docs/ci.md, run with the real `pre-commit`.

The remote one installs the hook from a local clone of this repository (as
pre-commit would from any git URL): it needs git, pre-commit (the `dev` extra)
and PyPI for the hook's environment; each missing piece skips with the reason.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "ci.md"
BAD = "import jax.numpy as jnp\n\n\ndef f():\n    x = jnp.zeros(3)\n    x[0] = 1.0\n    return x\n"
FINDING = ("bad.py:6:5: JAX101 [*] JAX arrays are immutable: `x[0] = ...` raises TypeError. "
           "Use `x = x.at[0].set(...)`")


def _block(marker: str) -> str:
    """The ```yaml block that follows ``<!-- marker: ... -->`` in docs/ci.md."""
    text = DOC.read_text(encoding="utf-8")
    m = re.search(rf"<!-- {marker}:.*?-->\n```yaml\n(.*?)```", text, re.S)
    assert m, f"no {marker} block in docs/ci.md"
    return m.group(1)


def _pre_commit() -> list[str]:
    try:
        import pre_commit  # noqa: F401
    except ImportError:
        pytest.skip("pre-commit is not installed (pip install -e '.[dev]')")
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    return [sys.executable, "-m", "pre_commit"]


def _git(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)


def _project(tmp_path: Path, config: str) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    assert _git("init", "-q", cwd=project).returncode == 0
    (project / ".pre-commit-config.yaml").write_text(config)
    (project / "bad.py").write_text(BAD)
    (project / "ok.py").write_text("import jax.numpy as jnp\n\nx = jnp.zeros(3).at[0].set(1.0)\n")
    _git("add", ".", cwd=project)
    return project


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PRE_COMMIT_HOME"] = str(tmp_path / "pre-commit-home")
    # jaxlint of this checkout first on PATH (the local hook's `language: system`)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.pop("JAXLINT_OUTPUT_FORMAT", None)
    return env


def _check_run(cmd: list[str], project: Path, env: dict[str, str]) -> None:
    run = subprocess.run([*cmd, "run", "--all-files"], cwd=project, env=env,
                         capture_output=True, text=True, timeout=600)
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert re.search(r"^jaxlint\.+Failed$", out, re.M), out
    assert FINDING in out.splitlines(), out
    assert "ok.py" not in out
    # fixed code passes
    (project / "bad.py").write_text(BAD.replace("x[0] = 1.0", "x = x.at[0].set(1.0)"))
    run = subprocess.run([*cmd, "run", "--all-files"], cwd=project, env=env,
                         capture_output=True, text=True, timeout=600)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    assert re.search(r"^jaxlint\.+Passed$", out, re.M), out


def test_local_hook_from_the_docs(tmp_path: Path) -> None:
    cmd = _pre_commit()
    config = _block("pre-commit-local")
    # the README shows the same configuration
    assert f"```yaml\n{config}```" in (ROOT / "README.md").read_text(encoding="utf-8")
    _check_run(cmd, _project(tmp_path, config), _env(tmp_path))


@pytest.mark.slow
def test_remote_hook_from_a_clone_of_this_repository(tmp_path: Path) -> None:
    cmd = _pre_commit()
    head = _git("rev-parse", "HEAD", cwd=ROOT)
    if head.returncode != 0:
        pytest.skip("this checkout is not a git repository")
    clone = tmp_path / "jaxlint-clone"
    made = _git("clone", "-q", str(ROOT), str(clone), cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    rev = head.stdout.strip()
    config = _block("pre-commit-remote")
    assert "<URL or path of your jaxlint clone>" in config
    assert "<a commit SHA or tag of that clone>" in config
    config = (config.replace("<URL or path of your jaxlint clone>", str(clone))
              .replace("<a commit SHA or tag of that clone>", rev))
    project = _project(tmp_path, config)
    env = _env(tmp_path)
    install = subprocess.run([*cmd, "install-hooks"], cwd=project, env=env,
                             capture_output=True, text=True, timeout=600)
    if install.returncode != 0:
        out = install.stdout + install.stderr
        if re.search(r"No matching distribution|Could not find a version|"
                     r"Failed to establish a new connection|Network is unreachable", out):
            pytest.skip("the hook's environment cannot be installed here (no package index)")
        pytest.fail(out)
    _check_run(cmd, project, env)
