"""False findings read on real code (fresh set 21), each removed by a change to the
model's mechanism, with the twins that must stay reported.  Snippets written here
in the shape of the mechanism (several shapes each), not copied from the code read."""

from __future__ import annotations

import textwrap

from jaxlint.lint.linter import lint_source
from jaxlint.settings import LintSettings
from jaxlint.workspace.ruleinfo import load_rule_infos

_ALL = frozenset(r.code for r in load_rule_infos())


def _found(src: str, path: str = "pkg/mod.py", code: str | None = None) -> list[tuple[str, int, int, str]]:
    result = lint_source(textwrap.dedent(src), path, LintSettings(select=_ALL))
    return [(f.code, f.line, f.col, f.message) for f in result.findings if code is None or f.code == code]


def _held(dotted: str, first: str, first_how: str, line: int, method: str, how: str) -> str:
    return (f"`{dotted}` is the key the object holds for its life: `{first}` consumed it with "
            f"`{first_how}` on line {line} and `{method}` draws from it again with `{how}`; no method "
            f"gives the object a new key, so both get the same random bits. Split it where it is used "
            f"(`{dotted}, sub = jax.random.split({dotted})`) and draw with `sub`")


# --- 1. JAX301: a key type, whose methods are alternatives a caller picks ---
# (the mechanism: a class holding one key for its life, two of its methods drawing
# from it, was reported as an object whose methods all run on one key; a class whose
# method returns a new instance of itself around a key split or folded from the one it
# holds is a key type, like JAX's own keys: `k.split()` or `k.as_seed()` is the
# caller's choice, and a reuse would be the caller's)

def test_a_key_type_returning_new_instances_is_not_an_object_drawing_twice() -> None:
    src = """\
    import jax


    class Key:
        def __init__(self, seed):
            self.raw = jax.random.PRNGKey(seed)

        def split(self, n=2):
            return Key(jax.random.split(self.raw, n))

        def seed(self):
            return int(jax.random.randint(self.raw, (), 0, 2**31 - 1))


    class Stream:
        def __init__(self, key):
            self._key = key

        def derive(self, data):
            return type(self)(jax.random.fold_in(self._key, data))

        def normal(self, shape):
            return jax.random.normal(self._key, shape)


    @jax.tree_util.register_pytree_node_class
    class KeyBox:
        def __init__(self, key):
            self.key = key

        def split(self, n=2):
            return KeyBox(jax.random.split(self.key, n))

        def as_seed(self):
            return int(jax.random.bits(self.key)) % 1000

        def tree_flatten(self):
            return [self.key], None

        @classmethod
        def tree_unflatten(cls, aux, leaves):
            return cls(*leaves)
    """
    assert _found(src, code="JAX301") == []


def test_an_object_drawing_twice_from_its_key_stays_reported() -> None:
    # the twins: no method hands out a new instance around a derived key (one returns
    # an array; one builds another class), so the object draws twice
    src = """\
    import jax


    class Sampler:
        def __init__(self, seed):
            self.raw = jax.random.PRNGKey(seed)

        def split(self, n=2):
            return jax.random.split(self.raw, n)

        def seed(self):
            return int(jax.random.randint(self.raw, (), 0, 2**31 - 1))


    class Other:
        def __init__(self, key):
            self.key = key


    class Noise:
        def __init__(self, key):
            self._key = key

        def derive(self, data):
            return Other(jax.random.fold_in(self._key, data))

        def normal(self, shape):
            return jax.random.normal(self._key, shape)


    @jax.tree_util.register_pytree_node_class
    class Box:
        def __init__(self, key):
            self.key = key

        def split(self, n=2):
            return jax.random.split(self.key, n)

        def as_seed(self):
            return int(jax.random.bits(self.key)) % 1000

        def tree_flatten(self):
            return [self.key], None

        @classmethod
        def tree_unflatten(cls, aux, leaves):
            return cls(*leaves)
    """
    never = ("`{0}` is set only when the object is built and `{1}` draws from it with `random.{2}` without "
             "replacing it, so every call of `{1}` draws the same random numbers. Split it in the method "
             "(`{0}, sub = jax.random.split({0})`) and draw with `sub`")
    assert _found(src, code="JAX301") == [
        ("JAX301", 9, 16, never.format("self.raw", "split", "split")),
        ("JAX301", 28, 16, never.format("self._key", "normal", "normal")),
        ("JAX301", 40, 20, _held("self.key", "split", "random.split", 37, "as_seed", "random.bits")),
    ]


