"""False findings read on real code (fresh set 6) and the precision items left alone,
each removed by a change to the model's mechanism, with the twins that must stay
reported.  Snippets written here in the shape of the mechanism (several shapes each),
not copied from the code read."""

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


def _found(src: str, path: str = "pkg/mod.py", code: str | None = None) -> list[tuple[str, int, int, str]]:
    result = lint_source(textwrap.dedent(src), path, LintSettings(select=_ALL))
    return [(f.code, f.line, f.col, f.message) for f in result.findings if code is None or f.code == code]


# --- 6. JAX121: capture patterns and `except ... as` names are bindings ---
# (the mechanism: the index's names a scope binds left out `case` capture names and
# `except E as n`, so a name bound there resolved to a module constant, or kept the
# integer a local assignment gave it before the `match`)

def _oob(i: int, size: int) -> str:
    return (f"index {i} is out of bounds for axis 0 with size {size}, and JAX raises no IndexError: the read "
            "is clamped to the nearest valid index (silently the wrong element)")


def test_capture_names_and_except_names_are_not_module_constants() -> None:
    src = """\
    import jax.numpy as jnp

    i = 5

    def pick(pair):
        x = jnp.arange(3)
        match pair:
            case (i, k):
                return x[i]
        return x[0]

    def first(items):
        x = jnp.zeros(4)
        match items:
            case [*i]:
                return x[i]
        return x

    def guarded(call):
        x = jnp.zeros(4)
        try:
            call()
        except ValueError as i:
            return x[i]
        return x
    """
    assert _found(src, code="JAX121") == []


def test_capture_rebinding_a_local_constant() -> None:
    src = """\
    import jax.numpy as jnp

    def pick(config):
        i = 5
        x = jnp.arange(3)
        match config:
            case {"index": i}:
                pass
            case {"rest": 0, **i}:
                pass
        return x[i]
    """
    assert _found(src, code="JAX121") == []


def test_constants_not_captured_still_reported() -> None:
    src = """\
    import jax.numpy as jnp

    i = 5
    N = 7

    def pick(pair):
        x = jnp.arange(3)
        match pair:
            case (a, k) if a > 0:
                return x[N]
            case {"n": n, **rest}:
                return x[i]
        try:
            pass
        except ValueError as err:
            return x[i]
        return x[0]
    """
    assert _found(src, code="JAX121") == [
        ("JAX121", 10, 22, _oob(7, 3)),
        ("JAX121", 12, 22, _oob(5, 3)),
        ("JAX121", 16, 18, _oob(5, 3)),
    ]


# --- 1. JAX110: a branch taken only when a JAX array's dtype is already 64-bit ---
# (the mechanism: the x64 guard knew only the flag; with x64 off no JAX array has a
# 64-bit dtype, so `x.dtype == jnp.float64` (`in (...)`, `jnp.issubdtype`, a local
# bound to `x.dtype`, `!=` then leaving) proves x64 on where it holds, `elif` and
# conditional expressions included; a NumPy array's dtype or a requested dtype does not)

def _trunc(dtype: str, where: str, to: str) -> str:
    return (f"`{dtype}` {where} is truncated to 32-bit because jax_enable_x64 is off (JAX only warns). Enable x64 at "
            f"start-up (`jax.config.update('jax_enable_x64', True)`), or use `{to}`")


def test_branches_under_a_64_bit_dtype_check_run_with_x64() -> None:
    src = """\
    import jax.numpy as jnp
    import numpy as np


    def init(out, complex_output):
        init_loop = jnp.zeros_like(out)
        if complex_output:
            if out.dtype == jnp.float32:
                init_loop = init_loop.astype(jnp.complex64)
            elif out.dtype == jnp.float64:
                init_loop = init_loop.astype(jnp.complex128)
        return init_loop


    def tol(x):
        if x.dtype in (jnp.float64, jnp.complex128):
            return jnp.asarray(1e-12, dtype=jnp.float64)
        return jnp.asarray(1e-6, dtype=jnp.float32)


    def widen(x):
        dtype = x.dtype
        if dtype != jnp.float64:
            return x
        return jnp.asarray(x, dtype=jnp.complex128)


    def eps(x):
        return jnp.asarray(1e-15, dtype=jnp.float64) if jnp.issubdtype(x.dtype, np.float64) else 1e-6


    class Solver:
        def step(self, x):
            if str(x.dtype) == "float64":
                return jnp.zeros(3, "float64")
            return jnp.zeros(3)
    """
    assert _found(src, code="JAX110") == []


