"""Mechanisms the lead added in the round of batch 19 (2026-11-28).

Functions listed for a loop that transforms each (``for clip in (clip_v1, clip_v2):
jax.jit(clip)(x)``; ``fns = [a, b]`` then ``for fn in fns: jax.vmap(fn)(...)``): each
listed function is traced (case 1954's class).  Checked with jax 0.10.2: ``clip_first`` and
``relu_first`` raise TracerBoolConversionError; ``clip_rank`` and ``scale`` (shape tests)
run, and so does the loop whose variable is rebound (``fn = jax.named_call(fn)``), eager.

The branches of ``lax.switch`` given as a name bound once to a list or tuple of
functions (``func_list = [func_0, func_1]`` at module level, ``branches = (low, high)``
in the caller): each is traced by the switch (case 1941's class).  Checked with jax
0.10.2: ``grad`` of the switch over ``func_list`` and ``pick`` raise
TracerBoolConversionError; ``fixed`` (``&`` of the comparisons) and ``pick_rebound`` run.

A tracer stored in a ``global`` or escaping ``nonlocal`` name by a function differentiated
outside jit (``jax.grad(loss)``, ``jax.jvp(inner, ...)``) leaks as under jit (case 1923's
class): checked with jax 0.10.2, the later use raises UnexpectedTracerError; the VALID
twins (``stop_gradient`` of the value, a Python counter) run.

A function a helper differentiates outside jit (``def fit(loss_fn, w): return
jax.grad(loss_fn)(w)``; ``def D(f, x): return jax.jvp(f, (x,), (1.0,))[1]``) is
differentiated when a caller passes it, as for the tracing transformations; and a
helper's parameter shadows a module-level function of the same name (``D``'s ``f``,
``apply_jit``'s ``step``): that module-level function is not what the transformation gets
(before, it was marked differentiated or jitted: false findings at ``f`` and ``step``, and
the functions really passed were missed).  Checked with jax 0.10.2: ``fit(loss)`` and
``D(sq)`` raise ConcretizationTypeError, ``apply_jit(relu)`` TracerBoolConversionError;
``f(2.0)`` and ``step(2.0)`` run.

Python's reducing builtins over traced elements: ``sum(jnp.add(1, 1) for _ in range(n))``
in a jitted function is a tracer (every `jax.numpy` result is one there, constants
included), so ``assert result > 0`` raises TracerBoolConversionError; so does
``min([jnp.min(x) for x in xs])`` under ``jax.vmap``.  Checked with jax 0.10.2 on CPU:
both raise; the VALID twins (sizes of the leaves, static under jit; the same sum run
eagerly) run.
"""

from tests.project_files import lint_files

REDUCE = '''\
import jax
import jax.numpy as jnp


@jax.jit
def f():
    result = sum(jnp.add(1, 1) for _ in range(3))
    assert result > 0
    return result


def smallest(xs):
    low = min([jnp.min(x) for x in xs])
    if low < 0:
        return 0.0
    return low


@jax.jit
def g(x):
    n = sum(leaf.size for leaf in jax.tree_util.tree_leaves(x))
    if n > 3:
        return x
    return -x


def h(xs):
    total = sum(jnp.sum(x) for x in xs)
    if total > 0:
        return total
    return -total


if __name__ == "__main__":
    batched = jax.vmap(smallest)
    print(f(), batched([jnp.ones(2)]), g(jnp.ones(4)), h([jnp.ones(2)]))
'''


