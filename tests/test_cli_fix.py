"""``jaxlint --fix`` and friends on real files: every rule's fixed examples,
encodings and line endings, refusals, --diff, --add-noqa, stdin, exit codes."""

from __future__ import annotations

import codecs
import json
import os
import stat
from pathlib import Path

import libcst as cst
import pytest
from click.testing import CliRunner

from jaxlint.cli import cli
from jaxlint.engine.fixes import apply_findings
from jaxlint.lint.linter import lint_source
from jaxlint.rules import all_rules, default_codes
from jaxlint.settings import LintSettings

CASES_FIXED = [
    pytest.param(rule, ex, id=f"{rule.code}-invalid-{i}")
    for rule in all_rules()
    for i, ex in enumerate(rule.INVALID)
    if ex.fixed is not None
]

SRC = "import jax.numpy as jnp\nx = jnp.zeros(3)\nx[0] = 5.0\n"
FIXED = "import jax.numpy as jnp\nx = jnp.zeros(3)\nx = x.at[0].set(5.0)\n"
UNSAFE_ONLY = "import jax.numpy as jnp\ny = jnp.ones(3, dtype=jnp.float64)\n"


def _invoke(*args: str, **kw):
    return CliRunner().invoke(cli, ["check", "--no-cache", *args], **kw)


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _toml_value(v: object) -> str:
    return json.dumps(v)


def _codes(text: str, x64: bool) -> list[str]:
    settings = LintSettings(select=default_codes(), x64=x64)
    return sorted(f.code for f in lint_source(text, "example.py", settings, prefilter=False).findings)


@pytest.mark.parametrize("rule,ex", CASES_FIXED)
def test_every_fixed_example_via_the_cli(project: Path, rule, ex) -> None:
    config = [f'select = ["{rule.code}"]', f"x64 = {'true' if ex.x64 else 'false'}"]
    config += [f"{k} = {_toml_value(v)}" for k, v in ex.options]
    (project / "jaxlint.toml").write_text("\n".join(config) + "\n")
    target = project / "example.py"
    target.write_text(ex.code)
    args = ["--fix", "example.py"] + (["--unsafe-fixes"] if ex.unsafe else [])
    result = _invoke(*args)
    assert result.exit_code in (0, 1), result.output
    assert "skipped" not in result.stderr, result.stderr
    assert target.read_text() == ex.fixed
    cst.parse_module(ex.fixed)
    compile(ex.fixed, "example.py", "exec")
    settings = LintSettings(select=frozenset({rule.code}), x64=ex.x64, options=tuple(ex.options))
    assert lint_source(ex.fixed, "example.py", settings, prefilter=False).findings == []
    before, after = _codes(ex.code, ex.x64), _codes(ex.fixed, ex.x64)
    assert set(after) <= set(before), f"the fix introduced {set(after) - set(before)}"
    # a second run changes nothing
    again = _invoke(*args)
    assert target.read_text() == ex.fixed
    assert "0 fixed" not in again.stdout and "fixed," not in again.stdout
    if ex.unsafe:  # without --unsafe-fixes only the safe fixes apply
        target.write_text(ex.code)
        _invoke("--fix", "example.py")
        expected = ex.code
        for _ in range(10):
            found = lint_source(expected, "example.py", settings, prefilter=False).findings
            expected, n = apply_findings(expected, found, unsafe=False)
            if not n:
                break
        assert target.read_text() == expected


def test_crlf_bom_and_non_ascii_round_trip(project: Path) -> None:
    before = codecs.BOM_UTF8 + (
        "# café: é\r\nimport jax.numpy as jnp\r\nx = jnp.zeros(3)\r\nx[0] = 5.0  # ü\r\n"
        "s = 'naïve'\r\n"
    ).encode("utf-8")
    (project / "a.py").write_bytes(before)
    result = _invoke("--fix", "a.py")
    assert result.exit_code == 0, result.output
    assert (project / "a.py").read_bytes() == before.replace(
        b"x[0] = 5.0  # \xc3\xbc", b"x = x.at[0].set(5.0)  # \xc3\xbc")


