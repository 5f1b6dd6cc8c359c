"""The language server's project model (``jaxlint/server/project.py``) gives
exactly what ``jaxlint check`` gives for the same project, reads buffers in
place of files on disk, lints again only what an edit changes; and the
server's incremental lint gives exactly ``lint_source``'s result in project
mode (findings, and what the file tells its project)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Optional

import pytest

pytest.importorskip("lsprotocol", reason="the [lsp] extra is not installed")

from jaxlint.cache import Cache  # noqa: E402
from jaxlint.workspace.config import ConfigStore, Overrides  # noqa: E402
from jaxlint.lint.linter import lint_source  # noqa: E402
from jaxlint.project.driver import RunOptions, run_project  # noqa: E402
from jaxlint.workspace.ruleinfo import load_rule_infos, source_digest  # noqa: E402
from jaxlint.server.incremental import IncrementalParser, lint_incremental  # noqa: E402
from jaxlint.server.project import ProjectModel, display  # noqa: E402
from jaxlint.workspace import Workspace  # noqa: E402

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "xmodule"


@pytest.fixture
def abs_pkg(tmp_path: Path, monkeypatch) -> Path:
    dest = tmp_path / "abs_pkg"
    shutil.copytree(FIXTURES / "abs_pkg", dest)
    monkeypatch.chdir(dest)
    return dest


def model_for(root: Path, cache_dir: Optional[Path] = None) -> tuple[ProjectModel, ConfigStore]:
    store = ConfigStore(load_rule_infos(), Overrides(), root)

    def cache_for() -> Cache:
        assert cache_dir is not None
        return Cache(cache_dir, source_digest())

    workspace = Workspace(store, display=lambda p: Path(display(Path(os.path.abspath(p)))),
                          cache=cache_for if cache_dir is not None else None)
    return ProjectModel(workspace), store


def cli(root: Path, store: ConfigStore) -> dict[str, list]:
    ws = Workspace(store)
    files = [Path(f) for f in ws.discover(("trainer",)).files]
    out = run_project(files, ws, RunOptions(jobs=1, show_progress=False))
    return {r.path: r.findings for r in out.results}


def test_the_model_matches_the_cli_and_relints_only_what_changed(abs_pkg: Path):
    model, store = model_for(abs_pkg)
    train = abs_pkg / "trainer" / "train.py"
    losses = abs_pkg / "trainer" / "losses.py"
    buffers = {train: train.read_text(), losses: losses.read_text()}
    final = model.refresh(buffers)
    expected = cli(abs_pkg, store)
    assert sorted(final) == ["trainer/losses.py", "trainer/train.py"]
    for name, (result, settings) in final.items():
        assert result.findings == expected[name]
        assert settings.module == name[:-3].replace("/", ".")
    assert [(f.code, f.line, f.col) for f in final["trainer/losses.py"][0].findings] == [
        ("JAX204", 7, 12), ("JAX101", 11, 5)]
    assert model.settings_of("trainer/losses.py").facts  # what train.py tells it
    # nothing changed: nothing is linted again
    linted = model.lints
    assert model.refresh(buffers).keys() == final.keys()
    assert model.lints == linted
    # the caller's buffer loses its jit (unsaved): the helper loses its findings about
    # tracing; `update_stats(jnp.zeros(3), loss)` still hands it an immutable JAX array
    buffers[train] = buffers[train].replace("@jax.jit\n", "")
    final = model.refresh(buffers)
    assert [(f.code, f.line, f.col) for f in final["trainer/losses.py"][0].findings] == [("JAX101", 11, 5)]
    assert final["trainer/train.py"][0].findings == []
    # train.py is linted, and the helpers whose facts are now the JAX arrays the
    # untraced calls pass (losses.py: `jnp.zeros(3)`, metrics.py: the loss); the
    # others, now without facts, are as the first refresh's first round linted them
    # (remembered); then train.py once more: the return facts its helpers tell it
    # (model/returns.py) changed with what they were given
    assert model.lints - linted == 4
    assert train.read_text().count("@jax.jit") == 1  # the disk is untouched
    train.write_text(buffers[train])  # saved: the CLI agrees
    expected = cli(abs_pkg, store)
    assert {n: r.findings for n, (r, _s) in final.items()} == {n: expected[n] for n in final}


def test_incremental_lint_in_project_mode_is_lint_source(abs_pkg: Path):
    model, _ = model_for(abs_pkg)
    names = ["trainer/train.py", "trainer/losses.py", "trainer/metrics.py", "trainer/schedule.py"]
    model.refresh({abs_pkg / n: (abs_pkg / n).read_text() for n in names})
    for name in names:
        settings = model.settings_of(name)
        assert settings is not None and settings.module is not None
        text = (abs_pkg / name).read_text()
        parser = IncrementalParser()
        for edited in (text, "# edited\n" + text, "# edited\n\n" + text + "\nz = 1\n"):
            got = lint_incremental(parser, edited, name, settings)
            want = lint_source(edited, name, settings)
            assert got.findings == want.findings
            assert got.project == want.project
        assert parser.reused > 0 or name == "trainer/schedule.py"  # schedule.py has no JAX import


def test_files_on_disk_share_the_clis_cache(abs_pkg: Path, tmp_path: Path):
    def with_cache() -> ProjectModel:
        return model_for(abs_pkg, tmp_path / "cache")[0]

    train = abs_pkg / "trainer" / "train.py"
    first = with_cache()
    want = first.refresh({train: train.read_text()})
    assert first.lints > 1
    second = with_cache()  # a new server: only the open buffer is linted, the rest is cached
    assert second.refresh({train: train.read_text()}) == want
    # the buffer twice: alone, then with the facts its cached imports tell it (their returns)
    assert second.lints == 2
