"""Fixes never lose code: comments inside the code a fix rewrites are kept (keywords are
renamed in place) or the fix is withheld, and continuation lines keep the indentation of
the block they are in (a node printed alone loses it)."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
from click.testing import CliRunner

from jaxlint.cli import cli


def _fix(tmp_path: Path, monkeypatch, text: str, *extra: str) -> tuple[str, str]:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "m.py").write_text(text)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "--no-cache", "--fix", "m.py", *extra])
    fixed = (tmp_path / "m.py").read_text()
    cst.parse_module(fixed)
    again = CliRunner().invoke(cli, ["check", "--no-cache", "--fix", "m.py", *extra])
    assert (tmp_path / "m.py").read_text() == fixed, again.output  # fixing twice changes nothing more
    return fixed, result.output


KEYWORDS = """\
import jax.numpy as jnp
from jax.numpy import clip as clamp


def f(x):
    a = jnp.clip(
        x,
        a_min=0.0,  # lower bound: keep probabilities non-negative
        a_max=1.0,  # TODO(team): revisit upper bound
    )
    g = jnp.where(
        condition=x > 0,  # only positive
        x=x,
        y=0.0,  # fallback
    )
    return a, g, clamp(x, a_max=2.0)  # the bound
"""

KEYWORDS_FIXED = """\
import jax.numpy as jnp
from jax.numpy import clip as clamp


def f(x):
    a = jnp.clip(
        x,
        min=0.0,  # lower bound: keep probabilities non-negative
        max=1.0,  # TODO(team): revisit upper bound
    )
    g = jnp.where(
        x > 0,  # only positive
        x,
        0.0,  # fallback
    )
    return a, g, clamp(x, max=2.0)  # the bound
"""


def test_renamed_keywords_keep_the_comments_between_arguments(tmp_path, monkeypatch):
    fixed, output = _fix(tmp_path, monkeypatch, KEYWORDS, "--select", "JAX903")
    assert fixed == KEYWORDS_FIXED
    assert "Found 4 errors (4 fixed, 0 remaining)." in output


def test_keywords_out_of_order_are_written_anew_unless_a_comment_would_be_lost(tmp_path, monkeypatch):
    text = "import jax.numpy as jnp\n\n\ndef f(x):\n    return jnp.where(x=x, condition=x > 0, y=0.0)\n"
    fixed, output = _fix(tmp_path, monkeypatch, text, "--select", "JAX903")
    assert fixed == "import jax.numpy as jnp\n\n\ndef f(x):\n    return jnp.where(x > 0, x, 0.0)\n"
    commented = ("import jax.numpy as jnp\n\n\ndef f(x):\n    return jnp.where(x=x,  # the values\n"
                 "                     condition=x > 0, y=0.0)\n")
    fixed, output = _fix(tmp_path, monkeypatch, commented, "--select", "JAX903")
    assert fixed == commented
    assert "Found 1 error." in output


PRINTS = """\
import jax


@jax.jit
def f(x):
    print(
        "x is",  # label
        x,
    )
    print("y is", x)  # kept: outside the call
    return x
"""

PRINTS_FIXED = """\
import jax


@jax.jit
def f(x):
    print(
        "x is",  # label
        x,
    )
    jax.debug.print("y is {}", x)  # kept: outside the call
    return x
"""


def test_a_fix_that_would_drop_a_comment_is_withheld(tmp_path, monkeypatch):
    fixed, output = _fix(tmp_path, monkeypatch, PRINTS, "--select", "JAX401", "--unsafe-fixes")
    assert fixed == PRINTS_FIXED
    assert "(1 fixed, 1 remaining)" in output


INDENTED = """\
import jax.numpy as jnp


class Model:
    def run(self, x):
        y = jnp.zeros(3)
        y[0] = (x[0]  # first term
                + x[1])  # second term
        s = jnp.sum([x[0],
                     x[1]])
        return y, s
"""

INDENTED_FIXED = """\
import jax.numpy as jnp


class Model:
    def run(self, x):
        y = jnp.zeros(3)
        y = y.at[0].set(x[0]  # first term
                + x[1])  # second term
        s = jnp.sum(jnp.asarray([x[0],
                     x[1]]))
        return y, s
"""


def test_continuation_lines_keep_the_indentation_of_their_block(tmp_path, monkeypatch):
    fixed, output = _fix(tmp_path, monkeypatch, INDENTED, "--select", "JAX101,JAX130")
    assert fixed == INDENTED_FIXED
    assert "(2 fixed, 0 remaining)" in output