def _axis(fn: str, param: str, method: str, cls: str) -> str:
    return (f"The axis passed to `{fn}` is traced: it depends on the traced argument `{param}` of `{method}` "
            f"(a method of the module class {cls}); an axis must be a Python int, so this raises "
            f"ConcretizationTypeError. Instead, pass a fixed axis")


def _if(param: str, method: str, cls: str) -> str:
    return (f"Python `if` on a traced value: it depends on the traced argument `{param}` of `{method}` "
            f"(a method of the module class {cls}); this raises TracerBoolConversionError. Use "
            f"`jax.lax.cond` or `jnp.where`")


# --- 2. JAX201/JAX202: a module method's parameter annotated with a `|` union ---
# (the mechanism: the parameters of a flax/equinox module's method are taken as traced
# arrays when annotated as arrays or left unannotated; an annotation written as a PEP 604
# union (`shared_axes: None | Sequence[int]`) was not read at all, so the parameter
# counted as unannotated, hence traced. A union is read through its one member other
# than None, else its array member, else it is an annotation the model does not read:
# no array is assumed)

def test_a_union_annotation_of_python_values_is_not_a_traced_array() -> None:
    src = """\
    from typing import Sequence

    import equinox as eqx
    import flax.linen as nn
    import jax
    import jax.numpy as jnp


    class Calib(nn.Module):
        def get_bound(self, x: jnp.ndarray, shared_axes: None | Sequence[int]) -> jnp.ndarray:
            return jnp.max(jnp.abs(x), axis=shared_axes, keepdims=True)

        def scale(self, x: jnp.ndarray, shared_axes: None | Sequence[int]):
            return self.get_bound(x, shared_axes) / 127.0


    class Pool(eqx.Module):
        def __call__(self, x: jax.Array, axis: int | None, width: "int | None"):
            if axis is None:
                axis = -1
            return jnp.sum(x, axis=axis) / jnp.ones((width,)).sum()


    class Clip(nn.Module):
        def __call__(self, x: jax.Array | None, limit: float | int):
            if limit > 1.0:
                return jnp.clip(x, -limit, limit)
            return x
    """
    assert _found(src) == []


def test_unannotated_and_array_union_parameters_stay_traced() -> None:
    # the twins: the same axis unannotated, and unions holding an array type
    src = """\
    import flax.linen as nn
    import jax
    import jax.numpy as jnp


    class Calib(nn.Module):
        def get_bound(self, x, shared_axes):
            return jnp.max(jnp.abs(x), axis=shared_axes, keepdims=True)


    class Gate(nn.Module):
        def __call__(self, x: jax.Array | None, scale: float | jax.Array):
            if x.sum() > 0:
                return x * scale
            if scale > 1.0:
                return x
            return -x
    """
    assert _found(src) == [
        ("JAX202", 8, 41, _axis("jnp.max", "shared_axes", "get_bound", "Calib")),
        ("JAX201", 13, 12, _if("x", "__call__", "Gate")),
        ("JAX201", 15, 12, _if("scale", "__call__", "Gate")),
    ]


_LOOP = ("compiles again on every iteration of the loop: jit caches per function object and this one is new "
         "each time. Create the jitted function once (outside the loop or at module level) and pass the "
         "varying values as arguments")