def test_reducing_builtins_over_traced_elements(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"red.py": REDUCE}, select="JAX201") == [
        ("JAX201", "red.py", 8, 12,
         "Python `assert` on a traced value: it is computed by JAX inside `f` (decorated with @jax.jit); this raises "
         "TracerBoolConversionError. Use `jax.experimental.checkify.check`, or assert on shapes/dtypes only"),
        ("JAX201", "red.py", 14, 8,
         "Python `if` on a traced value: it depends on the traced argument `xs` of `smallest` (wrapped by jax.vmap); "
         "this raises "
         "TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
    ]


LOOP_MAIN = 'import jax\nimport jax.numpy as jnp\n\nfrom ops.clip import clip_first, clip_rank\n\n\ndef relu_first(x):\n    if x[0] > 0:\n        return x\n    return -x\n\n\ndef scale(x):\n    if x.shape[0] > 2:\n        return x * 2\n    return x\n\n\ndef run(x):\n    fns = [relu_first, scale]\n    for fn in fns:\n        print(jax.vmap(fn)(jnp.stack([x, x])))\n\n\ndef wrapped(x):\n    for fn in (relu_first, scale):\n        fn = jax.named_call(fn)\n        print(fn(x))\n\n\nif __name__ == "__main__":\n    x = jnp.array([-1.0, 2.0, 3.0])\n    for clip in (clip_first, clip_rank):\n        try:\n            print(jax.jit(clip)(x))\n        except jax.errors.TracerBoolConversionError as e:\n            print(clip.__name__, "TracerBoolConversionError")\n    try:\n        run(x)\n    except jax.errors.TracerBoolConversionError:\n        print("run TracerBoolConversionError")\n    wrapped(x)\n'
LOOP_CLIP = 'def clip_first(x):\n    if x[0] < 0:\n        return x.at[0].set(0)\n    return x\n\n\ndef clip_rank(x):\n    if x.ndim > 1:\n        return x.reshape(-1)\n    return x\n'


def test_functions_listed_for_a_transforming_loop(tmp_path, monkeypatch):
    files = {"main.py": LOOP_MAIN, "ops/__init__.py": "", "ops/clip.py": LOOP_CLIP}
    assert lint_files(tmp_path, monkeypatch, files, select="JAX201") == [
        ("JAX201", "main.py", 8, 8,
         "Python `if` on a traced value: it depends on the traced argument `x` of `relu_first` (wrapped by jax.vmap); "
         "this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
        ("JAX201", "ops/clip.py", 2, 8,
         "Python `if` on a traced value: it depends on the traced argument `x` of `clip_first` (wrapped by jax.jit in "
         "main.py); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`; or, if `x` is a Python "
         "value, mark it static (static_argnums=0)"),
    ]


SWITCH_MAIN = 'import jax\nimport jax.numpy as jnp\nfrom jax import lax\n\nfrom pw import func, fixed\n\n\ndef low(x):\n    if x < 0:\n        return -x\n    return x\n\n\ndef high(x):\n    return jnp.minimum(x, 1.0)\n\n\ndef pick(i, x):\n    branches = (low, high)\n    return lax.switch(i, branches, x)\n\n\ndef pick_rebound(i, x):\n    branches = (high, high)\n    branches = (low, high) if x is None else branches\n    return lax.switch(i, branches, x)\n\n\nif __name__ == "__main__":\n    for f in (lambda: jax.grad(func, argnums=1)(1, 0.5), lambda: pick(0, 0.5)):\n        try:\n            print(f())\n        except jax.errors.TracerBoolConversionError:\n            print("TracerBoolConversionError")\n    print(jax.grad(fixed, argnums=1)(1, 0.5), pick_rebound(0, 0.5))\n'
SWITCH_BRANCHES = 'from jax.lax import switch\nimport jax.numpy as jnp\n\nfunc_0 = lambda x: jnp.where(0. < x < 1., x, 0.)\nfunc_1 = lambda x: jnp.where((0. < x) & (x < 1.), x, 1.)\nfunc_list = [func_0, func_1]\nfunc = lambda index, x: switch(index, func_list, x)\n\nok_0 = lambda x: jnp.where((0. < x) & (x < 1.), x, 0.)\nok_list = [ok_0, ok_0]\nfixed = lambda index, x: switch(index, ok_list, x)\n'


def test_switch_branches_bound_to_a_name(tmp_path, monkeypatch):
    files = {"main.py": SWITCH_MAIN, "pw/__init__.py": 'from pw.branches import func, fixed\n', "pw/branches.py": SWITCH_BRANCHES}
    assert lint_files(tmp_path, monkeypatch, files, select="JAX201") == [
        ("JAX201", "main.py", 9, 8,
         "Python `if` on a traced value: it depends on the traced argument `x` of `low` (a body passed to "
         "lax.switch); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
        ("JAX201", "pw/branches.py", 4, 30,
         "A chained comparison converts `0. < x` to a Python bool before it compares again (it is `(0. < x) and "
         "(...)`), but it is traced: it depends on the traced argument `x` of `<lambda>` (a body passed to "
         "lax.switch); this raises TracerBoolConversionError. Compare each pair and combine them with `&`: "
         "`(0. < x) & (...)`"),
    ]


LEAK = 'import jax\nimport jax.numpy as jnp\n\nlast = None\ncalls = 0\n\n\ndef loss(w):\n    global last\n    last = w * 2\n    return jnp.sum(w ** 2)\n\n\ndef loss_logged(w):\n    global last, calls\n    calls += 1\n    last = jax.lax.stop_gradient(w)\n    return jnp.sum(w ** 2)\n\n\ndef tangent_of(f, x):\n    return jax.jvp(f, (x,), (1.0,))[1]\n\n\ndef scaled(x):\n    def inner(y):\n        nonlocal x\n        x = y * 2\n        return x\n    return jax.jvp(inner, (x,), (1.0,))[1] * x\n\n\ndef counted(x):\n    n = 0\n\n    def inner(y):\n        nonlocal n\n        n = n + 1\n        return y * 2\n    return jax.jvp(inner, (x,), (1.0,))[1] + n\n\n\nif __name__ == "__main__":\n    print(jax.grad(loss)(1.0))\n    try:\n        print(last + 1)\n    except jax.errors.UnexpectedTracerError:\n        print("UnexpectedTracerError")\n    print(jax.grad(loss_logged)(1.0), last + 1, calls)\n    try:\n        print(scaled(1.0) + 0)\n    except jax.errors.UnexpectedTracerError:\n        print("UnexpectedTracerError")\n    print(counted(1.0))\n'


def test_tracer_stored_outside_a_function_differentiated_outside_jit(tmp_path, monkeypatch):
    tail = ("leaks the tracer of the derivative out of the differentiation; using it afterwards raises "
            "UnexpectedTracerError. Return the value instead")
    assert lint_files(tmp_path, monkeypatch, {"leak.py": LEAK}, select="JAX402") == [
        ("JAX402", "leak.py", 10, 5, "`last` is global: assigning it a traced value inside `loss` " + tail),
        ("JAX402", "leak.py", 28, 9, "`x` is nonlocal: assigning it a traced value inside `inner` " + tail),
    ]


PAD_MIXED = '''\
import jax
import jax.numpy as jnp


def pad_time(mask, explicit_padding):
    return jnp.pad(mask, [(0, 0), explicit_padding])


@jax.jit
def pad_traced(x, n):
    return jnp.pad(x, [(0, 0), (n, 0)])


print(pad_time(jnp.ones((2, 3)), (1, 1)), pad_traced(jnp.ones((2, 3)), 1))
'''


def test_pad_widths_mixing_a_tuple_and_a_name(tmp_path, monkeypatch):
    # sequence-layers' convolution_test.py: `jnp.pad(mask, [(0, 0), explicit_padding])` made
    # the size check read `.elements` of a name (an internal error: the file went unchecked);
    # the traced width of `pad_traced` is still reported (jax 0.10.2: ConcretizationTypeError)
    found = lint_files(tmp_path, monkeypatch, {"pad.py": PAD_MIXED}, select="JAX202")
    assert [(c, p, r, col) for c, p, r, col, _ in found] == [("JAX202", "pad.py", 11, 33)]


HELPER_GRAD = 'import jax\n\n\ndef loss(w):\n    return float(w) * w\n\n\ndef f(x):\n    return float(x) + 1.0\n\n\ndef fit(loss_fn, w):\n    return jax.grad(loss_fn)(w)\n\n\ndef D(f, x):\n    return jax.jvp(f, (x,), (1.0,))[1]\n\n\ndef sq(y):\n    return float(y) * y\n\n\nif __name__ == "__main__":\n    print(f(2.0))\n    for run in (lambda: fit(loss, 1.0), lambda: D(sq, 1.0)):\n        try:\n            print(run())\n        except jax.errors.ConcretizationTypeError:\n            print("ConcretizationTypeError")\n'
HELPER_JIT = 'import jax\n\n\ndef step(x):\n    if x > 0:\n        return x\n    return -x\n\n\ndef apply_jit(step, x):\n    return jax.jit(step)(x)\n\n\ndef relu(v):\n    if v > 0:\n        return v\n    return 0.0\n\n\nif __name__ == "__main__":\n    print(step(2.0))\n    try:\n        print(apply_jit(relu, 1.0))\n    except jax.errors.TracerBoolConversionError:\n        print("TracerBoolConversionError")\n'


def test_helper_parameters_differentiated_and_shadowing(tmp_path, monkeypatch):
    conv = ("JAX refuses to turn a tracer that carries a derivative into a Python number, even outside jit "
            "(ConcretizationTypeError). Keep it as an array (`x.astype(jnp.float32)`), or use "
            "`jax.lax.stop_gradient` / convert the result outside the differentiated function")
    found = lint_files(tmp_path, monkeypatch, {"hd.py": HELPER_GRAD, "hj.py": HELPER_JIT}, select="JAX201,JAX202")
    assert found == [
        ("JAX201", "hj.py", 15, 8,
         "Python `if` on a traced value: it depends on the traced argument `v` of `relu` (wrapped by jax.jit); this "
         "raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`; or, if `v` is a Python value, mark "
         "it static (static_argnums=0)"),
        ("JAX202", "hd.py", 5, 12,
         "`float()` of a value being differentiated: it depends on the traced argument `w` of `loss` "
         "(differentiated by jax.grad); " + conv),
        ("JAX202", "hd.py", 21, 12,
         "`float()` of a value being differentiated: it depends on the traced argument `y` of `sq` "
         "(differentiated by jax.jvp); " + conv),
    ]
