"""Renames whose new function does not take every call the old one took
(JAX902 `shard_map` -> `jax.shard_map`, `pjit` -> `jax.jit`; JAX901 `jnp.in1d`,
`jnp.fix`, `pjit.with_sharding_constraint`): the fix rewrites the arguments it
knows how to map, and is not offered where one does not map (an unknown keyword,
`**kwargs`, a use whose arguments are not seen).  The fixed code is run with the
installed JAX, and every rename's signatures are compared with JAX's own."""

from __future__ import annotations

import inspect
import subprocess
import sys
import textwrap
import warnings

import pytest

from jaxlint.fix.fixer import fix_text
from jaxlint.model import deprecations as D
from jaxlint.settings import LintSettings

HEAD = """\
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P
{imports}

mesh = Mesh(np.array(jax.devices()[:1]), ("x",))
x = jnp.arange(4.0)


def body(v):
    return v * 2

"""


def _source(imports: str, body: str) -> str:
    return HEAD.format(imports=imports) + textwrap.dedent(body)


def _fix(text: str, codes=("JAX901", "JAX902")):
    settings = LintSettings(select=frozenset(codes))
    result = fix_text(text, "example.py", settings, unsafe=True)
    return result.text, [(f.code, f.line, f.col, f.fix is not None) for f in result.findings]


SM = "from jax.experimental import shard_map"
SM_NAME = "from jax.experimental.shard_map import shard_map"
PJIT = "from jax.experimental.pjit import pjit"