def test_numpy_dtypes_requested_dtypes_and_mixed_checks_still_reported() -> None:
    src = """\
    import jax.numpy as jnp
    import numpy as np


    def host(x):
        h = np.asarray(x)
        if h.dtype == np.float64:
            return jnp.asarray(h, dtype=jnp.float64)
        return h


    def requested(x, dtype):
        if dtype == jnp.float64:
            return jnp.asarray(x, dtype=jnp.float64)
        return x


    def mixed(x):
        if x.dtype in (jnp.float32, jnp.float64):
            return jnp.asarray(x, dtype=jnp.float64)
        if x.dtype == jnp.float64:
            pass
        return jnp.asarray(x, dtype=jnp.int64)
    """
    assert _found(src, code="JAX110") == [
        ("JAX110", 8, 37, _trunc("float64", "requested in `jnp.asarray`", "float32")),
        ("JAX110", 14, 37, _trunc("float64", "requested in `jnp.asarray`", "float32")),
        ("JAX110", 20, 37, _trunc("float64", "requested in `jnp.asarray`", "float32")),
        ("JAX110", 23, 33, _trunc("int64", "requested in `jnp.asarray`", "int32")),
    ]


# --- 7. JAX120: a Pallas kernel reached through a name, a partial or a factory ---
# (the mechanism: the kernels `pallas_call` is given were known only when passed by
# their own name; `pallas_call` has no reverse-mode rule, so its kernel is never
# differentiated, whichever way the call names it)

def _where_nan(op: str, cond: str, key: str, which: str = "false") -> str:
    return (f"`{op}` is computed for every element, also where `{cond}` is {which} and masks it out; its "
            f"derivative is infinite/NaN {_singular_at(op, key)}, so the gradient of this `where` is NaN (0 * inf). Guard "
            f"`{key}` with the same condition too (double where: `jnp.where(cond, {key}, 1.0)` inside)")


def test_pallas_kernels_named_through_a_variable_a_partial_or_a_factory() -> None:
    src = """\
    import functools

    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl


    def _norm_kernel(x_ref, o_ref):
        x = x_ref[...]
        o_ref[...] = jnp.where(x > 0, jnp.sqrt(x), 0.0)


    def _scaled_kernel(x_ref, o_ref, *, scale):
        x = x_ref[...]
        o_ref[...] = jnp.where(x > 0, jnp.log(x) * scale, 0.0)


    def _make_kernel(eps):
        def inverse_kernel(x_ref, o_ref):
            x = x_ref[...]
            o_ref[...] = jnp.where(x > 0, 1.0 / x, eps)
        return inverse_kernel


    def norm(x):
        body_fn = _norm_kernel
        return pl.pallas_call(body_fn, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)


    def scaled(x, scale):
        body = functools.partial(_scaled_kernel, scale=scale)
        return pl.pallas_call(body, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)


    def inverse(x):
        return pl.pallas_call(_make_kernel(1e-6), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
    """
    assert _found(src, code="JAX120") == []


def test_the_same_functions_handed_to_vmap_or_jit_still_reported() -> None:
    src = """\
    import functools

    import jax
    import jax.numpy as jnp


    def _norm(x):
        return jnp.where(x > 0, jnp.sqrt(x), 0.0)


    def _make(eps):
        def inverse(x):
            return jnp.where(x > 0, 1.0 / x, eps)
        return inverse


    def norm(x):
        body_fn = _norm
        return jax.vmap(body_fn)(x)


    def inverse(x):
        return jax.jit(functools.partial(_make(1e-6)))(x)
    """
    assert _found(src, code="JAX120") == [
        ("JAX120", 8, 29, _where_nan("jnp.sqrt(x)", "x > 0", "x")),
        ("JAX120", 13, 33, _where_nan("1.0 / x", "x > 0", "x")),
    ]


# --- 2. JAX120: a masked operation that no derivative reaches ---
# (the mechanism: every `where` branch was taken to carry a gradient; values built
# only from comparisons (booleans cast to floats), `stop_gradient`, zero-derivative
# functions (`argmax`, `sign`...), constants and shapes carry no tangent, so the
# masked division or `log` of them cannot make the gradient NaN (checked with
# `jax.grad`: zeros); a parameter rebound only on some paths still carries one)

