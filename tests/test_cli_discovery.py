"""File discovery: walking, .gitignore, skipped directories, excludes."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from jaxlint.cli import cli
from jaxlint.workspace.config import ConfigStore, Overrides
from jaxlint.workspace.discovery import discover
from jaxlint.workspace.ruleinfo import load_rule_infos


def _tree(root: Path, files: list[str]) -> None:
    for f in files:
        p = root / f
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x = 1\n")


def _found(root: Path, *paths: str, force: bool = False) -> tuple[list[str], list[str]]:
    store = ConfigStore(load_rule_infos(), Overrides(), cwd=root)
    d = discover([str(root / p) if p != "." else str(root) for p in (paths or (".",))], store.for_dir, store.cwd,
                 force)
    return [p.relative_to(root).as_posix() for p in d.files], d.errors


def test_walk_is_sorted_and_python_only(tmp_path: Path) -> None:
    _tree(tmp_path, ["b.py", "a.pyi", "c.txt", "pkg/z.py", "pkg/a.py", "README.md"])
    files, errors = _found(tmp_path)
    assert files == ["a.pyi", "b.py", "pkg/a.py", "pkg/z.py"]
    assert errors == []


def test_skipped_directories(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        [
            "ok.py",
            ".git/x.py",
            "__pycache__/x.py",
            "build/x.py",
            "dist/x.py",
            ".tox/x.py",
            "node_modules/x.py",
            "lib/site-packages/x.py",
            "foo.egg-info/x.py",
            ".jaxlint_cache/x.py",
            "venv/lib/x.py",
            ".venv/x.py",  # skipped by name, even without pyvenv.cfg
            "env/x.py",  # no pyvenv.cfg: a normal package called env
            "myenv/lib/x.py",
        ],
    )
    (tmp_path / "venv" / "pyvenv.cfg").write_text("home = /usr\n")
    (tmp_path / "myenv" / "pyvenv.cfg").write_text("home = /usr\n")
    files, _ = _found(tmp_path)
    assert files == ["env/x.py", "ok.py"]


def test_a_package_named_like_a_build_output_is_linted(tmp_path: Path) -> None:
    """`build/` and `dist/` are build outputs by convention, but `mylib/dist/__init__.py`
    is a package of the project's own (a distributions module, say): linted, and its
    modules are in the project index, so an import of it resolves."""
    _tree(tmp_path, ["mylib/__init__.py", "mylib/dist/__init__.py", "mylib/dist/normal.py",
                     "dist/mylib-1.0/x.py", "build/lib/mylib/y.py"])
    files, _ = _found(tmp_path)
    assert files == ["mylib/__init__.py", "mylib/dist/__init__.py", "mylib/dist/normal.py"]
    from jaxlint.project.loader import python_files
    assert [p.relative_to(tmp_path).as_posix() for p in python_files(tmp_path)] == files


def test_gitignore_nested_and_negated(tmp_path: Path) -> None:
    _tree(tmp_path, ["keep.py", "gen.py", "out/a.py", "sub/local.py", "sub/other.py", "sub/deep/local.py", "sub/x_gen.py"])
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("gen.py\nout/\n*_gen.py\n")
    (tmp_path / "sub" / ".gitignore").write_text("local.py\n!x_gen.py\n")
    files, _ = _found(tmp_path)
    assert files == ["keep.py", "sub/other.py", "sub/x_gen.py"]
    # starting inside the repository still honours the root .gitignore
    files, _ = _found(tmp_path, "sub")
    assert files == ["sub/other.py", "sub/x_gen.py"]


def test_respect_gitignore_false(tmp_path: Path) -> None:
    _tree(tmp_path, ["a.py", "gen.py"])
    (tmp_path / ".gitignore").write_text("gen.py\n")
    (tmp_path / "jaxlint.toml").write_text("respect-gitignore = false\n")
    files, _ = _found(tmp_path)
    assert files == ["a.py", "gen.py"]


def test_exclude_and_force_exclude(tmp_path: Path) -> None:
    _tree(tmp_path, ["a.py", "gen/b.py", "c_pb2.py", "d.py"])
    (tmp_path / "jaxlint.toml").write_text('exclude = ["gen/"]\nextend-exclude = ["*_pb2.py"]\n')
    files, _ = _found(tmp_path)
    assert files == ["a.py", "d.py"]
    # explicitly named files are linted even if excluded ...
    files, _ = _found(tmp_path, "c_pb2.py", "gen/b.py")
    assert files == ["c_pb2.py", "gen/b.py"]
    # ... unless --force-exclude
    files, _ = _found(tmp_path, "c_pb2.py", "gen/b.py", "d.py", force=True)
    assert files == ["d.py"]


def test_missing_path_errors_and_run_continues(tmp_path: Path, monkeypatch) -> None:
    _tree(tmp_path, ["a.py"])
    (tmp_path / "b.py").write_text("import jax\ndef f(:\n")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["--no-cache", "--output-format", "concise", "nope.py", "b.py", "gone/"])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: gone/: no such file or directory",
        "error: nope.py: no such file or directory",
    ]
    assert result.stdout.startswith("b.py:2:")


def test_show_files(tmp_path: Path, monkeypatch) -> None:
    _tree(tmp_path, ["b.py", "a/c.py", "x.txt"])
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "--show-files"])
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["a/c.py", "b.py"]
    result = CliRunner().invoke(cli, ["--show-files", str(tmp_path / "b.py")])
    assert result.stdout.splitlines() == ["b.py"]


def test_directory_links_are_not_followed(tmp_path: Path) -> None:
    _tree(tmp_path, ["pkg/a.py"])
    (tmp_path / "pkg" / "loop").symlink_to(tmp_path / "pkg", target_is_directory=True)
    (tmp_path / "alias.py").symlink_to(tmp_path / "pkg" / "a.py")
    files, _ = _found(tmp_path)
    assert files == ["alias.py", "pkg/a.py"]


def test_a_fifo_named_py_is_skipped_by_the_walk_and_an_error_when_named(tmp_path: Path) -> None:
    """Reading a FIFO waits for a writer forever (`--file-timeout` did not help):
    the folder walk skips it, a named one is one error line and exit code 2."""
    import os
    import subprocess
    import sys

    (tmp_path / "sub").mkdir()
    os.mkfifo(tmp_path / "p.py")
    os.mkfifo(tmp_path / "sub" / "q.py")
    (tmp_path / "link.py").symlink_to("p.py")
    (tmp_path / "ok.py").write_text("x = 1\n")

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "jaxlint", "check", "--no-cache", *args],
                              cwd=tmp_path, capture_output=True, text=True, timeout=60)

    walked = run(".")
    assert (walked.returncode, walked.stdout, walked.stderr) == (0, "All checks passed!\n", "")
    assert _found(tmp_path, ".") == (["ok.py"], [])
    named = run("p.py", "ok.py")
    assert named.returncode == 2
    assert named.stderr == ("error: p.py: not a regular file but a FIFO (named pipe); "
                            "only files and folders are linted\n")