def test_latin1_file_keeps_its_encoding(project: Path) -> None:
    text = "# -*- coding: latin-1 -*-\n# é\n" + SRC
    (project / "a.py").write_bytes(text.encode("latin-1"))
    assert _invoke("--fix", "a.py").exit_code == 0
    assert (project / "a.py").read_bytes() == text.replace(
        "x[0] = 5.0", "x = x.at[0].set(5.0)").encode("latin-1")


def test_file_mode_preserved(project: Path) -> None:
    p = project / "a.py"
    p.write_text(SRC)
    os.chmod(p, 0o750)
    assert _invoke("--fix", "a.py").exit_code == 0
    assert p.read_text() == FIXED
    assert stat.S_IMODE(os.stat(p).st_mode) == 0o750
    assert sorted(x.name for x in project.iterdir()) == ["a.py"]  # no temporary left


def test_syntax_breaking_fix_is_refused_and_reported(project: Path, monkeypatch) -> None:
    import jaxlint.rules.arrays.inplace_array_update as mod
    from jaxlint.engine.rule import Replacement, RuleFix

    def bad_fix(applicability, message, *replacements, **kw):
        return RuleFix(applicability, message,
                       tuple(Replacement(r.node, "x = (") for r in replacements))

    monkeypatch.setattr(mod, "fix", bad_fix)
    (project / "a.py").write_text(SRC)
    result = _invoke("--fix", "-j", "1", "a.py")
    assert (project / "a.py").read_text() == SRC
    assert "fix for JAX101 at 3:1 skipped: would introduce a syntax error" in result.stderr
    assert result.exit_code == 1


def test_diff_writes_nothing(project: Path) -> None:
    (project / "a.py").write_text(SRC)
    result = _invoke("--diff", "a.py")
    assert result.exit_code == 1
    assert (project / "a.py").read_text() == SRC
    assert "--- a/a.py\n+++ b/a.py\n" in result.stdout
    assert "-x[0] = 5.0\n+x = x.at[0].set(5.0)\n" in result.stdout
    assert "Would fix 1 error." in result.stderr
    (project / "b.py").write_text(FIXED)
    clean = _invoke("--diff", "b.py")
    assert clean.exit_code == 0 and clean.stdout == ""


def test_exit_codes_after_fix(project: Path) -> None:
    (project / "a.py").write_text(SRC)
    result = _invoke("--fix", "a.py")
    assert result.exit_code == 0 and "Found 1 error (1 fixed, 0 remaining)." in result.stdout
    (project / "a.py").write_text(SRC)
    assert _invoke("--fix", "--exit-non-zero-on-fix", "a.py").exit_code == 1
    # a finding that only an unsafe fix removes remains without --unsafe-fixes
    (project / "b.py").write_text(UNSAFE_ONLY)
    remaining = _invoke("--fix", "b.py")
    assert remaining.exit_code == 1 and (project / "b.py").read_text() == UNSAFE_ONLY
    assert _invoke("--fix-only", "b.py").exit_code == 0
    both = _invoke("--fix", "--unsafe-fixes", "--show-fixes", "b.py")
    assert both.exit_code == 0 and "jnp.float32" in (project / "b.py").read_text()
    assert "- b.py:\n    2:23 JAX110" in both.stdout


def test_unsafe_fixes_without_fix_only_show(project: Path) -> None:
    (project / "b.py").write_text(UNSAFE_ONLY)
    hidden = _invoke("b.py")
    shown = _invoke("--unsafe-fixes", "b.py")
    assert "fixable with --unsafe-fixes" in hidden.stdout
    assert "1 fixable with --fix" in shown.stdout
    assert (project / "b.py").read_text() == UNSAFE_ONLY


def test_stdin_fix_prints_the_fixed_source(project: Path) -> None:
    result = _invoke("--fix", "--stdin-filename", "x.py", "-", input=SRC)
    assert result.stdout == FIXED
    assert result.exit_code == 0
    assert not (project / "x.py").exists()
    untouched = _invoke("--fix", "--stdin-filename", "x.py", "-", input=UNSAFE_ONLY)
    assert untouched.stdout == UNSAFE_ONLY and untouched.exit_code == 1
    assert "JAX110" in untouched.stderr