def test_masked_operations_of_values_without_tangent_are_quiet() -> None:
    src = """\
    import jax
    import jax.numpy as jnp


    def iou(a, b):
        num_tokens = a.shape[1]
        a = jnp.asarray(a > 0.0, dtype=jnp.float32)
        b = jnp.asarray(b > 0.0, dtype=jnp.float32)
        inter = jnp.sum(a * b, axis=-1)
        union = jnp.sum(a + b, axis=-1) - inter
        iou = jnp.where(union > 0, inter / union, 0)
        return jnp.sum(iou) / num_tokens


    def accuracy(logits, labels):
        hits = (jnp.argmax(logits, -1) == labels).astype(jnp.float32)
        counts = jnp.sum(labels >= 0, axis=0).astype(jnp.float32)
        return jnp.where(counts > 0, jnp.sum(hits) / counts, 0.0)


    def entropy_of_counts(x):
        counts = jax.lax.stop_gradient(x)
        return jnp.where(counts > 0, jnp.log(counts), 0.0)


    class Metrics:
        def precision(self, pred, target):
            tp = jnp.sum((pred > 0.5) & (target > 0.5))
            pos = jnp.sign(pred).clip(0, 1).sum()
            return jnp.where(pos > 0, tp / pos, 0.0)
    """
    assert _found(src, code="JAX120") == []


def test_masked_operations_that_a_tangent_reaches_still_reported() -> None:
    src = """\
    import jax
    import jax.numpy as jnp


    def soft_iou(a, b):
        inter = jnp.sum(a * b, axis=-1)
        union = jnp.sum(a + b, axis=-1) - inter
        return jnp.where(union > 0, inter / union, 0)


    def maybe(a, flag):
        if flag:
            a = a > 0
        return jnp.where(a > 0, jnp.log(a), 0.0)


    def ratio(mask, w):
        m = mask.astype(jnp.float32)
        return jnp.where(m > 0, w / m, 0.0)
    """
    assert _found(src, code="JAX120") == [
        ("JAX120", 8, 33, _where_nan("inter / union", "union > 0", "union")),
        ("JAX120", 14, 29, _where_nan("jnp.log(a)", "a > 0", "a")),
        ("JAX120", 19, 29, _where_nan("w / m", "m > 0", "m")),
    ]


# --- 4. JAX001: a notebook cell indented as a whole ---
# (the mechanism: IPython's `leading_indent` clean-up takes the first non-blank
# line's indent off every line of a cell that starts with it, so such a cell runs;
# the virtual module now does the same, positions mapped back to the cell's own
# columns and fixed lines given their indent back)

def _notebook(path: Path, *sources: list[str]) -> Path:
    cells = [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": src}
             for src in sources]
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n")
    return path


def test_cells_indented_as_a_whole_parse_with_positions_in_the_cell(tmp_path: Path) -> None:
    nb = _notebook(
        tmp_path / "demo.ipynb",
        [" import jax\n", " import jax.numpy as jnp\n", " \n", " def f(x):\n",
         "     return jax.tree_map(jnp.sin, x)\n", " %time y = jnp.zeros(3, dtype=jnp.float64)"],
        ["\n", "\tz = jax.tree_map(jnp.cos, [1.0])\n", "\tw = jnp.ones(2, dtype=jnp.int64)"],
    )
    out = CliRunner().invoke(cli, ["check", "--no-cache", "--output-format", "concise", str(nb)]).output
    rows = [ln.split(" ", 2)[:2] for ln in out.splitlines() if ln.startswith(str(nb))]
    assert rows == [
        [f"{nb}:cell", "1:5:13:"], [f"{nb}:cell", "1:6:2:"], [f"{nb}:cell", "1:6:31:"], [f"{nb}:cell", "2:2:6:"],
        [f"{nb}:cell", "2:3:24:"],
    ]
    assert "JAX001" not in out
    # `%time y = jnp.zeros(...)` times the dispatch of `jnp.zeros`: JAX505 at the magic
    assert [ln.split(" ")[2] for ln in out.splitlines() if ln.startswith(str(nb))] == [
        "JAX901", "JAX505", "JAX110", "JAX901", "JAX110"]


