"""The content-hash cache."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from jaxlint.cache import Cache
from jaxlint.cli import cli
from jaxlint.findings import Applicability, Edit, FileResult, Finding, Fix, Severity
from jaxlint.settings import LintSettings

BAD = "import jax\ndef f(:\n"


def _run(*args: str):
    return CliRunner().invoke(cli, ["check", "-v", "--output-format", "concise", *args])


def _hits(result) -> int:
    line = [l for l in result.stderr.splitlines() if l.startswith("linted ")][0]
    return int(line.split("(")[1].split()[0])


def test_second_run_hits_and_changes_miss(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text(BAD)
    (tmp_path / "b.py").write_text("y = 2\n")
    first = _run(".")
    assert first.exit_code == 1 and _hits(first) == 0
    second = _run(".")
    assert _hits(second) == 2
    assert second.stdout == first.stdout  # findings come back from the cache intact
    # a content change misses
    (tmp_path / "b.py").write_text("y = 3\n")
    assert _hits(_run(".")) == 1
    # a settings change misses
    assert _hits(_run("--x64", ".")) == 0
    assert _hits(_run("--x64", ".")) == 2
    assert _hits(_run("--ignore", "JAX001", ".")) == 0
    # --no-cache neither reads nor writes
    assert _hits(_run("--no-cache", ".")) == 0


def test_cache_dir_option_and_clean(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JAXLINT_CACHE_DIR", raising=False)
    (tmp_path / "a.py").write_text(BAD)
    _run("--cache-dir", "c1", ".")
    assert (tmp_path / "c1" / "CACHEDIR.TAG").is_file()
    assert list([e for e in (tmp_path / "c1" / "v2").rglob("*.json") if e.parent.name != "projects"])
    assert not (tmp_path / ".jaxlint_cache").exists()
    _run(".")
    assert (tmp_path / ".jaxlint_cache").is_dir()
    result = CliRunner().invoke(cli, ["clean"])
    assert result.exit_code == 0 and "Removed cache" in result.stdout
    assert not (tmp_path / ".jaxlint_cache").exists()
    result = CliRunner().invoke(cli, ["clean", "--cache-dir", "c1"])
    assert not (tmp_path / "c1").exists()
    assert "No cache" in CliRunner().invoke(cli, ["clean"]).stdout


def test_cache_dir_from_config(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JAXLINT_CACHE_DIR", raising=False)
    (tmp_path / "jaxlint.toml").write_text('cache-dir = "var/cache"\n')
    (tmp_path / "a.py").write_text(BAD)
    _run(".")
    assert (tmp_path / "var" / "cache" / "v2").is_dir()


def test_round_trip_with_fix_and_relabel(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "c", "digest")
    settings = LintSettings(select=frozenset({"JAX001"}))
    finding = Finding(
        "JAX100", "x", "msg", "a.py", 1, 2, 1, 5, Severity.WARNING,
        fix=Fix(Applicability.UNSAFE, "do it", (Edit(1, 2, 1, 5, "y"),)), function="f",
    )
    key = cache.key(b"data", settings)
    assert cache.get(key, "a.py") is None
    cache.put(key, FileResult(path="a.py", findings=[finding], parsed=True))
    got = cache.get(key, "other.py")
    assert got is not None and got.from_cache and got.parsed
    assert got.findings[0].path == "other.py"
    assert got.findings[0].fix == finding.fix
    assert cache.key(b"data", settings) != cache.key(b"data2", settings)
    assert cache.key(b"data", settings) != Cache(tmp_path / "c", "other").key(b"data", settings)
    entry = next((tmp_path / "c" / "v2").rglob("*.json"))
    assert entry.parent.name == key[:2]
    json.loads(entry.read_text())


def test_warm_run_does_not_import_libcst(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(BAD)
    (tmp_path / "b.py").write_text("import jax\n")  # parsed on a miss, cached after
    code = (
        "import sys\nfrom jaxlint.cli import main\n"
        "try:\n    main(['-q', '--output-format', 'concise', '.'])\n"
        "except SystemExit as e:\n    code = e.code\n"
        "print('LIBCST', 'libcst' in sys.modules, code)\n"
    )
    env_cmd = [sys.executable, "-c", code]
    subprocess.run(env_cmd, cwd=tmp_path, capture_output=True, text=True)
    warm = subprocess.run(env_cmd, cwd=tmp_path, capture_output=True, text=True)
    assert "LIBCST False" in warm.stdout, warm.stdout + warm.stderr


def test_clean_refuses_a_directory_jaxlint_did_not_create(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "thesis.tex").write_text("years of work")
    result = CliRunner().invoke(cli, ["clean", "--cache-dir", "precious"])
    assert result.exit_code == 2
    assert "not a jaxlint cache" in result.stderr
    assert (precious / "thesis.tex").exists()


def test_existing_directory_gets_no_gitignore(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text(BAD)
    _run("--cache-dir", ".", "a.py")
    assert not (tmp_path / ".gitignore").exists()
    assert not (tmp_path / "CACHEDIR.TAG").exists()
    assert _hits(_run("--cache-dir", ".", "a.py")) == 1


def test_the_key_memo_is_bounded(tmp_path: Path, monkeypatch) -> None:
    # a long-lived Cache (the language server's) keys the files on disk again at each
    # refresh, with new facts when a caller's buffer moved: the memo must not keep them all
    import hashlib
    from dataclasses import replace

    import jaxlint.cache as cache_module

    monkeypatch.setattr(cache_module, "KEY_MEMO_BYTES", 10_000)
    cache = Cache(tmp_path, "digest")
    base = LintSettings(select=frozenset({"JAX201"}), module="pkg.helpers")
    data = b"x = 1\n" * 200
    keys = set()
    for edit in range(100):
        settings = replace(base, facts='{"line": %d}' % edit)
        key = cache.key(bytes(data), settings)
        h = hashlib.sha256(data)
        h.update(b"\0" + settings.fingerprint().encode())
        h.update(b"\0" + b"digest")
        assert key == h.hexdigest()  # the memo never changes a key
        keys.add(key)
        assert sum(len(d) for d, _ in cache._keys) <= 10_000
    assert len(keys) == 100
