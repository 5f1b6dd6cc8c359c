"""Branches switched off by the constant arguments of every traced call: a parameter
that each call running traced gives one Python constant (``check=False`` passed, a
literal default left, a constant handed down from a traced caller, the static
argument of a jit applied at once, a ``functools.partial`` keyword) takes it in the
traced walk, so ``if check:`` / ``if not deterministic:`` / ``if scale is not None:``
prune the branch that cannot run.  Mixed or unknown values keep both branches.
Every VALID snippet was run under ``jax.jit`` (JAX 0.10.2); every INVALID twin raises
TracerBoolConversionError.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from click.testing import CliRunner

from jaxlint.cli import cli
from jaxlint.lint.linter import lint_source
from jaxlint.settings import LintSettings
from jaxlint.workspace.ruleinfo import load_rule_infos

_ALL = frozenset(r.code for r in load_rule_infos())


def _found(src: str, path: str = "pkg/mod.py") -> list[tuple[str, int, int, str]]:
    result = lint_source(textwrap.dedent(src), path, LintSettings(select=_ALL))
    return [(f.code, f.line, f.col, f.message) for f in result.findings]


def _project(root: Path, files: dict[str, str], monkeypatch) -> list[tuple[str, str, int, int, str]]:
    (root / "pyproject.toml").write_text("")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    monkeypatch.chdir(root)
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--output-format", "json"])
    assert result.exit_code in (0, 1), result.output
    return [(f["code"], f["filename"], f["location"]["row"], f["location"]["column"], f["message"])
            for f in json.loads(result.stdout)]


def _if_traced(param: str, fn: str, how: str) -> str:
    return (f"Python `if` on a traced value: it depends on the traced argument `{param}` of `{fn}` ({how}); "
            "this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`")


_CHECKED = """\
import jax
import jax.numpy as jnp

def errorif(cond, msg=""):
    if cond:
        raise ValueError(msg)

def prep(x, check=True):
    if check:
        errorif(not jnp.all(jnp.isfinite(x)), "bad")
    return x

@jax.jit
def literal(x):
    return prep(x, check=False)
"""


def test_a_literal_false_at_the_only_traced_call_switches_the_check_off() -> None:
    assert _found(_CHECKED) == []


def test_one_traced_call_passing_true_keeps_the_check() -> None:
    src = _CHECKED + """
@jax.jit
def checked(x):
    return prep(x, check=True)
"""
    assert _found(src) == [(
        "JAX201", 10, 17,
        "`not` converts a traced value to a Python bool: it depends on the traced argument `x` of `prep` "
        "(called from traced `literal`); this raises TracerBoolConversionError. Use `jnp.logical_not` / `~`",
    )]


_HELPERS = """\
import jax
import jax.numpy as jnp

def prep(x, check=True):
    if check:
        if not jnp.all(jnp.isfinite(x)):
            raise ValueError("bad")
    return x

class Spline:
    def __init__(self, x, check=True):
        self.x = prep(x, check=check)

def dropout(x, deterministic=False):
    if not deterministic:
        if x.sum() > 0:
            x = x * 2
    return x

class Layer:
    def apply(self, x, train=True):
        if train:
            if x.mean() > 0:
                return x * 0.5
        return x

    def __call__(self, x):
        return self.apply(x, train=TRAIN)

def norm(x, scale=None):
    if scale is not None:
        if float(scale) > 1:
            x = x * scale
    return x

@jax.jit
def eval_step(x):
    y = Spline(x, check=CHECK).x            # through a constructor's __init__
    z = dropout(x, deterministic=DET)        # `if not deterministic:`
    return y + z + Layer()(x) + norm(x) + norm(x, None)   # a method; `if scale is not None:`
"""


def test_constants_through_a_constructor_a_method_and_a_none_default() -> None:
    src = _HELPERS.replace("CHECK", "False").replace("DET", "True").replace("TRAIN", "False")
    assert _found(src) == []


def test_their_twins_given_true_are_reported() -> None:
    src = _HELPERS.replace("CHECK", "True").replace("DET", "False").replace("TRAIN", "True")
    assert _found(src) == [
        ("JAX201", 6, 16, _if_traced("x", "prep", "called from traced `__init__`")),
        ("JAX201", 16, 12, _if_traced("x", "dropout", "called from traced `eval_step`")),
        ("JAX201", 23, 16, _if_traced("x", "apply", "called from traced `__call__`")),
    ]


def test_a_value_the_caller_does_not_know_keeps_both_branches() -> None:
    src = _HELPERS.replace("CHECK", "False").replace("DET", "det").replace("TRAIN", "False").replace(
        "def eval_step(x):", "def eval_step(x, det):")
    assert _found(src) == [("JAX201", 16, 12, _if_traced("x", "dropout", "called from traced `eval_step`"))]


_STATIC = """\
import functools
import jax
import jax.numpy as jnp

def prep(x, check=True):
    if check:
        if not jnp.all(jnp.isfinite(x)):
            raise ValueError("bad")
    return x

class Spline:
    def __init__(self, x, check=True):
        self.x = prep(x, check=check)

def via_class(x, check=True):
    return Spline(x, check=check).x

out = jax.jit(via_class, static_argnames=["check"])(jnp.ones(3), check=CHECK)

def body(x, debug=True):
    if debug:
        if x.sum() > 0:
            x = x + 1
    return x

step = jax.jit(functools.partial(body, debug=DEBUG))
"""


def test_a_static_jit_argument_and_a_partial_keyword_give_their_constant() -> None:
    assert _found(_STATIC.replace("CHECK", "False").replace("DEBUG", "False")) == []
    assert _found(_STATIC.replace("CHECK", "True").replace("DEBUG", "True")) == [
        ("JAX201", 7, 16, _if_traced("x", "prep", "called from traced `__init__`")),
        ("JAX201", 22, 12, _if_traced("x", "body", "wrapped by jax.jit")
         + "; or, if `x` is a Python value, mark it static (static_argnums=0)"),
    ]


_LIB = """\
import jax.numpy as jnp

def prep(x, check=True):
    if check:
        if not jnp.all(jnp.isfinite(x)):
            raise ValueError("bad")
    return x

class Norm:
    def __init__(self, x, use_bias=None):
        if use_bias is not None:
            if x.sum() > use_bias:
                x = x - 1
        self.x = x
"""

_MAIN = """\
import jax
from pkg.helpers import prep, Norm

@jax.jit
def step(x):
    return prep(x, check=False) + Norm(x).x
"""


def test_constants_passed_from_another_module(tmp_path, monkeypatch) -> None:
    files = {"pkg/__init__.py": "", "pkg/helpers.py": _LIB, "pkg/main.py": _MAIN}
    assert _project(tmp_path, files, monkeypatch) == []


def test_another_module_passing_a_value_keeps_the_branch(tmp_path, monkeypatch) -> None:
    other = """\
    import jax
    from pkg.helpers import Norm

    @jax.jit
    def step2(x):
        return Norm(x, use_bias=1.0).x
    """
    files = {"pkg/__init__.py": "", "pkg/helpers.py": _LIB, "pkg/main.py": _MAIN, "pkg/other.py": other}
    assert _project(tmp_path, files, monkeypatch) == [(
        "JAX201", "pkg/helpers.py", 12, 16,
        _if_traced("x", "__init__", "called from `step2` (pkg/other.py:6), which is decorated with @jax.jit"),
    )]