# --- 3. JAX501: each iteration jits another computation ---
# (the mechanism: a jit built in a loop is not a recompile when each iteration gives the
# function its own static configuration from the loop's item; that was known for a bool,
# string or None of a literal list bound by `partial`, not for one read by a closure, nor
# one taken from a literal argument of `zip`, nor for the `argnums` of a derivative: each
# is another computation that no argument of one jitted function could carry)

def test_a_jit_per_static_loop_item_is_another_computation() -> None:
    src = """\
    import jax
    import jax.numpy as jnp


    def loss(a, x, implicit):
        if implicit:
            return jnp.sum(a * x)
        return jnp.sum(a * x) ** 2


    def compare(a, x):
        for imp, label in zip((False, True), ("unrolled", "implicit")):
            hess = jax.jit(jax.hessian(lambda a, x: loss(a, x, imp)))
            print(label, hess(a, x), hess(a, x))
        for arg in [0, 1]:
            h = jax.jit(jax.jacrev(loss, argnums=arg), static_argnums=2)
            print(h(a, x, True), h(a, x, False))
        for norm in ["l1", "l2"]:
            def size(v):
                return jnp.sum(jnp.abs(v)) if norm == "l1" else jnp.sqrt(jnp.sum(v * v))
            g = jax.jit(jax.grad(size))
            print(g(a), g(x))
    """
    assert _found(src, code="JAX501") == []


def test_a_jit_per_number_or_unknown_item_stays_reported() -> None:
    # the twins: a number the closure reads could be an argument; an iterable the model
    # cannot read; a derivative that does not depend on the item
    src = """\
    import jax
    import jax.numpy as jnp


    def loss(a, x, scale):
        return jnp.sum(a * x) * scale


    def compare(a, x, get_flags):
        for scale, label in zip((0.5, 2.0), ("half", "double")):
            hess = jax.jit(jax.hessian(lambda a, x: loss(a, x, scale)))
            print(label, hess(a, x))
        for imp, label in zip(get_flags(), ("u", "i")):
            g = jax.jit(lambda a: loss(a, x, imp))
            print(label, g(a))
        for arg in [0, 1]:
            h = jax.jit(jax.hessian(loss))
            print(arg, h(a, x, 1.0))
    """
    assert _found(src, code="JAX501") == [
        ("JAX501", 11, 16, "`jit` of the result of `hessian(...)` " + _LOOP),
        ("JAX501", 14, 13, "`jit` of a `lambda` " + _LOOP),
        ("JAX501", 17, 13, "`jit` of the result of `hessian(...)` " + _LOOP),
    ]


# --- 4. JAX301: a key-like parameter held as an array through its annotation ---
# (reading `rng_key: Array | None = None` as an array annotation must not hide a key a
# tree map's function captures: a raw key is a `uint32` array, and a key-like parameter
# held as an array only through its annotation is still the key drawn again per leaf)

def test_a_key_annotated_as_an_array_captured_by_a_tree_map_stays_reported() -> None:
    src = """\
    import jax
    import jax.numpy as jnp
    from jaxtyping import Array


    def sample(tree, rng_key: Array | None = None):
        return jax.tree.map(lambda x: jax.random.categorical(rng_key, x), tree)


    def jitter(params, key: jax.Array):
        return jax.tree_util.tree_map(lambda p: p + jax.random.normal(key, p.shape), params)


    def shift(params, offset: jax.Array | None = None):
        return jax.tree.map(lambda p: p + offset, params)
    """
    msg = ("`{0}` comes from the enclosing scope and is consumed by `random.{1}` in the function, which "
           "`{2}` calls once for every element (line {3}): every element draws the same random numbers. "
           "Give the function a key parameter and map a fresh key with each element "
           "(`jax.random.split({0}, n)`, unflattened into the tree's structure for a tree map)")
    assert _found(src, code="JAX301") == [
        ("JAX301", 7, 35, msg.format("rng_key", "categorical", "jax.tree.map", 7)),
        ("JAX301", 11, 49, msg.format("key", "normal", "jax.tree_util.tree_map", 11)),
    ]