def test_fixes_in_an_indented_cell_keep_its_indent(tmp_path: Path) -> None:
    nb = _notebook(
        tmp_path / "demo.ipynb",
        [" import jax\n", " import jax.numpy as jnp\n", " \n", " def f(x):\n",
         "     return jax.tree_map(jnp.sin, x)\n"],
        ["\n", "\tz = jax.tree_map(jnp.cos, [1.0])\n", "\tw = z"],
    )
    CliRunner().invoke(cli, ["check", "--no-cache", "--fix", "--select", "JAX901", str(nb)])
    cells = json.loads(nb.read_text())["cells"]
    assert ["".join(c["source"]) for c in cells] == [
        " import jax\n import jax.numpy as jnp\n \n def f(x):\n     return jax.tree.map(jnp.sin, x)\n",
        "\n\tz = jax.tree.map(jnp.cos, [1.0])\n\tw = z",
    ]


def test_a_cell_whose_later_lines_are_less_indented_is_still_a_syntax_error(tmp_path: Path) -> None:
    nb = _notebook(tmp_path / "demo.ipynb", ["  x = 1\n", " y = 2\n"])
    out = CliRunner().invoke(cli, ["check", "--no-cache", "--output-format", "concise", str(nb)]).output
    assert f"{nb}:cell 1:2:1: JAX001 The cell does not parse: unexpected indent" in out


# --- 3. JAX301: two draws from one key whose results are asserted equal ---
# (the mechanism: the model saw a second draw as a reuse whatever its result was
# used for; a test asserting that what one draw gave equals what the other gave
# (directly, or through the values computed from them) means the same bits on
# purpose: a determinism test, or two computations under one randomness; a
# negated assertion, a comparison of shapes, or a side computed from both draws
# still reports)

def _reuse(name: str, by: str, line: int) -> str:
    return (f"`{name}` was already consumed by `{by}` on line {line}: both calls get the same random bits. "
            f"Split it first, e.g. `k1, k2 = jax.random.split({name})`, and give each call its own key")


def test_draws_asserted_equal_are_meant_to_repeat() -> None:
    src = """\
    import jax
    import jax.numpy as jnp
    import numpy as np


    def test_losses(loss_a, loss_b):
        key = jax.random.PRNGKey(0)
        logits = jax.random.normal(key, (8, 16))
        train_labels = jax.random.uniform(key, (8, 16))
        eval_labels = jax.random.uniform(key, (8, 16))
        train_loss = loss_a(logits, train_labels)
        eval_loss = loss_b(logits, eval_labels)
        np.testing.assert_allclose(train_loss, eval_loss)


    def test_determinism():
        key = jax.random.key(1)
        np.testing.assert_array_equal(jax.random.normal(key, (3,)), jax.random.normal(key, (3,)))


    def check_sampler(key):
        first = jax.random.bernoulli(key, 0.5, (4,))
        second = jax.random.bernoulli(key, 0.5, (4,))
        assert jnp.all(first == second)


    def _noise(key, n):
        return jax.random.normal(key, (n,))


    class SamplerTest:
        def test_helper(self):
            key = jax.random.PRNGKey(3)
            a = _noise(key, 3) * 2.0
            b = _noise(key, 3) * 2.0
            self.assertAllClose(a, b)
    """
    # (line 9: `uniform` after `normal` gives labels tied to the logits: still reported)
    assert _found(src, code="JAX301") == [("JAX301", 9, 20, _reuse("key", "random.normal", 8))]


def test_draws_asserted_different_or_compared_by_shape_still_reported() -> None:
    src = """\
    import jax
    import jax.numpy as jnp


    def test_different():
        key = jax.random.PRNGKey(0)
        x = jax.random.normal(key, (3,))
        y = jax.random.normal(key, (3,))
        assert not jnp.allclose(x, y)


    def test_shapes(self):
        key = jax.random.PRNGKey(0)
        x = jax.random.normal(key, (3,))
        y = jax.random.uniform(key, (3,))
        self.assertEqual(x.shape, y.shape)


    def test_mixed(self):
        key = jax.random.PRNGKey(0)
        x = jax.random.normal(key, (3,))
        y = jax.random.normal(key, (3,)) + x
        self.assertNotEqual(float(x.sum()), float(y.sum()))
        self.assertAllClose(x + y, y)
    """
    assert _found(src, code="JAX301") == [
        ("JAX301", 8, 9, _reuse("key", "random.normal", 7)),
        ("JAX301", 15, 9, _reuse("key", "random.normal", 14)),
        ("JAX301", 22, 9, _reuse("key", "random.normal", 21)),
    ]