def test_add_noqa(project: Path) -> None:
    (project / "a.py").write_text(SRC.replace("x[0] = 5.0", "x[0] = 5.0  # noqa: E501"))
    result = _invoke("--add-noqa", "a.py")
    assert result.exit_code == 0 and "Added 1 noqa directive." in result.stderr
    assert (project / "a.py").read_text().endswith("x[0] = 5.0  # noqa: E501, JAX101\n")
    again = _invoke("--add-noqa", "a.py")
    assert "Added 0 noqa directives." in again.stderr
    assert _invoke("a.py").exit_code == 0


def test_add_noqa_says_which_findings_it_leaves_and_how_to_mend_them(project: Path) -> None:
    """A code that names no rule (JAX002) is mended in its directive, not silenced by
    another code beside it: --add-noqa leaves it, says so, and names the fix that
    removes it, after which the file checks clean (new-user review 17, problem 11)."""
    (project / "a.py").write_text(SRC.replace("x[0] = 5.0", "x[0] = 5.0  # noqa: JAX999"))
    result = _invoke("--add-noqa", "a.py")
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        "Added 1 noqa directive.",
        "Left 1 JAX002 finding (a `# noqa` code that names no rule is removed from its directive,"
        " not silenced): `jaxlint check --fix --select JAX002` removes it.",
    ]
    assert (project / "a.py").read_text().endswith("x[0] = 5.0  # noqa: JAX999, JAX101\n")
    assert _invoke("--fix", "--select", "JAX002", "a.py").exit_code == 0
    assert (project / "a.py").read_text().endswith("x[0] = 5.0  # noqa: JAX101\n")
    assert _invoke("a.py").exit_code == 0


def test_needed_import_added_once_for_several_fixes(project: Path, monkeypatch) -> None:
    import jaxlint.rules.arrays.inplace_array_update as mod
    from jaxlint.engine.rule import fix as real_fix

    def fix_needing_jax(applicability, message, *replacements, **kw):
        return real_fix(applicability, message, *replacements, needs_import=("jax", None))

    monkeypatch.setattr(mod, "fix", fix_needing_jax)
    src = '"""Doc."""\r\nimport jax.numpy as jnp\r\nx = jnp.zeros(3)\r\nx[0] = 5.0\r\nx[1] = 6.0\r\n'
    (project / "a.py").write_bytes(src.encode())
    result = _invoke("--fix", "-j", "1", "a.py")
    assert result.exit_code == 0, result.output
    assert (project / "a.py").read_bytes().decode() == (
        '"""Doc."""\r\nimport jax\r\nimport jax.numpy as jnp\r\nx = jnp.zeros(3)\r\n'
        "x = x.at[0].set(5.0)\r\nx = x.at[1].set(6.0)\r\n"
    )


def test_fix_writes_through_a_symlink_to_its_target(project: Path) -> None:
    """`--fix` and `--add-noqa` on a link rewrite the link's target (its mode
    kept); the link stays a link (it used to become a plain fixed copy while
    the real file kept the bug)."""
    (project / "real").mkdir()
    (project / "proj").mkdir()
    target = project / "real" / "target.py"
    target.write_text(SRC)
    os.chmod(target, 0o640)
    link = project / "proj" / "mod.py"
    link.symlink_to("../real/target.py")
    assert _invoke("--fix", "proj/mod.py").exit_code == 0
    assert link.is_symlink() and os.readlink(link) == "../real/target.py"
    assert target.read_text() == FIXED
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640
    assert sorted(p.name for p in (project / "proj").iterdir()) == ["mod.py"]
    assert sorted(p.name for p in (project / "real").iterdir()) == ["target.py"]
    target.write_text(SRC)
    assert _invoke("--add-noqa", "proj/mod.py").exit_code == 0
    assert link.is_symlink()
    assert target.read_text() == SRC.replace("x[0] = 5.0", "x[0] = 5.0  # noqa: JAX101")