# (imports, body, the body once fixed: None when no fix may be offered)
CASES = {
    "shard_map positional": (
        SM,
        'f = shard_map.shard_map(body, mesh, P("x"), P("x"), check_rep=True)\nprint(f(x))\n',
        'f = jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=True)\nprint(f(x))\n',
    ),
    "shard_map keywords": (
        SM,
        'f = shard_map.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_rep=False)\n'
        "print(f(x))\n",
        'f = jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)\nprint(f(x))\n',
    ),
    "shard_map check_rep by position": (
        SM,
        'f = shard_map.shard_map(body, mesh, P("x"), P("x"), False)\nprint(f(x))\n',
        'f = jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)\nprint(f(x))\n',
    ),
    "shard_map partial decorator": (
        SM,
        '@partial(shard_map.shard_map, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_rep=False)\n'
        "def g(v):\n    return v + 1\n\n\nprint(g(x))\n",
        '@partial(jax.shard_map, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)\n'
        "def g(v):\n    return v + 1\n\n\nprint(g(x))\n",
    ),
    "shard_map imported by name": (
        SM_NAME,
        'f = shard_map(body, mesh, P("x"), P("x"), check_rep=True)\n\n\n'
        '@partial(shard_map, mesh=mesh, in_specs=P("x"), out_specs=P("x"))\n'
        "def g(v):\n    return v + 1\n\n\nprint(f(x), g(x))\n",
        'f = shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=True)\n\n\n'
        '@partial(shard_map, mesh=mesh, in_specs=P("x"), out_specs=P("x"))\n'
        "def g(v):\n    return v + 1\n\n\nprint(f(x), g(x))\n",
    ),
    "shard_map unknown keyword": (
        SM,
        'f = shard_map.shard_map(body, mesh, P("x"), P("x"), check_vma=True)\n',
        None,
    ),
    "shard_map **kwargs": (
        SM,
        'opts = {"check_rep": False}\nf = shard_map.shard_map(body, mesh, P("x"), P("x"), **opts)\n',
        None,
    ),
    "shard_map passed on": (
        SM,
        'smap = shard_map.shard_map\nf = smap(body, mesh, P("x"), P("x"))\n',
        None,
    ),
    "shard_map partial not a decorator": (
        SM,
        'make = partial(shard_map.shard_map, mesh=mesh)\nf = make(body, in_specs=P("x"), out_specs=P("x"))\n',
        None,
    ),
    "shard_map by name, one use passed on": (
        SM_NAME,
        'f = shard_map(body, mesh, P("x"), P("x"))\nmakers = [shard_map]\n',
        None,
    ),
    "shard_map auto": (
        SM,
        'f = shard_map.shard_map(body, mesh, P("x"), P("x"), auto=frozenset())\n',
        'f = jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x"), '
        "axis_names=frozenset(mesh.axis_names) - frozenset(frozenset()))\n",
    ),
    "shard_map auto, mesh not a name": (
        SM,
        'f = shard_map.shard_map(body, Mesh(np.array(jax.devices()[:1]), ("x",)), P("x"), P("x"), auto=set())\n',
        None,
    ),
    "pjit positional": (
        PJIT,
        "p = pjit(body, None, None, donate_argnums=())\n\n\n@pjit\ndef q(v):\n    return v - 1\n\n\n"
        "print(p(x), q(x))\n",
        "p = pjit(body, in_shardings=None, out_shardings=None, donate_argnums=())\n\n\n@pjit\ndef q(v):\n"
        "    return v - 1\n\n\nprint(p(x), q(x))\n",
    ),
    "pjit attribute": (
        "import jax.experimental.pjit",
        "p = jax.experimental.pjit.pjit(body, None)\nprint(p(x))\n",
        "p = jax.jit(body, in_shardings=None)\nprint(p(x))\n",
    ),
    "pjit fun by keyword": (
        "import jax.experimental.pjit",
        "p = jax.experimental.pjit.pjit(fun=body)\n",
        None,
    ),
    "in1d keywords": (
        "",
        "print(jnp.in1d(ar1=x, ar2=jnp.array([1.0]), invert=True))\n",
        "print(jnp.isin(element=x, test_elements=jnp.array([1.0]), invert=True))\n",
    ),
    "jnp.fix": (
        "",
        "print(jnp.fix(x / 3))\n",
        "print(jnp.trunc(x / 3))\n",
    ),
    "jnp.fix with out": (
        "",
        "print(jnp.fix(x / 3, out=None))\n",
        None,
    ),
    "with_sharding_constraint": (
        "import jax.experimental.pjit",
        "y = jax.experimental.pjit.with_sharding_constraint(x, jax.sharding.NamedSharding(mesh, P()))\nprint(y)\n",
        "y = jax.lax.with_sharding_constraint(x, jax.sharding.NamedSharding(mesh, P()))\nprint(y)\n",
    ),
    "with_sharding_constraint axis_resources": (
        "import jax.experimental.pjit",
        "y = jax.experimental.pjit.with_sharding_constraint(x, axis_resources=P())\n",
        None,
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_the_fix_rewrites_the_arguments_or_is_not_offered(name: str) -> None:
    imports, body, fixed_body = CASES[name]
    text = _source(imports, body)
    new, remaining = _fix(text)
    if fixed_body is None:
        assert new == text
        assert remaining and not any(has_fix for *_, has_fix in remaining)
        return
    expected = _source(imports, fixed_body)  # an import by name is rewritten too
    expected = expected.replace(SM_NAME, "from jax import shard_map").replace(PJIT, "from jax import jit as pjit")
    assert new == expected
    compile(new, "fixed.py", "exec")


# runs each program of a JSON list in a fresh namespace of one process (one JAX import):
# [[True, its output] or [False, its error]]
RUNNER = r"""
import contextlib, io, json, sys, traceback, warnings
warnings.simplefilter("ignore")
out = []
for text in json.load(sys.stdin):
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            exec(compile(text, "<example>", "exec"), {"__name__": "__main__"})
        out.append([True, buf.getvalue()])
    except Exception:
        out.append([False, traceback.format_exc(limit=-2)])
print(json.dumps(out))
"""


def _run_all(texts: list[str]) -> list[tuple[bool, str]]:
    import json

    proc = subprocess.run([sys.executable, "-c", RUNNER], input=json.dumps(texts), capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [tuple(r) for r in json.loads(proc.stdout.strip().splitlines()[-1])]


# the old spelling still runs on the installed JAX (with a DeprecationWarning): both give the same output
RUNNABLE_BEFORE = ["shard_map positional", "shard_map keywords", "shard_map check_rep by position",
                   "shard_map partial decorator", "shard_map imported by name", "pjit positional",
                   "pjit attribute"]


def test_the_fixed_code_runs_with_jax_as_the_old_code_did() -> None:
    pytest.importorskip("jax")
    names = [n for n, (_, _, fixed) in CASES.items() if fixed is not None]
    old = [_source(*CASES[n][:2]) for n in names]
    new = [_fix(text)[0] for text in old]
    auto = names.index("shard_map auto")
    new[auto] += "print(f(x))\n"  # `auto` named the axes left to the compiler; axis_names the others
    before = dict(zip(RUNNABLE_BEFORE, _run_all([old[names.index(n)] for n in RUNNABLE_BEFORE])))
    after = dict(zip(names, _run_all(new)))
    for name in names:
        ok, output = after[name]
        assert ok, (name, output)
        assert output.strip(), name
        if name in RUNNABLE_BEFORE:
            assert before[name] == (True, output), name
    assert after["shard_map auto"] == (True, "[0. 2. 4. 6.]\n")


def _resolve(qualname: str):
    import importlib

    parts = qualname.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        try:
            for p in parts[i:]:
                obj = getattr(obj, p)
        except AttributeError:
            return None
        return obj
    return None


def test_every_rename_takes_the_calls_the_old_spelling_took() -> None:
    """For each fixed rename whose old spelling still exists in the installed JAX:
    the same parameters, or a call shape that maps the old ones onto the new."""
    pytest.importorskip("jax")
    checked = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for row in D.TABLE:
            if row.fix is None or row.new_qualname is None or row.kind != "name":
                continue
            old, new = _resolve(row.old), _resolve(row.new_qualname)
            if old is None or not callable(old) or inspect.isclass(old):
                continue
            assert new is not None, row.old
            try:
                old_sig, new_sig = inspect.signature(old), inspect.signature(new)
            except (TypeError, ValueError):
                continue
            old_params = list(old_sig.parameters.values())
            new_params = new_sig.parameters
            checked.append(row.old)
            if row.call is None:
                assert [(p.name, p.kind) for p in old_params] == [(p.name, p.kind) for p in new_params.values()], row.old
                continue
            shape = row.call
            by_position = [p.name for p in old_params
                           if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
            assert list(shape.params) == by_position, row.old
            renamed = dict(shape.renamed)
            for i, name in enumerate(shape.params):
                target = new_params[renamed.get(name, name)] if i >= shape.positional else None
                if target is not None:
                    assert target.kind in (target.KEYWORD_ONLY, target.POSITIONAL_OR_KEYWORD), (row.old, name)
            for old_kw, new_kw in renamed.items():
                assert new_kw in new_params, (row.old, old_kw)
            assert set(shape.positional_only) == {p.name for p in new_params.values()
                                                  if p.kind == p.POSITIONAL_ONLY}, row.old
    assert {"jax.experimental.shard_map.shard_map", "jax.experimental.pjit.pjit", "jax.host_count"} <= set(checked)