def test_an_object_updated_with_the_second_draw_compared_with_it_still_reported() -> None:
    src = """\
    import jax


    def test_update(self, Holder):
        k = jax.random.PRNGKey(0)
        holder = Holder(jax.random.normal(k, (4,)))
        fresh = jax.random.normal(k, (4,))
        holder.update(fresh)
        self.assertEqual(holder.value, fresh)
    """
    assert _found(src, code="JAX301") == [("JAX301", 7, 13, _reuse("k", "random.normal", 6))]


# --- after reading the merged change: the no-tangent reading keeps what still reaches ---
# (a parameter updated in place keeps its own value; a name rebound inside a loop holds
# the later value at the next iteration; a kernel's name is read in the scope that hands
# it to pallas_call, not wherever else the same local name is bound)

def test_a_parameter_updated_in_place_or_carried_round_a_loop_still_reported() -> None:
    src = """\
    import jax
    import jax.numpy as jnp


    def energy(x):
        x *= 2.0
        return jnp.sum(jnp.where(x > 0, jnp.log(x), 0.0))


    def ratio(w, scale):
        scale += 0.0
        return jnp.where(scale > 0, w / scale, 0.0)


    def rollout(x):
        u = jnp.zeros(3)
        total = 0.0
        for _ in range(3):
            total = total + jnp.sum(jnp.where(u > 0, jnp.log(u), 0.0))
            u = u + x
        return total


    def settle(x, n):
        h = jnp.ones(3)
        while n > 0:
            out = jnp.where(h > 0, x / h, 0.0)
            h = h - x
            n -= 1
        return out
    """
    assert _found(src, code="JAX120") == [
        ("JAX120", 7, 37, _where_nan("jnp.log(x)", "x > 0", "x")),
        ("JAX120", 12, 33, _where_nan("w / scale", "scale > 0", "scale")),
        ("JAX120", 19, 50, _where_nan("jnp.log(u)", "u > 0", "u")),
        ("JAX120", 27, 32, _where_nan("x / h", "h > 0", "h")),
    ]


def test_a_local_name_of_another_function_is_not_the_pallas_kernel() -> None:
    src = """\
    import functools

    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl


    def copy_kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...]


    def loss(x):
        return jnp.sum(jnp.where(x > 0, jnp.log(x), 0.0))


    def train(x):
        fn = loss
        return jax.grad(fn)(x)


    def run(x):
        fn = functools.partial(copy_kernel)
        return pl.pallas_call(fn, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
    """
    assert _found(src, code="JAX120") == [("JAX120", 13, 37, _where_nan("jnp.log(x)", "x > 0", "x"))]


def test_helpers_a_pallas_kernel_runs_through_a_local_alias_are_part_of_the_kernel() -> None:
    # the kernel picks its step by a local name (`step = _one if c else _many`, or an
    # if/else), and the step's masked division sits in a nested function run under
    # `pl.when`: no reverse-mode derivative reaches any of it; the same helper handed to
    # jax.grad elsewhere in the file is still reported
    src = """\
    import functools

    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl


    def _one(x_ref, o_ref):
        l = x_ref[...]

        @pl.when(l.sum() > 0)
        def run():
            o_ref[...] = jnp.where(l == 0.0, 1.0, 1.0 / l)


    def _many(x_ref, o_ref):
        l = x_ref[...]
        o_ref[...] = jnp.where(l == 0.0, 1.0, 1.0 / l)


    def _kernel(x_ref, o_ref, *, single):
        step = _one if single else _many
        step(x_ref, o_ref)


    def _kernel2(x_ref, o_ref, *, single):
        if single:
            step = _one
        else:
            step = _many
        step(x_ref, o_ref)


    def attention(x, single):
        kernel = functools.partial(_kernel, single=single)
        other = functools.partial(_kernel2, single=single)
        y = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
        return pl.pallas_call(other, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(y)


    def _normalise(l):
        return jnp.where(l == 0.0, 1.0, 1.0 / l)


    def loss(l):
        return jnp.sum(_normalise(l))


    g = jax.grad(loss)
    """
    assert _found(src, code="JAX120") == [
        ("JAX120", 42, 37, _where_nan("1.0 / l", "l == 0.0", "l", "true")),
    ]


def _singular_at(op: str, key: str) -> str:
    """Where JAX120's message says the masked function's derivative is infinite/NaN:
    `log` and a division at 0 only, `sqrt` at 0 and below (jax 0.10.2)."""
    return f"where `{key}` is 0 or negative" if "sqrt" in op else f"where `{key}` is 0"