def test_fix_keeps_hard_links_one_file(project: Path) -> None:
    """A file with two hard links is rewritten in place: both names still
    name one inode, and both show the fix (documented in docs/cli.md)."""
    a, b = project / "a.py", project / "b.py"
    a.write_text(SRC)
    os.link(a, b)
    ino = os.stat(a).st_ino
    assert _invoke("--fix", "a.py").exit_code == 0
    assert os.stat(a).st_ino == os.stat(b).st_ino == ino
    assert a.read_text() == b.read_text() == FIXED
    a.write_text(SRC + "y = 1\n" * 20)  # a longer file shrinks: nothing of the old text stays behind
    assert _invoke("--add-noqa", "b.py").exit_code == 0
    assert os.stat(a).st_ino == os.stat(b).st_ino == ino
    assert a.read_text() == (SRC + "y = 1\n" * 20).replace("x[0] = 5.0", "x[0] = 5.0  # noqa: JAX101")


def test_an_in_place_write_that_fails_midway_leaves_the_old_text(tmp_path, monkeypatch) -> None:
    """A hard-linked file is rewritten in place (not atomic): a write that fails after
    some bytes (a full disk, a size limit) puts the old bytes back before the error goes
    up, so the file never holds half of each text."""
    from jaxlint import atomic

    a = tmp_path / "m.py"
    old = b"from jax.config import config\nconfig.update('jax_enable_x64', True)\n"
    a.write_bytes(old)
    os.link(a, tmp_path / "m_link.py")
    real_write = os.write
    calls = []

    def flaky(fd, data):
        calls.append(len(data))
        if len(calls) == 1:
            return real_write(fd, bytes(data[:10]))  # a short write, then the disk is full
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(atomic.os, "write", flaky)
    with pytest.raises(OSError):
        atomic.write_through(a, b"import jax\njax.config.update('jax_enable_x64', True)\n")
    monkeypatch.undo()
    assert a.read_bytes() == old and (tmp_path / "m_link.py").read_bytes() == old


CLIP = ("import jax.numpy as jnp\n\n\ndef f(x):\n    return jnp.clip(x, a_min=0, a_max=1)\n\n\n"
        "def g(x):\n    return jnp.where(condition=x > 0, x=x, y=0)\n")
CLIP_FIXED = ("import jax.numpy as jnp\n\n\ndef f(x):\n    return jnp.clip(x, min=0, max=1)\n\n\n"
              "def g(x):\n    return jnp.where(x > 0, x, 0)\n")


def test_one_fix_of_a_call_counts_every_finding_it_removes(project: Path) -> None:
    """`jnp.clip(a_min=, a_max=)`: one edit rewrites the call, so each keyword's finding
    carries it ([*]), and the plain run, --diff and --fix count the same findings."""
    (project / "c.py").write_text(CLIP)
    plain = _invoke("--output-format", "concise", "c.py")
    assert plain.stdout.splitlines() == [
        "c.py:5:24: JAX903 [*] `jnp.clip(a_min=...)` was removed in JAX 0.10.0 (deprecated in 0.4.27): use `min=` instead",
        "c.py:5:33: JAX903 [*] `jnp.clip(a_max=...)` was removed in JAX 0.10.0 (deprecated in 0.4.27): use `max=` instead",
        "c.py:9:22: JAX903 [*] `jnp.where(condition=...)` was removed in JAX 0.4.27 (deprecated in 0.4.21): use positional arguments instead",
        "Found 3 errors (3 fixable with --fix).",
    ]
    diff = _invoke("--diff", "c.py")
    assert "Would fix 3 errors." in diff.stderr and (project / "c.py").read_text() == CLIP
    fixed = _invoke("--fix", "--output-format", "concise", "c.py")
    assert (fixed.exit_code, fixed.stdout) == (0, "Found 3 errors (3 fixed, 0 remaining).\n")
    assert (project / "c.py").read_text() == CLIP_FIXED
    cst.parse_module(CLIP_FIXED)
    again = _invoke("--fix", "--output-format", "concise", "c.py")
    assert (again.exit_code, again.stdout) == (0, "All checks passed!\n")
    assert (project / "c.py").read_text() == CLIP_FIXED
