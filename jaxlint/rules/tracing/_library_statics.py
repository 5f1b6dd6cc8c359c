"""Arguments JAX's own functions need as Python values, given a tracer: one matcher, two codes.

`model/static_args.py` (derived from the installed JAX) says, for each public function,
which arguments JAX needs as Python values and what it raises when one is traced.  Where
the argument is a static argument of JAX's own `jit` (the error is "Non-hashable static
arguments are not supported"), a tracer there is a tracer in a static position: JAX207.
Every other error (a size, an `__index__`, a primitive parameter, a concretization) is a
tracer converted to a Python value: JAX202.  Both rules ask this module, each for its half.
"""

from __future__ import annotations

from typing import Iterator, Optional

import libcst as cst

from jaxlint.model import apis
from jaxlint.model.walk import arg_at, keyword_arg, literal_ints, literal_strs

# the error keys of `model/static_args.py` that mean "a static argument of JAX's own jit"
STATIC_POSITION_ERRORS = frozenset({"UNHASHABLE"})


def short(q: str) -> str:
    return q.replace("jax.numpy.", "jnp.").replace("jax.lax.", "lax.")


def in_static_position(error: Optional[str]) -> bool:
    """True for the entries JAX207 reports, False for JAX202's (sizes have no error key)."""
    return error in STATIC_POSITION_ERRORS


def direct_findings(ctx, node: cst.Call, q: str, static_position: bool) -> Optional[tuple[cst.CSTNode, str]]:
    """`jnp.linalg.matrix_power(F, n)`, `jnp.roll(x, 1, axis=a)` with a traced `n`/`a`
    in traced code: the first traced argument of the half asked for (``static_position``)
    and its message, else None."""
    for pos, kw, error in apis.static_args(q):
        if in_static_position(error) != static_position:
            continue
        arg = arg_at(node, pos, kw)
        if arg is None:
            continue
        parts = [el.value for el in arg.elements] if isinstance(arg, (cst.Tuple, cst.List)) else [arg]
        # one level of nesting: `lax.pad(x, 0, [(n, 0, 0)])`'s padding triples
        parts = [q for p in parts for q in ([el.value for el in p.elements] if isinstance(p, (cst.Tuple, cst.List)) else [p])]
        for p in parts:
            if not ctx.is_traced(p):
                continue
            v = ctx.value(p)
            unit = ctx.unit
            if unit is not None and v.deps and all(
                    (pi := unit.param(d)) is not None and pi.has_literal_default for d in v.deps):
                return None  # `def f(x, axis=-1)` jitted whole: callers leave the default
            return p, (
                f"`{kw}` of `{short(q)}` must be a Python value (JAX compiles it into the "
                f"computation), but it is traced: {ctx.describe_origin(v)}; this raises "
                f"{apis.static_arg_error(error)}. Compute it from Python values (constants, shapes){ctx.static_hint(v)}"
            )
    return None


def bound_transform(ctx, name: cst.Name) -> Optional[cst.Call]:
    """`f = jax.jit(jax.nn.one_hot)` bound once in this function or an enclosing
    scope (the module too): the `jax.jit(...)` call, else None."""
    u = ctx.unit
    while u is not None:
        binds = u.bindings.get(name.value)
        if binds:
            if len(binds) != 1:
                return None
            value = binds[0][1]
            if isinstance(value, cst.Call) and value.args:
                return value
            return None
        u = u.parent
    return None


def transformed_finding(ctx, node: cst.Call, inner: cst.Call, static_position: bool) -> Optional[tuple[cst.CSTNode, str]]:
    """`jax.jit(jax.nn.one_hot)(x, 5)`, `jax.jit(jnp.linalg.norm)(x, ord=1)`: the
    transformation traces every argument it is not told is static, so a size or a static
    argument of JAX's function becomes a tracer.  The first such argument of the half
    asked for and its message, else None."""
    t = apis.transform_for(ctx.qualname(inner.func))
    if (t is None or not t.traces or not t.wrapper or t.filtered or t.static_argnums_kw is None
            or not inner.args or inner.args[0].keyword is not None
            or any(a.star for a in (*node.args, *inner.args))):
        return None  # only a jit-like wrapper with static_argnums traces every other argument
    fq = ctx.qualname(inner.args[0].value)
    if fq is None:
        return None
    entries = [(pos, kw, error) for pos, kw, error in apis.static_args(fq) if in_static_position(error) == static_position]
    if not static_position:
        entries = [(pos, kw, None) for pos, kw in apis.size_args(fq)] + entries
    if not entries:
        return None
    static_pos: set[int] = set()
    static_names: set[str] = set()
    for a in inner.args[1:]:
        if a.keyword is None:
            continue
        if a.keyword.value == t.static_argnums_kw:
            ints = literal_ints(a.value)
            if ints is None or any(i < 0 for i in ints):
                return None  # computed, or counted from the end of the signature: cannot tell
            static_pos.update(ints)
        elif t.static_argnames_kw is not None and a.keyword.value == t.static_argnames_kw:
            strs = literal_strs(a.value)
            if strs is None:
                return None
            static_names.update(strs)
    for pos, kw, static_error in entries:
        arg = arg_at(node, pos, kw)
        if arg is None or pos in static_pos or kw in static_names:
            continue
        if isinstance(arg, cst.Name) and arg.value == "None":
            continue
        if static_error is not None:
            error = apis.static_arg_error(static_error)
        else:
            error = apis.SIZE_ARG_ERRORS.get(fq, "TypeError: Shapes must be 1D sequences of concrete values")
        by_name = pos is None or keyword_arg(node, kw) is not None
        where = f"static_argnames='{kw}'" if by_name else f"static_argnums={pos}"
        fn = ctx.code(inner.args[0].value).strip()
        return arg, (
            f"`{ctx.code(inner).strip()}` traces every argument it is not told is static, so "
            f"`{kw}` of `{short(fq)}` (here `{ctx.code(arg).strip()}`) becomes a tracer; "
            f"{'a size must be concrete' if static_error is None else 'it must be a Python value'} ({error}). "
            f"Mark it static (`{ctx.code(inner.func).strip()}({fn}, {where})`), or bind it first: "
            f"`functools.partial({fn}, {kw}=...)`"
        )
    return None


def call_findings(ctx, node: cst.Call, static_position: bool) -> Iterator[tuple[cst.CSTNode, str]]:
    """JAX207's entry: the static-position half for a call, whichever way it reaches JAX's
    function (directly in traced code, or through a transformation of it)."""
    if ctx.concrete_tracers:
        return  # differentiated without jit: the values are concrete (JAX202's concern)
    func = node.func
    inner: Optional[cst.Call] = None
    if isinstance(func, cst.Name):
        inner = bound_transform(ctx, func)
    elif isinstance(func, cst.Call):
        inner = func
    if inner is not None:
        found = transformed_finding(ctx, node, inner, static_position)
        if found is not None:
            yield found
        return
    if not isinstance(func, cst.Attribute):
        return
    q = ctx.qualname(func)
    if q is None or q in apis.AXIS_FUNCTIONS:
        return
    found = direct_findings(ctx, node, q, static_position)
    if found is not None:
        yield found
