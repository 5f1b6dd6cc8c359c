"""Shapes of a function's parameters, given by every call of it in this file.

``update(params, obs)`` and ``jax.jit(update)(params, obs)`` with ``params =
jnp.ones((10,))`` and ``obs = jnp.ones((4, 10))`` give ``update``'s parameters those
shapes, and ``jax.grad(loss)(params, obs)`` inside it gives them to ``loss``: a function
sees the shapes its callers pass when **every** use of its name in the file is such a
call (jit/grad/value_and_grad/checkpoint/jacfwd/jacrev/hessian applied at once keep the
arguments' shapes; ``jax.vmap(f, in_axes)(xs)`` gives each argument's shape without its
mapped axis, the whole of a ``None`` one, when ``in_axes`` is a literal), every call passes the same
known shape, and no other module uses it other than by such calls (their shapes come as
the call facts' ``shapes``: ``jax.value_and_grad(losses.loss)(params, obs)`` in a jitted
step of another module gives ``loss`` its shapes; a fact without shapes, or a module that
uses the name otherwise, leaves them unknown).  A lambda bound once to a jitted
name (``f = jax.jit(lambda a: ...)``) counts through that name, so does a function
called through a name one scope binds once to a shape-keeping transformation of it
(``fast = jax.jit(step)``, ``update = jax.jit(write, donate_argnums=0)`` in ``main``)
when every read of that name there is such a call and the function's own name is read
only there and in its direct calls; and so do the stages that
trace a function with the arguments they are given: ``jax.jit(f).lower(x, u)``,
``.trace(...)``, ``.eval_shape(...)``, ``jax.eval_shape(f, x, u)``,
``jax.make_jaxpr(f)(x)``.  Anything else leaves
the parameter's shape unknown (rules that need a shape stay quiet).
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.model import apis
from jaxlint.model import values as V
from jaxlint.model.units import Unit
from jaxlint.model.walk import assigned_in, int_value, positional_args
from jaxlint.model.walk import children as _children

# transformations whose function receives the arguments as they are given
KEEP_SHAPES = frozenset({
    "jax.jit", "jax.grad", "jax.value_and_grad", "jax.checkpoint", "jax.remat",
    "jax.jacfwd", "jax.jacrev", "jax.hessian", "jax.make_jaxpr",
})
# a jitted function's ahead-of-time stages trace it with the arguments they are given
# (``jax.jit(f).lower(x, update)``, ``.trace(...)``, ``.eval_shape(...)``); so does
# ``jax.eval_shape(f, x, update)``
_STAGES = frozenset({"lower", "trace", "eval_shape"})
_STAGED_JITS = frozenset({"jax.jit", "jax.pjit", "jax.experimental.pjit.pjit"})


def _function(ctx, name: str) -> Optional[Unit]:
    """The plain function or lambda of this file that ``name`` calls: a def, or a name
    bound once to a lambda or to a shape-keeping transformation of one."""
    v = ctx.lookup(name)
    if v is not None and v.unit is not None:
        return v.unit
    if v is None:
        u = ctx.unit.lookup_def(name)
        if u is not None:
            return u
    found = ctx.unit.binding_for(name, 1 << 30)
    if found is None:
        return None
    holder, (_, value) = found
    if len(holder.bindings.get(name, ())) != 1 or type(value) is not cst.Call:
        return None
    if ctx.qualname(value.func) not in KEEP_SHAPES or any(a.star for a in value.args):
        return None
    pos = positional_args(value)
    if len(pos) != 1:
        return None
    if type(pos[0].value) is cst.Name:
        # `fast = jax.jit(step)`: the calls of `fast` are calls of `step` (its name, read in
        # the scope that binds `fast`)
        unit = holder.lookup_def(pos[0].value.value)
        if unit is None or type(unit.node) is not cst.FunctionDef or unit.cls is not None:
            return None
        return unit
    if type(pos[0].value) is not cst.Lambda:
        return None
    return ctx.index.unit_of.get(id(pos[0].value))


def note(ctx, call: cst.Call) -> None:
    """Record the shapes ``call`` passes to the function of this file it calls."""
    func = call.func
    args = call.args
    mapped = None
    if type(func) is cst.Attribute and func.attr.value in _STAGES and type(func.value) is cst.Call \
            and ctx.qualname(func.value.func) in _STAGED_JITS:
        func = func.value  # `jax.jit(f).lower(x, u)`: `f` is traced with `x`, `u`
    if type(func) in (cst.Name, cst.Attribute) and ctx.qualname(func) == "jax.eval_shape":
        # `jax.eval_shape(f, x, u)`: `f` is traced with `x`, `u`
        if not args or args[0].keyword is not None or args[0].star or type(args[0].value) is not cst.Name:
            return
        via = args[0].value.value
        args = args[1:]
    elif type(func) is cst.Name:
        via = func.value
    elif type(func) is cst.Call and ctx.qualname(func.func) in KEEP_SHAPES:
        pos = positional_args(func)
        if len(pos) != 1 or type(pos[0].value) is not cst.Name or any(a.star for a in func.args):
            return
        via = pos[0].value.value
    elif type(func) is cst.Call and ctx.qualname(func.func) == "jax.vmap":
        # `jax.vmap(f, in_axes=...)(xs)`: `f` sees each argument without its mapped axis
        pos = positional_args(func)
        if not pos or type(pos[0].value) is not cst.Name or any(a.star for a in func.args):
            return
        via = pos[0].value.value
        mapped = _in_axes(func, len(args))
    else:
        return
    unit = _function(ctx, via)
    if unit is None or unit.cls is not None or type(unit.node) not in (cst.FunctionDef, cst.Lambda):
        return
    if id(call) in unit.shape_sites:
        return
    shapes: dict[str, Optional[tuple]] = {p.name: None for p in unit.params}
    vmapped = type(func) is cst.Call and ctx.qualname(func.func) == "jax.vmap"
    if not any(a.star for a in args):
        positional = unit.positional()
        i = 0
        for a in args:
            if a.keyword is None:
                name = positional[i].name if i < len(positional) else None
                axis = mapped[i] if vmapped and mapped is not None and i < len(mapped) else "unknown"
                i += 1
            else:
                name = a.keyword.value
                axis = "unknown"  # (vmap maps keyword arguments along axis 0; not followed)
            if name in shapes and not rebound_in_loop(ctx, a.value):
                given = _given(ctx.value(a.value))
                if vmapped:
                    given = _unmapped_shape(given, axis)
                shapes[name] = given
    unit.shape_sites[id(call)] = (via, shapes)


def _in_axes(vmap: cst.Call, n: int) -> Optional[list]:
    """The axis `jax.vmap(f, in_axes)` maps for each of ``n`` positional arguments: an
    integer, None (not mapped), or None for the whole list when `in_axes` is not a literal
    (an int, None, or a tuple/list of those)."""
    axes = None
    for a in vmap.args[1:]:
        if a.keyword is None or a.keyword.value == "in_axes":
            axes = a.value
            break
    if axes is None:
        return [0] * n

    def one(e: cst.BaseExpression):
        if type(e) is cst.Name and e.value == "None":
            return None
        v = int_value(e)
        return "unknown" if v is None else v

    if type(axes) in (cst.Tuple, cst.List):
        out = [one(el.value) for el in axes.elements]
        return out if len(out) == n and "unknown" not in out else None
    v = one(axes)
    return None if v == "unknown" else [v] * n


def _unmapped_shape(given: Optional[tuple], axis) -> Optional[tuple]:
    """What the function vmap calls sees of an argument: its shape without the mapped
    axis (None: the whole argument); unknown for a Python number mapped or an axis out of
    range."""
    if given is None or axis == "unknown":
        return None
    if axis is None:
        return given
    shape = given[0]
    if not given[1] or not isinstance(shape, tuple) or not -len(shape) <= axis < len(shape):
        return None
    axis %= len(shape)
    return (shape[:axis] + shape[axis + 1:],) + tuple(given[1:])


def _given(v: V.Value) -> Optional[tuple]:
    """(shape, a JAX array, (smallest, largest) integer or None) of what a call passes:
    an array of known shape (the integers of one built from literals: ``jnp.array(2)``),
    or a Python integer (shape ``()``)."""
    if v.kind in (V.ARRAY, V.STATIC, V.NPARRAY) and v.shape is not None:
        return (v.shape, v.kind == V.ARRAY, v.int_range)
    if v.kind == V.STATIC and type(v.const) is int:
        return ((), False, (v.const, v.const))
    return None


def call_shapes(ctx, call: cst.Call) -> Optional[dict]:
    """``{"pos": [shape or None...], "kw": {name: shape}}``: the shapes ``call`` passes,
    for the module that defines the function it calls (a call fact); None when it
    passes none known."""
    if any(a.star for a in call.args):
        return None
    pos, kw, known = [], {}, False
    for a in call.args:
        shape = None
        if not rebound_in_loop(ctx, a.value):
            given = _given(ctx.value(a.value))
            if given is not None:
                shape = [list(given[0]), given[1]] + ([list(given[2])] if given[2] is not None else [])
                known = True
        if a.keyword is None:
            pos.append(shape)
        elif shape is not None:
            kw[a.keyword.value] = shape
    return {"pos": pos, "kw": kw} if known else None


def fact_site(unit: Unit, key: object, fact: dict, skip: int = 0) -> bool:
    """Record the shapes a call in another module passes (a fact's ``shapes``); False
    when it tells none (the parameters' shapes are then unknown)."""
    shapes = fact.get("shapes")
    if not isinstance(shapes, dict):
        return False
    given: dict[str, Optional[tuple]] = {p.name: None for p in unit.params}
    positional = unit.positional()[skip:]
    for i, sh in enumerate(shapes.get("pos") or ()):
        if i < len(positional) and sh:
            given[positional[i].name] = _read_given(sh)
    for name, sh in (shapes.get("kw") or {}).items():
        if name in given and sh:
            given[name] = _read_given(sh)
    unit.shape_sites[key] = (FOREIGN, given)
    return True


FOREIGN = "<another module>"


def _read_given(sh: list) -> tuple:
    rng = sh[2] if len(sh) > 2 and isinstance(sh[2], list) and len(sh[2]) == 2 else None
    return (tuple(sh[0]), bool(sh[1]), tuple(rng) if rng is not None else None)


def _names(node: cst.CSTNode) -> list:
    stack, out = [node], []
    while stack:
        n = stack.pop()
        if type(n) is cst.Name:
            out.append(n)
        else:
            stack.extend(_children(n))
    return out


def rebound_in_loop(ctx, arg: cst.CSTNode) -> bool:
    """Does ``arg`` read a name that a loop around the call binds again (its shape
    may change from one iteration to the next)?"""
    if not ctx.loop_stack:
        return False
    read = {n.value for n in _names(arg)}
    memo = ctx.loop_binds
    for frame in ctx.loop_stack:
        key = id(frame.node)
        bound = memo.get(key)
        if bound is None:
            bound = memo[key] = assigned_in(frame.node, defs=True)
        if read & bound:
            return True
    return False


def _name_uses(ctx, name: str) -> int:
    """How many times this file reads ``name`` where it means the module's binding:
    scopes that bind a local of that name (a parameter, an assignment) are left out.
    The text is counted first (a whole-name search); only a name written more often
    than that is looked up in the reads of the one walk (model/arg_shapes.py)."""
    memo = ctx.name_reads
    if name in memo:
        return memo[name]
    reads = memo.get(_READS)
    if reads is None:
        reads = memo[_READS] = _reads(ctx)
    count = 0
    for chain in reads.get(name, ()):
        if not any(name in u.assigned or any(p.name == name for p in u.params) for u in chain
                   if name not in u.global_names):
            count += 1
    memo[name] = count
    return count


_READS = ("reads",)  # the memo's key for the walk's result (no name is a tuple)


def _alias_holder(ctx, name: str, unit: Unit) -> Optional[Unit]:
    """The one scope of the file that binds ``name``, once, to a shape-keeping
    transformation of ``unit`` (``fast = jax.jit(step)``, ``update = jax.jit(write,
    donate_argnums=0)`` in ``main``); None when another scope binds the name too."""
    found = None
    for u in ctx.index.units:
        entries = u.bindings.get(name)
        if not entries:
            continue
        if found is not None or len(entries) != 1:
            return None
        value = entries[0][1]
        if type(value) is not cst.Call or ctx.qualname(value.func) not in KEEP_SHAPES \
                or any(a.star for a in value.args):
            return None
        pos = positional_args(value)
        if len(pos) != 1 or type(pos[0].value) is not cst.Name or u.lookup_def(pos[0].value.value) is not unit:
            return None
        found = u
    return found


def _uses_in(ctx, name: str, holder: Unit) -> int:
    """How many times the file reads (or binds) ``name`` where it means ``holder``'s
    binding: in ``holder`` and the functions inside it that bind no local of that name."""
    if holder.is_module:
        return _name_uses(ctx, name)
    reads = ctx.name_reads.get(_READS)
    if reads is None:
        reads = ctx.name_reads[_READS] = _reads(ctx)
    count = 0
    for chain in reads.get(name, ()):
        at = next((i for i, u in enumerate(chain) if u is holder), None)
        if at is None:
            continue
        inner = chain[at + 1:]
        if not any(name in u.assigned or any(p.name == name for p in u.params) for u in inner
                   if name not in u.global_names):
            count += 1
    return count


def _reads(ctx) -> dict:
    """name -> the chain of function scopes around each place it is read or rebound
    (a def's own name, parameters, attribute names and keywords apart; an import of
    the name counts: it rebinds it)."""
    out: dict[str, list] = {}
    unit_of = ctx.index.unit_of
    stack: list = [(ctx.module, ())]
    while stack:
        n, chain = stack.pop()
        t = type(n)
        if t is cst.Name:
            out.setdefault(n.value, []).append(chain)
            continue
        if t is cst.Attribute:
            stack.append((n.value, chain))
            continue
        if t is cst.Arg:
            stack.append((n.value, chain))
            continue
        if t is cst.Param:
            if n.default is not None:
                stack.append((n.default, chain))
            if n.annotation is not None:
                stack.append((n.annotation, chain))
            continue
        if t in (cst.Import, cst.ImportFrom):
            if not isinstance(n.names, cst.ImportStar):
                for a in n.names:
                    bound = a.asname.name.value if a.asname is not None and isinstance(a.asname.name, cst.Name) \
                        else cst.Module([]).code_for_node(a.name).split(".")[0]
                    out.setdefault(bound, []).append(chain)
            continue
        if t is cst.FunctionDef or t is cst.Lambda:
            u = unit_of.get(id(n))
            inner = chain + (u,) if u is not None else chain
            if t is cst.FunctionDef:
                for d in n.decorators:
                    stack.append((d, chain))
                stack.append((n.params, inner))
                stack.append((n.body, inner))
                if n.returns is not None:
                    stack.append((n.returns, chain))
            else:
                stack.append((n.params, inner))
                stack.append((n.body, inner))
            continue
        for c in _children(n):
            stack.append((c, chain))
    return out


def _keeps_args(ctx, dec: cst.BaseExpression) -> bool:
    """``@jax.jit``, ``@jax.jit(static_argnums=...)``-like forms, ``@partial(jax.jit, ...)``:
    the decorated function is called with the arguments its callers pass."""
    if ctx.qualname(dec) in KEEP_SHAPES:
        return True
    if type(dec) is cst.Call:
        q = ctx.qualname(dec.func)
        if q in KEEP_SHAPES:
            return not positional_args(dec)
        if q in apis.PARTIALS:
            pos = positional_args(dec)
            return len(pos) == 1 and ctx.qualname(pos[0].value) in KEEP_SHAPES
    return False


def param_shapes(ctx, unit: Unit) -> dict[str, tuple]:
    """param -> (shape, every call passed a JAX array, (smallest, largest) integer when
    every call passes the same integers known so) for the parameters every call
    of ``unit`` gives one known shape; empty unless every use of it is such a call."""
    if not unit.shape_sites or unit.foreign_uses or unit.escapes:
        return {}
    vias: dict[str, int] = {}
    for via, _ in unit.shape_sites.values():
        if via != FOREIGN:
            vias[via] = vias.get(via, 0) + 1
    if type(unit.node) is cst.FunctionDef:
        if not all(_keeps_args(ctx, d.decorator) for d in unit.node.decorators):
            return {}
        # the function's own name, and names bound once to a shape-keeping transformation
        # of it (`fast = jax.jit(step)`), each read once where it is bound
        aliases = [v for v in vias if v != unit.name]
        if _name_uses(ctx, unit.name) != vias.get(unit.name, 0) + len(aliases):
            return {}
        for a in aliases:
            holder = _alias_holder(ctx, a, unit)
            if holder is None or _uses_in(ctx, a, holder) != vias[a] + 1:
                return {}
    else:
        if len(vias) != 1 or len(vias) != len(unit.shape_sites):
            return {}
        for via, n in vias.items():
            if _name_uses(ctx, via) != n + 1:  # `f = jax.jit(lambda a: ...)` writes it once
                return {}
    out: dict[str, tuple] = {}
    sites = [s for _, s in unit.shape_sites.values()]
    for p in unit.params:
        given = [s.get(p.name) for s in sites]
        if all(g is not None for g in given) and len({g[0] for g in given}) == 1:
            ranges = [g[2] if len(g) > 2 else None for g in given]
            rng = ranges[0] if len(set(ranges)) == 1 else None
            out[p.name] = (given[0][0], all(g[1] for g in given), rng)
    return out
