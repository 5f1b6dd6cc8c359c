"""JAX101 inplace-array-update: Item assignment (`x[i] = v`, `x[i] += v`) on an immutable JAX array, or NumPy's in-place writers (`jnp.put`)."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Replacement, Rule, Valid, fix
from jaxlint.findings import Applicability, Severity
from jaxlint.model import namespaces
from jaxlint.model import values as V
from jaxlint.model.walk import arg_at, descendants, dotted_name
from jaxlint.rules.arrays._common import INPLACE_WRITERS, inplace_flag, is_false


_AUG_METHODS = {
    cst.AddAssign: "add",
    cst.SubtractAssign: "subtract",
    cst.MultiplyAssign: "multiply",
    cst.DivideAssign: "divide",
    cst.PowerAssign: "power",
}


def _targets(target: cst.BaseExpression) -> list:
    """The names of a ``for`` target's elements, in order (``p, g``); None for a nested one."""
    if type(target) in (cst.Tuple, cst.List):
        return [e.value.value if type(e.value) is cst.Name else None for e in target.elements]
    return [target.value] if type(target) is cst.Name else [None]


def _string_key(sub: cst.Subscript) -> bool:
    """``x["name"]`` / ``x[f"{k}_mean"]``: a single string index."""
    return len(sub.slice) == 1 and isinstance(sub.slice[0].slice, cst.Index) and isinstance(
        sub.slice[0].slice.value, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString))


def _slice_code(ctx, sub: cst.Subscript) -> str:
    return ", ".join(ctx.code(el).rstrip(", ").strip() for el in sub.slice)


def _int_index(el: cst.SubscriptElement) -> bool:
    """An index that picks one position of the leading axis: an integer literal (`0`, `-1`)."""
    e = el.slice
    if not isinstance(e, cst.Index) or e.star is not None:
        return False
    v = e.value
    if isinstance(v, cst.UnaryOperation) and isinstance(v.operator, cst.Minus):
        v = v.expression
    return isinstance(v, cst.Integer)


def _flattened(ctx, sub: cst.Subscript) -> cst.Subscript:
    """`x[0][1]` as `x[0, 1]`: an item assignment through rows picked by integer indices
    writes to a temporary row (`x[0]` is a new array), so the update that changes `x` joins
    the indices.  Only integer literals are joined (`x[1:][0]` is not `x[1:, 0]`, and an
    array index gathers); anything else stays as written."""
    inner = sub.value
    joined = list(sub.slice)
    while isinstance(inner, cst.Subscript) and inner.slice and all(_int_index(el) for el in inner.slice) \
            and ctx.value(inner.value).kind == V.ARRAY:
        joined = list(inner.slice) + joined
        inner = inner.value
    if inner is sub.value:
        return sub
    last = len(joined) - 1
    return cst.Subscript(value=inner, slice=[el.with_changes(comma=cst.MaybeSentinel.DEFAULT if i == last else cst.Comma(
        whitespace_after=cst.SimpleWhitespace(" "))) for i, el in enumerate(joined)])


_STOP = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
_FLAX_STRUCT = frozenset({"flax.struct.dataclass", "flax.struct.PyTreeNode"})


def _flax_struct(ctx, instance: str) -> bool:
    """Is ``instance`` (a class of this file, as ``Value.instance`` names it) a flax
    struct dataclass (``@struct.dataclass``, a ``struct.PyTreeNode``): frozen, its
    fields replaced with ``.replace(...)``?"""
    for info in ctx.index.classes:
        if info.name != instance or not isinstance(info.node, cst.ClassDef):
            continue
        heads = [d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator for d in info.node.decorators]
        heads += [b.value for b in info.node.bases]
        return any(ctx.qualname(h) in _FLAX_STRUCT for h in heads)
    return False


def _values_loop(ctx, name: str):
    """The dict a ``for`` around this point reads with ``name`` as its variable (``for v
    in d.values()``, ``for k, v in d.items()``), written as the code names it; else None."""
    for frame in reversed(ctx.loop_stack):
        loop = frame.node
        if not isinstance(loop, cst.For):
            continue
        it = loop.iter
        if not (isinstance(it, cst.Call) and isinstance(it.func, cst.Attribute) and not it.args
                and it.func.attr.value in ("values", "items") and dotted_name(it.func.value) is not None):
            continue
        names = _targets(loop.target)
        if (it.func.attr.value == "values" and names == [name]) or (
                it.func.attr.value == "items" and len(names) == 2 and names[1] == name):
            return ctx.code(it.func.value).strip()
    return None


def _loop_bodies_only(root: cst.CSTNode, stmt: cst.CSTNode) -> bool:
    """Is ``stmt`` in the body of ``root`` (a function) with nothing but loop bodies around
    it (`for j in range(6): jac[:, j] *= s[j]`)?  A loop picks no path of a join above it;
    an `if`, an `else`, a handler may (`if not on_device: w[...] = 0`)."""
    body = getattr(root, "body", None)
    if body is None or isinstance(root, cst.Module):
        return False
    stack: list[tuple[cst.CSTNode, bool]] = [(body, True)]
    while stack:
        node, clear = stack.pop()
        if node is stmt:
            return clear
        for child in node.children:
            if isinstance(child, _STOP) or isinstance(child, cst.BaseExpression):
                continue
            if isinstance(child, (cst.For, cst.While)):
                stack.append((child.body, clear))
                if child.orelse is not None:
                    stack.append((child.orelse, False))
            elif isinstance(child, cst.BaseCompoundStatement):
                stack.append((child, False))
            else:
                stack.append((child, clear))
    return False


class InplaceArrayUpdate(Rule):
    code = "JAX101"
    name = "inplace-array-update"
    runtime_check = '`jax.jit(f).trace(...)` on abstract inputs: confirmed when `TypeError` (item assignment on an immutable array), or the `ValueError`/`NotImplementedError` of `jnp.put` and the other in-place writers, is raised at the flagged line.'
    summary = "Item assignment (`x[i] = v`, `x[i] += v`) on an immutable JAX array, or NumPy's in-place writers (`jnp.put`)"
    severity = Severity.ERROR
    # what the assignment (TypeError), `jnp.put` (ValueError) and `jnp.fill_diagonal`
    # (NotImplementedError) raise, eagerly as under jit: a handler for it expects it
    caught_by = frozenset({"builtins.TypeError", "builtins.ValueError", "builtins.NotImplementedError",
                           "builtins.RuntimeError"})
    caught_alone = True
    seed = "The Sharp Bits § In-Place Updates (seed 000); tutorial § index_update (seed 002)"
    what_it_does = (
        "Flags `x[idx] = v` and augmented forms (`x[idx] += v`, `-=`, `*=`, `/=`, `**=`) where "
        "`x` is known to be a JAX array: the result of a `jax.numpy`, `jax.lax` or "
        "`jax.random` call, arithmetic on a traced argument, or a parameter annotated as "
        "a JAX array (`jax.Array`, `jnp.ndarray`, jaxtyping's `Float[Array, ...]`; in a "
        "traced function also `chex.Array` and `ArrayLike`, which otherwise admit NumPy "
        "arrays; not in a module that imports Pallas, whose kernels annotate their Refs `jax.Array` and write them in place), or "
        "the entry of a dict that holds a JAX array under that literal key (`buffer[\"obs\"][i] = obs` "
        "with `buffer = {\"obs\": jnp.zeros(...)}`, here or passed by every call of the helper, "
        "`d[\"obs\"] = jnp...` stored, `grads = jax.grad(loss)(params, x)` of such a dict), "
        "any entry of a dict whose every value is a JAX array (`grads[name][i] += lr`, `for k in "
        "params: params[k][0] = 0`, `for v in params.values()`, with `params = {...}`, "
        "`dict(w=..., b=...)`, `{k: jnp.zeros(s) for ...}`, `jax.tree.map(jnp.ones_like, ...)` of "
        "one, or a helper's, here or in another module, that builds one), a field "
        "of a NamedTuple, dataclass, flax struct or chex dataclass built here with a JAX array "
        "(`s.w[0] = 1.0`), or an item of a tuple of JAX arrays (`ws[0][1] = 0.0`, also held in a "
        "dict). A dict stops counting as one where something else is stored into it, a method "
        "changes it (`update`), or it is handed to a call; a module-level dict read in a "
        "function, where the file does any of that anywhere. "
        "NumPy arrays, lists, dicts and unannotated pytree arguments are left alone, and so is a string index "
        "(`metrics[\"loss\"] = v`: no JAX array takes one, the value is a dict).\n\n"
        "A value that is a JAX array on the paths through a branch and a host NumPy array on the "
        "others (`ans = np.zeros_like(mu)`, then `if ...: ans = sig * w` where every call passes a "
        "JAX `sig`, or `if on_device: w = jnp.asarray(w)`) is flagged too: the write raises on "
        "the paths where it is a JAX array. So is an array built by an array namespace that a helper, "
        "here or in another module, returns as `jax.numpy` on some paths and NumPy on the others "
        "(`xp = array_namespace(x)` of `return jnp` / `return np`, a backend switch `def xp(): "
        "return jnp if _BACKEND == \"jax\" else numpy`): `out = xp.zeros(n)`, `xp.asarray(a)` and "
        "arithmetic on them, also returned by a helper. That report has no fix (`.at[]` would fail on the "
        "NumPy array of the other paths). Only a write that runs on every path through that "
        "join is flagged: one under a condition of its own below it (`if not on_device: "
        "w[...] = 0`, `if isinstance(w, np.ndarray): ...`, where `isinstance` makes `w` a host "
        "array) stays quiet.\n\n"
        "Also flags the NumPy functions that write into their argument, which `jax.numpy` "
        "keeps with an `inplace` flag that defaults to `True`: `jnp.put`, `jnp.place`, "
        "`jnp.fill_diagonal` and `jnp.put_along_axis` called without `inplace=False`.\n\n"
        "And `p -= lr * g` (any augmented assignment) to a `for` loop's variable that holds a "
        "JAX array from a list or tuple (`for p, g in zip(params, grads)`, the list built here or "
        "passed by every call of the helper) when the body does not read it afterwards: it "
        "rebinds the variable and leaves the container's array as it was."
    )
    why_bad = (
        "JAX arrays are immutable. The assignment raises, eagerly and under `jit` alike:\n\n"
        "```\nTypeError: JAX arrays are immutable and do not support in-place item assignment. "
        "Instead of x[idx] = y, use x = x.at[idx].set(y) or another .at[] method\n```\n\n"
        "Code ported from NumPy hits this on its first run. `jnp.put(a, ind, v)` (and "
        "`jnp.place`, `jnp.put_along_axis`) raise `ValueError: jax.numpy.put cannot modify "
        "arrays in-place, because JAX arrays are immutable. Pass inplace=False to instead "
        "return an updated array.`; `jnp.fill_diagonal(a, v)` raises `NotImplementedError: "
        "JAX arrays are immutable, must use inplace=False`."
    )
    use_instead = (
        "```python\nx = jnp.zeros((3, 3))\nx = x.at[1, :].set(1.0)\nx = x.at[0, 0].add(2.0)\n```\n\n"
        "Inside `jit`, when `x` is not used afterwards, XLA performs the `.at[]` update in place."
    )
    fix_safety = (
        "The fix rewrites `x[i] = v` to `x = x.at[i].set(v)` (`+=` to `.add`, `-=` to "
        "`.subtract`, `*=` to `.multiply`, `/=` to `.divide`, `**=` to `.power`). The original "
        "line always raises, so no working behaviour can change; the fix is **safe** when `x` "
        "was created in the same function by a `jax.numpy` call and no other name refers to "
        "it. It is **unsafe** otherwise: NumPy-style code that updates an array seen through "
        "another name (an argument, an alias) expected that other name to change too, and the "
        "functional update leaves it unchanged. A module global or a closure variable updated "
        "inside a function gets no fix unless the function declares it `global`/`nonlocal`: "
        "rebinding it there would make it a new local (UnboundLocalError). A NamedTuple's field (`s.w[0] = v`) and an array held in a tuple (`ws[0][1] = v`) get no fix either: the field or item cannot be assigned (AttributeError, TypeError); the message names `s = s._replace(w=s.w.at[0].set(...))` or a new tuple. A field of a flax struct dataclass gets none either (`s.w = ...` raises FrozenInstanceError): the message names `s = s.replace(w=s.w.at[0].set(...))`. Nor does the variable of a loop over a dict's values (`for v in d.values(): v[0] = x`): rebinding `v` leaves the dict's array as it was, so the message writes the update back (`for k in d: d[k] = d[k].at[0].set(...)`). The augmented operators `.at[]` has no method for (`//=`, `%=`, `@=`, shifts, bitwise) compute the new item and set it: `x[i] //= v` becomes `x = x.at[i].set(x[i] // v)`.\n\n"
        "`jnp.put(a, ind, v)` and the other in-place writers get `inplace=False` added, and "
        "as a statement the result assigned back (`a = jnp.put(a, ind, v, inplace=False)`); "
        "**unsafe**, like the item assignments: another name for `a` keeps the old values."
    )
    VALID = [
        # an import guard that tries NumPy first: NumPy is installed, `xp` is NumPy
        Valid(
            """
            try:
                import numpy as xp
            except ImportError:
                import jax.numpy as xp

            def bump(n):
                out = xp.zeros(n)
                out[0] = 1.0
                return out
            """
        ),
        # the same loops over NumPy arrays (updated in place), a loop variable read after its
        # update, an accumulator that is not the loop variable
        Valid(
            """
            import jax.numpy as jnp
            import numpy as np


            def decay_all(weights, rate):
                for w in weights:
                    w *= rate
                return weights


            def shifted(params, updates):
                out = []
                for p, u in zip(params, updates):
                    p -= u
                    out.append(p)
                return out


            host = [np.ones(3), np.ones((2, 2))]
            host = decay_all(host, 0.9)
            new = shifted([jnp.ones(3)], [jnp.ones(3)])
            total = 0.0
            for x in [jnp.ones(3), jnp.zeros(3)]:
                total += x.sum()
            """
        ),
        # written to fail: a lesson on immutability (the handler catches the TypeError,
        # or anything, around just this statement)
        Valid(
            """
            import jax.numpy as jnp

            t = jnp.arange(6.0).reshape(2, 3)
            try:
                t[0, 0] = -5.0  # fails: JAX arrays are immutable
            except Exception as e:
                print(f"Exception {e}")
            """
        ),
        Valid(
            """
            import jax.numpy as jnp


            def check_immutable():
                x = jnp.zeros(3)
                try:
                    x[1] += 1.0
                    raise AssertionError("the update should have raised")
                except TypeError:
                    pass
                try:
                    jnp.put(x, 0, 1.0)
                except ValueError as e:
                    return str(e)
            """
        ),
        # Pallas kernels annotate their Refs `jax.Array` and write them in place: in a
        # module that imports Pallas the annotation does not make a parameter an array
        Valid(
            """
            import jax
            from jax.experimental import pallas as pl


            def add_kernel(x_ref: jax.Array, y_ref: jax.Array, o_ref: jax.Array):
                o_ref[...] = x_ref[...] + y_ref[...]


            def add(x, y):
                shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
                return pl.pallas_call(add_kernel, out_shape=shape)(x, y)
            """
        ),
        Valid(
            """
            import jax
            import jax.numpy as jnp
            import jax.experimental.pallas.tpu as pltpu


            def zero_rows(zero_ref: jax.Array, acc_ref: jax.Array, *, rows: int):
                zero_ref[...] = jnp.zeros_like(zero_ref)
                acc_ref[:rows] += 1.0
            """
        ),
        # annotations that admit NumPy arrays, untraced: `chex.Array`, jaxtyping over
        # `np.ndarray`, `ArrayLike`; and an unannotated argument (a list works)
        Valid(
            """
            import chex
            import numpy as np
            from jax.typing import ArrayLike
            from jaxtyping import Float

            def fill(a: chex.Array, b: Float[np.ndarray, "n"], c: ArrayLike, d):
                a[0] = 1.0
                b[0] //= 2
                c[0] += 1
                d[0] = 0
                return a, b, c, d
            """
        ),
        # attributes: updated functionally; a NumPy buffer; an attribute some method
        # rebinds to a list
        Valid(
            """
            import jax.numpy as jnp
            import numpy as np

            class Ring:
                def __init__(self, n):
                    self.buf = jnp.zeros(n)
                    self.host = np.zeros(n)
                    self.items = jnp.zeros(n)
                    self.pos = 0

                def reset(self):
                    self.items = [0.0] * self.buf.shape[0]

                def push(self, v):
                    self.buf = self.buf.at[self.pos].set(v)
                    self.host[self.pos] = float(v)
                    self.items[self.pos] = v
                    self.pos = (self.pos + 1) % self.buf.shape[0]
            """
        ),
        Valid(
            """
            import numpy as np
            x = np.zeros((3, 3))
            x[1, :] = 1.0
            """
        ),
        Valid(
            """
            import jax.numpy as jnp
            x = jnp.zeros((3, 3))
            x = x.at[1, :].set(1.0)
            """
        ),
        Valid(
            """
            import jax

            @jax.jit
            def f(params):
                params['w'] = params['w'] * 2
                return params
            """
        ),
        Valid(
            """
            import jax.numpy as jnp
            out = {}
            out['a'] = jnp.ones(3)
            rows = [jnp.ones(2)]
            rows[0] = jnp.zeros(2)
            """
        ),
        Valid(
            """
            import jax.numpy as jnp
            import numpy as np
            buf = np.asarray(jnp.ones(3))
            buf[0] = 2.0
            """
        ),
        Valid(
            """
            import jax.numpy as jnp
            x = jnp.zeros(3)
            x += 1
            """
        ),
        Valid(
            """
            import jax
            import jax.numpy as jnp

            def init(p):
                return {'lr': 0.1, 'w': p}

            state = jax.jit(init)(jnp.zeros(3))
            state['lr'] = 0.01
            """
        ),
        Valid(
            """
            import jax
            from jax import lax

            @jax.jit
            def f(operand, i):
                starts = [lax.full((), 0, 'int32')] * operand.ndim
                starts[0] = i
                return lax.dynamic_slice(operand, starts, (1,) * operand.ndim)
            """
        ),
        # the same containers of NumPy arrays, a dict with one NumPy value, an entry
        # rebound to a NumPy array or updated functionally, a dict changed by `update`
        Valid(
            """
            from typing import NamedTuple

            import jax.numpy as jnp
            import numpy as np


            class State(NamedTuple):
                w: object


            def update(name, lr):
                grads = {"w": np.zeros(3), "b": np.zeros(3)}
                grads[name][0] += lr
                mixed = dict(w=jnp.ones(3), b=np.ones(2))
                mixed[name][0] = 0.0
                params = {"w": jnp.ones(3), "b": jnp.ones(2)}
                params[name] = params[name].at[0].set(1.0)
                params[name] = np.array(params[name])
                params[name][1] = 0.0
                other = {"w": jnp.ones(3), "b": jnp.ones(2)}
                other.update(w=np.zeros(3), b=np.zeros(2))
                other[name][0] = 0.0
                s = State(np.zeros(3))
                s.w[0] = 1.0
                return grads, mixed, params, other, s
            """
        ),
        # jnp.split (like array_split, meshgrid, broadcast_arrays) returns a Python list
        Valid(
            """
            import jax.numpy as jnp


            def unflatten(flat, sizes):
                leaves = jnp.split(flat, sizes)
                leaves[0] = leaves[0].reshape(2, 2)
                leaves[-1] = {"bias": leaves[-1]}
                return leaves
            """
        ),
        # a collective of a pytree returns that pytree: `stats` is still a dict
        Valid(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp
            from jax import lax


            @partial(jax.pmap, axis_name="devices")
            def step(w, batch):
                loss = jnp.mean((batch @ w) ** 2)
                g = jax.grad(lambda w: jnp.mean((batch @ w) ** 2))(w)
                loss, stats, g = lax.pmean((loss, {"loss": loss}, g), axis_name="devices")
                stats["lr"] = 0.01
                return w - 0.01 * g, stats
            """
        ),
        # `jax.device_get` gives host values (NumPy arrays, dicts of them): mutable
        Valid(
            """
            import jax
            import jax.numpy as jnp


            def record(log, step, metrics, rate):
                log[step] = metrics
                host = jax.device_get(log)
                host[step]["steps_per_sec"] = rate
                weights = jax.device_get(jnp.ones(3))
                weights[0] = 0.0
                return host, weights
            """
        ),
        # call sites: a NumPy array at one of the calls, a NumPy branch for NumPy arrays,
        # a helper also used as a value (its other callers are unknown), a helper that
        # returns a NumPy array, a dataclass field rebound to a list
        Valid(
            """
            import dataclasses

            import jax.numpy as jnp
            import numpy as np


            def zero_first(v):
                if isinstance(v, np.ndarray):
                    v[0] = 0.0
                    return v
                return v.at[0].set(0.0)


            def fill(buf, i):
                buf[i] = 0.0
                return buf


            def clear(rows):
                rows[0] = 0.0


            def host(n):
                return np.zeros(n)


            @dataclasses.dataclass
            class Batch:
                x: object


            zero_first(jnp.ones(3))
            fill(jnp.zeros(3), 1)
            fill(np.zeros(3), 1)
            clear(jnp.zeros(3))
            handlers = [clear]
            h = host(3)
            h[0] = 1.0
            b = Batch(x=jnp.zeros(3))
            b.x = [0.0, 1.0]
            b.x[0] = 2.0
            """
        ),
        # the in-place writers given `inplace=False` (or a flag computed elsewhere);
        # NumPy's own `np.put` writes in place
        Valid(
            """
            import jax.numpy as jnp
            import numpy as np

            def f(a, ind, flag):
                a = jnp.put(a, ind, 1.0, inplace=False)
                b = jnp.put_along_axis(a, ind, 0.0, 0, False)
                c = jnp.fill_diagonal(b, 2.0, inplace=flag)
                h = np.zeros(3)
                np.put(h, [0], 1.0)
                return c, h
            """
        ),
        # array namespaces: one helper returning NumPy on every path; a dual one whose
        # write runs only where the namespace is NumPy; one updated without item assignment
        Valid(
            """
            import numpy as np
            import jax.numpy as jnp

            def host_namespace(*arrays):
                if arrays:
                    return np
                return np

            def array_namespace(*arrays):
                import jax
                if any(isinstance(a, jax.Array) for a in arrays):
                    return jnp
                return np

            def fill_host(cond, a):
                xp = host_namespace(cond, a)
                out = xp.zeros(cond.shape)
                out[cond] = a[cond]
                return out

            def fill_guarded(cond, a):
                xp = array_namespace(cond, a)
                out = xp.zeros(cond.shape)
                if xp is np:
                    out[cond] = a[cond]
                    return out
                return out.at[cond].set(a[cond])

            def fill_where(cond, a):
                xp = array_namespace(cond, a)
                out = xp.zeros(cond.shape)
                return xp.where(cond, a, out)

            def clip_host_rows(w, on_device):
                w = np.asarray(w, dtype=float)
                if on_device:
                    w = jnp.asarray(w)
                for i in range(w.shape[0]):
                    if not on_device:
                        w[i] = min(w[i], 1.0)
                else:
                    pass
                return w
            """
        ),
    ]


    INVALID = [
        # an array namespace a helper returns as jax.numpy on some paths and NumPy on the
        # others: what its constructors build is a JAX array on the calls that pick jax.numpy
        Invalid(
            """
            import numpy as np

            def array_namespace(*arrays):
                import jax
                if any(isinstance(a, jax.Array) for a in arrays):
                    import jax.numpy as jnp
                    return jnp
                return np

            def lazywhere(cond, a, fill):
                xp = array_namespace(cond, a)
                out = xp.full(cond.shape, fill)
                out[cond] = a[cond]
                return out
            """,
            expected=[(13, 5)],
            messages=["JAX arrays are immutable: `out[cond] = ...` raises TypeError on the calls where `out` holds "
                      "a JAX array (an array namespace built it, `jax.numpy` on some calls and NumPy on the others). "
                      "Update it without item assignment on both (`xp.where`), or use `out = out.at[cond].set(...)` "
                      "where the namespace is `jax.numpy`"],
        ),
        # a backend switch (a global setting), the array built and scaled by a helper
        Invalid(
            """
            import numpy
            import jax.numpy as jnp

            _BACKEND = "numpy"

            def xp():
                if _BACKEND == "jax":
                    return jnp
                return numpy

            def jacobian(d):
                np = xp()
                return 0.5 * np.eye(6) + np.outer(np.ones(6), np.ones(6))

            def scaled(d, ro):
                jac = jacobian(d)
                jac[:3, :] /= ro
                return jac

            def scaled_columns(d, scale):
                jac = jacobian(d)
                for j in range(6):
                    jac[:, j] *= scale[j]
                return jac
            """,
            expected=[(17, 5), (23, 9)],
            messages=["JAX arrays are immutable: `jac[:3, :] /= ...` raises TypeError on the calls where `jac` holds "
                      "a JAX array (an array namespace built it, `jax.numpy` on some calls and NumPy on the others). "
                      "Update it without item assignment on both (`xp.where`), or use `jac = jac.at[:3, :].divide(...)` "
                      "where the namespace is `jax.numpy`",
                      "JAX arrays are immutable: `jac[:, j] *= ...` raises TypeError on the calls where `jac` holds "
                      "a JAX array (an array namespace built it, `jax.numpy` on some calls and NumPy on the others). "
                      "Update it without item assignment on both (`xp.where`), or use `jac = jac.at[:, j].multiply(...)` "
                      "where the namespace is `jax.numpy`"],
        ),
        # a field of a flax struct dataclass (imported two ways): `s.w = ...`
        # raises FrozenInstanceError too, so the advice replaces the field; the values of
        # a dict read by a loop go back into the dict (rebinding the loop variable does not)
        Invalid(
            """
            import flax
            import jax.numpy as jnp
            from flax import struct


            @struct.dataclass
            class Params:
                w: jnp.ndarray


            @flax.struct.dataclass
            class Stats:
                mean: jnp.ndarray


            def reset(n, table):
                p = Params(w=jnp.zeros(n))
                p.w[0] = 1.0
                s = Stats(mean=jnp.ones(n))
                s.mean[-1] += 2.0
                buf = {"a": jnp.zeros(n), "b": jnp.ones(n)}
                for v in buf.values():
                    v[0] = 0.0
                return p, s, buf
            """,
            expected=[(18, 5), (20, 5), (23, 9)],
            messages=[
                "JAX arrays are immutable: `p.w[0] = ...` raises TypeError. Use `p = p.replace(w=p.w.at[0].set(...))`",
                "JAX arrays are immutable: `s.mean[-1] += ...` raises TypeError. Use `s = s.replace(mean=s.mean.at[-1].add(...))`",
                "JAX arrays are immutable: `v[0] = ...` raises TypeError. Use `for k in buf: buf[k] = buf[k].at[0].set(...)` (rebinding the loop variable `v` would leave `buf` unchanged)",
            ],
        ),
        # a branch joins a JAX and a NumPy array; the write runs in a loop body below the
        # join, on every path through it (a loop picks no path)
        Invalid(
            """
            import jax.numpy as jnp
            import numpy as np

            def clip_rows(w, on_device):
                w = np.asarray(w, dtype=float)
                if on_device:
                    w = jnp.asarray(w)
                for i in range(w.shape[0]):
                    w[i] = min(w[i], 1.0)
                return w
            """,
            expected=[(9, 9)],
            messages=["JAX arrays are immutable: `w[i] = ...` raises TypeError on the paths where `w` "
                      "holds a JAX array (a branch above binds one; the other paths leave a NumPy array). Make "
                      "it one kind of array on every path and use `w = w.at[i].set(...)`, or `np.where` on both"],
        ),
        # a host placeholder that a branch rebinds to a JAX array: the write raises on the
        # paths through the branch (no fix: `.at[]` fails on the NumPy array of the others)
        Invalid(
            """
            import jax.numpy as jnp
            import numpy as np

            def normalise(counts, on_device):
                w = np.asarray(counts, dtype=float)
                if on_device:
                    w = jnp.asarray(w) / w.sum()
                w[w < 1e-3] = 0.0
                return w

            weights = normalise([1, 2, 3000], True)
            """,
            expected=[(8, 5)],
            messages=["JAX arrays are immutable: `w[w < 1e-3] = ...` raises TypeError on the paths where `w` "
                      "holds a JAX array (a branch above binds one; the other paths leave a NumPy array). Make "
                      "it one kind of array on every path and use `w = w.at[w < 1e-3].set(...)`, or `np.where` on both"],
        ),
        # an augmented assignment to a loop variable that holds one of a list's (or tuple's)
        # JAX arrays: it rebinds the variable, the container keeps the old array; in a
        # helper the calls pass the list to, or over a tuple at module level
        # an import guard: its ImportError handler does not run where JAX is installed
        Invalid(
            """
            try:
                import jax.numpy as jnp
            except ImportError:
                import numpy as jnp

            def bump(n):
                out = jnp.zeros(n)
                out[0] = 1.0
                return out
            """,
            expected=[(8, 5)],
            messages=["JAX arrays are immutable: `out[0] = ...` raises TypeError. Use `out = out.at[0].set(...)`"],
            fixed="""
            try:
                import jax.numpy as jnp
            except ImportError:
                import numpy as jnp

            def bump(n):
                out = jnp.zeros(n)
                out = out.at[0].set(1.0)
                return out
            """,
        ),
        Invalid(
            """
            import jax.numpy as jnp


            def decay_all(weights, rate):
                for w in weights:
                    w *= rate
                return weights


            def apply_updates(params, updates):
                for i, (p, u) in enumerate(zip(params, updates)):
                    p += u
                return params


            weights = [jnp.ones(3), jnp.ones((2, 2))]
            weights = decay_all(weights, 0.9)
            weights = apply_updates(weights, [jnp.ones(3), jnp.ones((2, 2))])
            buffers = (jnp.zeros(4), jnp.zeros(4))
            for buf in buffers:
                buf += 1.0
            """,
            expected=[(6, 9), (12, 9), (21, 5)],
            messages=[
                "`w *= ...` makes a new array and rebinds the loop variable `w`: JAX arrays are immutable, so the element of `weights` it came from is unchanged (a NumPy array was updated in place). Build a new container of the updated values instead (a list comprehension over the same iteration, or `jax.tree.map`)",
                "`p += ...` makes a new array and rebinds the loop variable `p`: JAX arrays are immutable, so the container's element is unchanged (a NumPy array was updated in place). Build a new container of the updated values instead (a list comprehension over the same iteration, or `jax.tree.map`)",
                "`buf += ...` makes a new array and rebinds the loop variable `buf`: JAX arrays are immutable, so the element of `buffers` it came from is unchanged (a NumPy array was updated in place). Build a new container of the updated values instead (a list comprehension over the same iteration, or `jax.tree.map`)",
            ],
        ),
        # a catch-all around more than the update hides the error from the code after it;
        # a handler for another error does not catch it
        Invalid(
            """
            import jax.numpy as jnp


            def load(rows):
                table = jnp.zeros((4, 2))
                try:
                    table[0] = rows[0]
                    print("loaded", table)
                except Exception:
                    print("bad rows")
                return table


            def clear(n):
                grid = jnp.ones((n, n))
                try:
                    grid[1, 1] = 0.0
                except KeyError:
                    pass
                return grid
            """,
            expected=[(7, 9), (17, 9)],
            messages=['JAX arrays are immutable: `table[0] = ...` raises TypeError. Use `table = table.at[0].set(...)`',
                      'JAX arrays are immutable: `grid[1, 1] = ...` raises TypeError. Use `grid = grid.at[1, 1].set(...)`'],
            fixed="""
            import jax.numpy as jnp


            def load(rows):
                table = jnp.zeros((4, 2))
                try:
                    table = table.at[0].set(rows[0])
                    print("loaded", table)
                except Exception:
                    print("bad rows")
                return table


            def clear(n):
                grid = jnp.ones((n, n))
                try:
                    grid = grid.at[1, 1].set(0.0)
                except KeyError:
                    pass
                return grid
            """,
        ),
        # a parameter annotated as a JAX array is one even where nothing traces it;
        # `//=` has no `.at[]` method: the new item is computed and set
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            def bump(x: jax.Array, counts: jnp.ndarray) -> jax.Array:
                x[0] += 1.0
                counts[2] //= 2
                return x, counts
            """,
            expected=[(5, 5), (6, 5)],
            messages=['JAX arrays are immutable: `x[0] += ...` raises TypeError. Use `x = x.at[0].add(...)`', 'JAX arrays are immutable: `counts[2] //= ...` raises TypeError. Use `counts = counts.at[2].set(counts[2] // ...)`'],
            fixed="""
            import jax
            import jax.numpy as jnp

            def bump(x: jax.Array, counts: jnp.ndarray) -> jax.Array:
                x = x.at[0].add(1.0)
                counts = counts.at[2].set(counts[2] // 2)
                return x, counts
            """,
            unsafe=True,
        ),
        # jaxtyping's dtype annotations, a method, `from jax import Array`
        Invalid(
            """
            from jax import Array
            from jaxtyping import Float

            class Buffer:
                def write(self, rows: Float[Array, "n d"], i, v):
                    rows[i] %= v + 1
                    return rows
            """,
            expected=[(6, 9)],
            messages=['JAX arrays are immutable: `rows[i] %= ...` raises TypeError. Use `rows = rows.at[i].set(rows[i] % ...)`'],
            fixed="""
            from jax import Array
            from jaxtyping import Float

            class Buffer:
                def write(self, rows: Float[Array, "n d"], i, v):
                    rows = rows.at[i].set(rows[i] % (v + 1))
                    return rows
            """,
            unsafe=True,
        ),
        # an array held on an attribute since __init__
        Invalid(
            """
            import jax.numpy as jnp

            class Ring:
                def __init__(self, n):
                    self.buf = jnp.zeros(n)
                    self.pos = 0

                def push(self, v):
                    self.buf[self.pos] = v
                    self.pos = (self.pos + 1) % self.buf.shape[0]
            """,
            expected=[(9, 9)],
            fixed="""
            import jax.numpy as jnp

            class Ring:
                def __init__(self, n):
                    self.buf = jnp.zeros(n)
                    self.pos = 0

                def push(self, v):
                    self.buf = self.buf.at[self.pos].set(v)
                    self.pos = (self.pos + 1) % self.buf.shape[0]
            """,
            unsafe=True,
            messages=[
                "JAX arrays are immutable: `self.buf[self.pos] = ...` raises TypeError. Use `self.buf = self.buf.at[self.pos].set(...)`",
            ],
        ),
        Invalid(
            """
            import jax.numpy as jnp
            jax_array = jnp.zeros((3, 3), dtype=jnp.float32)
            jax_array[1, :] = 1.0
            """,
            expected=[(3, 1)],
            messages=[
                "JAX arrays are immutable: `jax_array[1, :] = ...` raises TypeError. Use `jax_array = jax_array.at[1, :].set(...)`",
            ],
            fixed="""
            import jax.numpy as jnp
            jax_array = jnp.zeros((3, 3), dtype=jnp.float32)
            jax_array = jax_array.at[1, :].set(1.0)
            """,
        ),
        Invalid(
            """
            import jax.numpy as jnp
            x = jnp.arange(5)
            x[0] += 1
            x[1] -= 2
            x[2] *= 3
            """,
            expected=[(3, 1), (4, 1), (5, 1)],
            messages=[
                "JAX arrays are immutable: `x[0] += ...` raises TypeError. Use `x = x.at[0].add(...)`",
                "JAX arrays are immutable: `x[1] -= ...` raises TypeError. Use `x = x.at[1].subtract(...)`",
                "JAX arrays are immutable: `x[2] *= ...` raises TypeError. Use `x = x.at[2].multiply(...)`",
            ],
            fixed="""
            import jax.numpy as jnp
            x = jnp.arange(5)
            x = x.at[0].add(1)
            x = x.at[1].subtract(2)
            x = x.at[2].multiply(3)
            """,
        ),
        Invalid(
            """
            import jax

            @jax.jit
            def f(x):
                y = x * 2
                y[0] = 0.0
                return y
            """,
            expected=[(6, 5)],
            messages=[
                "JAX arrays are immutable: `y[0] = ...` raises TypeError. Use `y = y.at[0].set(...)`",
            ],
            fixed="""
            import jax

            @jax.jit
            def f(x):
                y = x * 2
                y = y.at[0].set(0.0)
                return y
            """,
            unsafe=True,
        ),
        Invalid(
            """
            from jax import numpy as np
            a = np.ones(4)
            b = a
            b[0] = 5
            """,
            expected=[(4, 1)],
            messages=[
                "JAX arrays are immutable: `b[0] = ...` raises TypeError. Use `b = b.at[0].set(...)`",
            ],
            fixed="""
            from jax import numpy as np
            a = np.ones(4)
            b = a
            b = b.at[0].set(5)
            """,
            unsafe=True,
        ),
        # `//=`, `%=` and `@=` have no `.at[]` method: the new item is computed and set
        Invalid(
            """
            import jax.numpy as jnp
            x = jnp.arange(6)
            x[0] //= 2
            """,
            expected=[(3, 1)],
            messages=[
                "JAX arrays are immutable: `x[0] //= ...` raises TypeError. Use `x = x.at[0].set(x[0] // ...)`",
            ],
            fixed="""
            import jax.numpy as jnp
            x = jnp.arange(6)
            x = x.at[0].set(x[0] // 2)
            """,
        ),
        # the items of jnp.split's list are arrays, and a collective of one array is an array
        Invalid(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp
            from jax import lax


            @partial(jax.pmap, axis_name="devices")
            def step(x):
                head, tail = jnp.split(x, 2)
                head[0] = 0.0
                total = lax.psum(jnp.stack([x.sum(), x.max()]), "devices")
                total[1] = 1.0
                return head, tail, total
            """,
            expected=[(11, 5), (13, 5)],
            messages=[
                "JAX arrays are immutable: `head[0] = ...` raises TypeError. Use `head = head.at[0].set(...)`",
                "JAX arrays are immutable: `total[1] = ...` raises TypeError. Use `total = total.at[1].set(...)`",
            ],
            fixed="""
            from functools import partial

            import jax
            import jax.numpy as jnp
            from jax import lax


            @partial(jax.pmap, axis_name="devices")
            def step(x):
                head, tail = jnp.split(x, 2)
                head = head.at[0].set(0.0)
                total = lax.psum(jnp.stack([x.sum(), x.max()]), "devices")
                total = total.at[1].set(1.0)
                return head, tail, total
            """,
            unsafe=True,
        ),
        # a global or a closure variable: `x = x.at[...]` inside the function would make
        # `x` a local (UnboundLocalError), so no fix (tests/test_fix.py checks it)
        Invalid(
            """
            import jax.numpy as jnp

            table = jnp.zeros(4)


            def reset_first():
                table[0] = 1.0


            def make_counter():
                counts = jnp.zeros(3)

                def bump(i):
                    counts[i] += 1

                return bump
            """,
            expected=[(7, 5), (14, 9)],
            messages=[
                "JAX arrays are immutable: `table[0] = ...` raises TypeError. Use `table = table.at[0].set(...)`",
                "JAX arrays are immutable: `counts[i] += ...` raises TypeError. Use `counts = counts.at[i].add(...)`",
            ],
        ),
        # two names for one array: the fix is unsafe (`b` keeps the old values)
        Invalid(
            """
            import jax.numpy as jnp


            def twins():
                a = b = jnp.zeros(2)
                a[0] = 1.0
                return a, b
            """,
            expected=[(6, 5)],
            messages=[
                "JAX arrays are immutable: `a[0] = ...` raises TypeError. Use `a = a.at[0].set(...)`",
            ],
            fixed="""
            import jax.numpy as jnp


            def twins():
                a = b = jnp.zeros(2)
                a = a.at[0].set(1.0)
                return a, b
            """,
            unsafe=True,
        ),
        # a one-line function body (a simple statement suite)
        Invalid(
            """
            import jax.numpy as jnp

            def f(): x = jnp.zeros(3); x[0] = 1.0; return x
            """,
            expected=[(3, 28)],
            fixed="""
            import jax.numpy as jnp

            def f(): x = jnp.zeros(3); x = x.at[0].set(1.0); return x
            """,
            messages=[
                "JAX arrays are immutable: `x[0] = ...` raises TypeError. Use `x = x.at[0].set(...)`",
            ],
        ),
        # a helper's parameter is a JAX array at every call (by position, by keyword,
        # through an alias of jax.numpy); a helper that returns one
        Invalid(
            """
            import jax.numpy as xp


            def bump(v, a, b):
                v[a:b] += 1
                return v


            def fill(buf, i):
                buf[i] = 0.0
                return buf


            def init(n):
                w = xp.zeros(n)
                return w * 2


            def main():
                bump(xp.arange(10), 2, 4)
                fill(buf=xp.ones(3), i=1)
                w = init(3)
                w[0] = 1.0
            """,
            expected=[(5, 5), (10, 5), (23, 5)],
            messages=[
                "JAX arrays are immutable: `v[a:b] += ...` raises TypeError. Use `v = v.at[a:b].add(...)`",
                "JAX arrays are immutable: `buf[i] = ...` raises TypeError. Use `buf = buf.at[i].set(...)`",
                "JAX arrays are immutable: `w[0] = ...` raises TypeError. Use `w = w.at[0].set(...)`",
            ],
        ),
        # an attribute set from jax.random in __init__; the fields of a dataclass built here
        Invalid(
            """
            import dataclasses

            import jax
            import jax.numpy as jnp


            class Layer:
                def __init__(self, key, d):
                    self.w = jax.random.normal(key, (d,))

                def reset(self):
                    self.w[0] = 0.0


            @dataclasses.dataclass
            class Params:
                w: jax.Array
                b: jax.Array


            def build(key):
                p = Params(jax.random.normal(key, (3,)), b=jnp.zeros(3))
                p.b[1] = 2.0
                p.w[0] = 1.0
                return p
            """,
            expected=[(12, 9), (23, 5), (24, 5)],
            messages=[
                "JAX arrays are immutable: `self.w[0] = ...` raises TypeError. Use `self.w = self.w.at[0].set(...)`",
                "JAX arrays are immutable: `p.b[1] = ...` raises TypeError. Use `p.b = p.b.at[1].set(...)`",
                "JAX arrays are immutable: `p.w[0] = ...` raises TypeError. Use `p.w = p.w.at[0].set(...)`",
            ],
        ),
        # NumPy's in-place writers: a statement (the result assigned back) and a value
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            a = jnp.zeros(5)
            jnp.put(a, jnp.array([0, 2]), 1.0)

            @jax.jit
            def f(x, i):
                y = jnp.put_along_axis(x, jnp.array([[0], [1]]), 1.0, axis=1)
                return jnp.fill_diagonal(y, i,)
            """,
            expected=[(5, 1), (9, 9), (10, 12)],
            messages=[
                "JAX arrays are immutable: `jnp.put(...)` cannot write into its array and raises ValueError (`inplace=True` is its default). Pass `inplace=False` and use the array it returns: `a = jnp.put(..., inplace=False)`",
                "JAX arrays are immutable: `jnp.put_along_axis(...)` cannot write into its array and raises ValueError (`inplace=True` is its default). Pass `inplace=False` and use the array it returns: `x = jnp.put_along_axis(..., inplace=False)`",
                "JAX arrays are immutable: `jnp.fill_diagonal(...)` cannot write into its array and raises NotImplementedError (`inplace=True` is its default). Pass `inplace=False` and use the array it returns: `y = jnp.fill_diagonal(..., inplace=False)`",
            ],
            fixed="""
            import jax
            import jax.numpy as jnp

            a = jnp.zeros(5)
            a = jnp.put(a, jnp.array([0, 2]), 1.0, inplace=False)

            @jax.jit
            def f(x, i):
                y = jnp.put_along_axis(x, jnp.array([[0], [1]]), 1.0, axis=1, inplace=False)
                return jnp.fill_diagonal(y, i, inplace=False)
            """,
            unsafe=True,
        ),
        # an item target inside a tuple target is an item assignment too (a dict item there
        # is not reported)
        Invalid(
            """
            import jax.numpy as jnp


            def f():
                x = jnp.zeros(3)
                x[1], z = 7.0, 8.0
                d = {}
                d["a"], y = 1, 2
                return x, z, d, y
            """,
            expected=[(6, 5)],
            messages=["JAX arrays are immutable: `x[1] = ...` raises TypeError. Use `x = x.at[1].set(...)`"],
        ),
        # an item of a row: `x[0]` is a new array, so the update of `x` joins the integer
        # indices (`x.at[0, 1]`)
        Invalid(
            """
            import jax.numpy as jnp


            def f():
                x = jnp.zeros((2, 2))
                x[0][1] = 4.0
                return x
            """,
            expected=[(6, 5)],
            messages=["JAX arrays are immutable: `x[0][1] = ...` raises TypeError. Use `x = x.at[0, 1].set(...)`"],
            fixed="""
            import jax.numpy as jnp


            def f():
                x = jnp.zeros((2, 2))
                x = x.at[0, 1].set(4.0)
                return x
            """,
        ),
        # a chain through a slice (or a traced index) cannot be joined as written
        Invalid(
            """
            import jax.numpy as jnp


            def f():
                x = jnp.zeros((2, 2))
                x[1:][0] = 1.0
                return x
            """,
            expected=[(6, 5)],
            messages=["JAX arrays are immutable: `x[1:][0] = ...` raises TypeError. Use `x = x.at[...].set(...)`, with one index that selects what `x[1:][0]` selects"],
        ),
        # any entry of a dict whose every value is a JAX array: a display, `dict(...)`,
        # the values of such a dict; a NamedTuple's field; an array held in a tuple
        Invalid(
            """
            from typing import NamedTuple

            import jax
            import jax.numpy as jnp


            class State(NamedTuple):
                w: jax.Array
                step: int


            def update(name, lr):
                grads = {"w": jnp.zeros(3), "b": jnp.zeros(3)}
                grads[name][0] += lr
                params = dict(w=jnp.ones(3), b=jnp.ones(2))
                for v in params.values():
                    v[0] = 0.0
                s = State(jnp.zeros(3), 0)
                s.w[0] = 1.0
                ws = (jnp.ones(3), jnp.ones(3))
                ws[0][1] = 0.0
                return grads, params, s, ws
            """,
            expected=[(14, 5), (17, 9), (19, 5), (21, 5)],
            messages=[
                "JAX arrays are immutable: `grads[name][0] += ...` raises TypeError. Use `grads[name] = grads[name].at[0].add(...)`",
                "JAX arrays are immutable: `v[0] = ...` raises TypeError. Use `for k in params: params[k] = params[k].at[0].set(...)` (rebinding the loop variable `v` would leave `params` unchanged)",
                "JAX arrays are immutable: `s.w[0] = ...` raises TypeError. Use `s = s._replace(w=s.w.at[0].set(...))`",
                "JAX arrays are immutable: `ws[0][1] = ...` raises TypeError. Use `ws[0].at[1].set(...)` in a new tuple in place of `ws` (a tuple's item cannot be assigned either)",
            ],
        ),
        # an array held in a dict: a dict display of JAX arrays every call passes, the
        # gradients of such a dict (`jax.grad(loss)(params, x)`)
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            def add(buffer, i, obs):
                buffer["obs"][i] = obs
                return buffer


            def loss(params, x):
                return jnp.sum(params["w"] * x + params["b"])


            def masked_grads(params, x):
                grads = jax.grad(loss)(params, x)
                grads["w"][0] = 0.0
                return grads


            add({"obs": jnp.zeros((4, 2)), "ptr": 0}, 0, jnp.ones(2))
            masked_grads({"w": jnp.ones(3), "b": jnp.zeros(())}, jnp.ones(3))
            """,
            expected=[(6, 5), (16, 5)],
            messages=[
                'JAX arrays are immutable: `buffer["obs"][i] = ...` raises TypeError. Use `buffer["obs"] = buffer["obs"].at[i].set(...)`',
                'JAX arrays are immutable: `grads["w"][0] = ...` raises TypeError. Use `grads["w"] = grads["w"].at[0].set(...)`',
            ],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._statements: dict[int, cst.Expr] = {}

    def visit_Expr(self, node: cst.Expr) -> None:
        self._statements[id(node.value)] = node

    def visit_Call(self, node: cst.Call) -> None:
        """`jnp.put(a, ind, v)` (`place`, `fill_diagonal`, `put_along_axis`): NumPy's
        in-place writers raise ValueError in JAX unless given `inplace=False`."""
        ctx = self.ctx
        q = ctx.qualname(node.func)
        spec = INPLACE_WRITERS.get(q or "")
        if spec is None:
            return
        position, array_param, raised = spec
        flag = inplace_flag(node, position)
        if is_false(flag) or any(a.star for a in node.args):
            return
        if flag is not None and not (isinstance(flag, cst.Name) and flag.value == "True"):
            return  # a computed flag: unsure
        shown = ctx.code(node.func).strip()
        target = arg_at(node, 0, array_param)
        named = target is not None and dotted_name(target) is not None
        target_code = ctx.code(target).strip() if target is not None else ""
        use = f"`{target_code} = {shown}(..., inplace=False)`" if named else "its result"
        message = (
            f"JAX arrays are immutable: `{shown}(...)` cannot write into its array and raises "
            f"{raised} (`inplace=True` is its default). Pass `inplace=False` and use the array it "
            f"returns: {use}"
        )
        the_fix = None
        stmt = self._statements.get(id(node))
        code = ctx.code(node).strip()
        if flag is None and code.endswith(")"):
            inner = code[:-1].rstrip()
            if inner.endswith(","):
                inner = inner[:-1]
            new_call = f"{inner}, inplace=False)"
            if stmt is not None:
                rebinds = named and (
                    not isinstance(target, cst.Name) or ctx.rebinding_works(target.value)  # type: ignore[union-attr]
                )
                if rebinds:
                    the_fix = fix(
                        Applicability.UNSAFE,
                        f"Replace with `{target_code} = {shown}(..., inplace=False)`",
                        Replacement(stmt, f"{target_code} = {new_call}"),
                    )
            else:
                the_fix = fix(
                    Applicability.UNSAFE,
                    "Pass `inplace=False` (the call returns the updated copy)",
                    Replacement(node, new_call),
                )
        self.report(node, message, the_fix)

    def visit_Assign(self, node: cst.Assign) -> None:
        for tgt in node.targets:
            if isinstance(tgt.target, cst.Subscript):
                self._check(node, tgt.target, None, node.value, single=len(node.targets) == 1)
            elif isinstance(tgt.target, (cst.Tuple, cst.List)):
                # `x[1], z = 7.0, 8.0`: each item target is assigned like `x[1] = 7.0`
                for el in tgt.target.elements:
                    if isinstance(el.value, cst.Subscript):
                        self._check(node, el.value, None, node.value, single=False)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Subscript):
            self._check(node, node.target, node.operator, node.value, single=True)
        elif isinstance(node.target, cst.Name):
            self._loop_element_update(node, node.target.value)

    def _loop_element_update(self, node: cst.AugAssign, name: str) -> None:
        """``for p, g in zip(params, grads): p -= lr * g``: with a JAX array element the
        augmented assignment makes a new array and rebinds the loop variable; the
        container it came from keeps the old one (NumPy arrays were updated in place)."""
        ctx = self.ctx
        if not ctx.loop_stack:
            return
        loop = ctx.loop_stack[-1].node
        if type(loop) is not cst.For or not any(
                type(n) is cst.Name and n.value == name for n in (loop.target, *descendants(loop.target))):
            return
        if ctx.value(node.target).kind != V.ARRAY:
            return
        body = loop.body.body if isinstance(loop.body, cst.IndentedBlock) else [loop.body]
        top = next((st for st in body if st is node or any(n is node for n in descendants(st))), None)
        if top is None or type(top) is not cst.SimpleStatementLine or top.body[-1] is not node:
            return  # inside an `if`/`with` of the body, or followed by more on its line: left alone
        after = body[body.index(top) + 1:]
        if any(type(n) is cst.Name and n.value == name for st in after for n in descendants(st)):
            return  # the new array is read (or stored) later in the body
        it = loop.iter
        if type(it) is cst.Call and ctx.builtin_name(it.func) == "zip":
            source = next((a.value for a, t in zip(it.args, _targets(loop.target))
                           if t == name and not a.star and a.keyword is None), None)
        elif type(loop.target) is cst.Name:
            source = it
        else:
            source = None
        where = f"the element of `{ctx.code(source).strip()}` it came from" if source is not None else "the container's element"
        op = ctx.code(node.operator).strip()
        self.report(
            node,
            f"`{name} {op} ...` makes a new array and rebinds the loop variable `{name}`: JAX arrays "
            f"are immutable, so {where} is unchanged (a NumPy array was updated in place). Build "
            f"a new container of the updated values instead (a list comprehension over the same "
            f"iteration, or `jax.tree.map`)",
        )

    def _check(self, stmt, sub: cst.Subscript, op, value, single: bool) -> None:
        ctx = self.ctx
        base_val = ctx.value(sub.value)
        # a JAX array on some of the paths that meet above: only where the write runs on
        # every path through that join (a write under a condition of its own below it
        # may run on the NumPy paths only: `if not on_device: w[...] = 0`)
        some_paths = (base_val.kind == V.UNKNOWN and base_val.jax_on_some_path
                      and type(sub.value) is cst.Name and (ctx.bound_in_this_branch(sub.value.value)
                                                           or _loop_bodies_only(ctx.unit.node, stmt)))
        if base_val.kind != V.ARRAY and not some_paths and not ctx.attribute_holds_jax_array(sub.value):
            return
        if _string_key(sub):
            # `metrics["steps"] = ...`: no JAX array takes a string index; this one is a
            # dict (a pytree a transformation returned, taken for an array)
            return
        written = f"{ctx.code(sub.value)}[{_slice_code(ctx, sub)}]"
        flat = _flattened(ctx, sub)  # `x[0][1] = v` updates `x`: `x.at[0, 1]`
        if flat is not sub:
            sub, base_val = flat, ctx.value(flat.value)
        base = ctx.code(sub.value)
        idx = _slice_code(ctx, sub)
        method: Optional[str] = "set" if op is None else _AUG_METHODS.get(type(op))
        # `x[i] //= v`: `.at[]` has no floor_divide (nor mod, matmul, shifts, bitwise
        # ops): the new item is computed and set
        binop = None if op is None or method is not None else ctx.code(op).strip()[:-1]
        use = (f"{base} = {base}.at[{idx}].{method}(...)" if binop is None
               else f"{base} = {base}.at[{idx}].set({base}[{idx}] {binop} ...)")
        root = sub.value
        while isinstance(root, cst.Subscript) and ctx.value(root.value).kind == V.ARRAY:
            root = root.value
        if root is not sub.value:
            # `x[1:][0] = v`, `x[i][0] = v`: the write goes to a new array (`x[1:]`);
            # `x` itself is updated with one index that selects the same elements
            r = ctx.code(root)
            use = f"{r} = {r}.at[...].{method or 'set'}(...)"
            selects = f", with one index that selects what `{written}` selects"
        else:
            selects = ""
        if not selects and binop is None and isinstance(sub.value, cst.Subscript) \
                and ctx.value(sub.value.value).kind == V.TUPLE:
            # `ws[0][1] = v` of `ws = (jnp.ones(3), ...)`: the tuple's item cannot be
            # assigned either (`ws[0] = ...` raises TypeError too)
            held = ctx.code(sub.value)
            use = f"{held}.at[{idx}].{method}(...)"
            selects = f" in a new tuple in place of `{ctx.code(sub.value.value)}` (a tuple's item cannot be assigned either)"
        frozen = False
        if not selects and binop is None and isinstance(sub.value, cst.Attribute) \
                and dotted_name(sub.value.value) is not None:
            owner = ctx.value(sub.value.value)
            if owner.cls is not None and owner.cls.flat.get("reg") == "namedtuple":
                # `s.w[0] = v` of a NamedTuple: its field cannot be assigned either
                # (`s.w = ...` raises AttributeError): a new record with the field replaced
                frozen = True
                o, attr = ctx.code(sub.value.value), sub.value.attr.value
                use = f"{o} = {o}._replace({attr}={base}.at[{idx}].{method}(...))"
            elif owner.instance is not None and _flax_struct(ctx, owner.instance):
                # `s.w[0] = v` of a flax struct dataclass: `s.w = ...` raises
                # FrozenInstanceError: a new record with the field replaced
                frozen = True
                o, attr = ctx.code(sub.value.value), sub.value.attr.value
                use = f"{o} = {o}.replace({attr}={base}.at[{idx}].{method}(...))"
        if not selects and binop is None and isinstance(sub.value, cst.Name):
            loop = _values_loop(ctx, sub.value.value)
            if loop is not None:
                # `for v in d.values(): v[0] = x`: rebinding `v` leaves the dict's array as it
                # was; the update goes back into the dict
                frozen = True
                use = f"for k in {loop}: {loop}[k] = {loop}[k].at[{idx}].{method}(...)"
                selects = f" (rebinding the loop variable `{sub.value.value}` would leave `{loop}` unchanged)"
        message = (
            f"JAX arrays are immutable: `{written} {'=' if op is None else ctx.code(op).strip()} ...` "
            f"raises TypeError. Use `{use}`{selects}"
        )
        if some_paths and base_val.qualname == namespaces.DUAL:
            # built by an array namespace that is jax.numpy on some calls, NumPy on the
            # others (`xp = array_namespace(x)`): no fix either
            message = (
                f"JAX arrays are immutable: `{written} {'=' if op is None else ctx.code(op).strip()} ...` "
                f"raises TypeError on the calls where `{ctx.code(sub.value).strip()}` holds a JAX array (an "
                f"array namespace built it, `jax.numpy` on some calls and NumPy on the others). Update it "
                f"without item assignment on both (`xp.where`), or use `{use}` where the namespace is `jax.numpy`"
            )
            self.report(stmt, message, None)
            return
        if some_paths:
            # a JAX array on the paths through a branch, a NumPy array on the others: the
            # write raises on the first; `.at[]` would fail on the second, so no fix
            message = (
                f"JAX arrays are immutable: `{written} {'=' if op is None else ctx.code(op).strip()} ...` "
                f"raises TypeError on the paths where `{ctx.code(sub.value).strip()}` holds a JAX array "
                f"(a branch above binds one; the other paths leave a NumPy array). Make it one kind of "
                f"array on every path and use `{use}`, or `np.where` on both"
            )
            self.report(stmt, message, None)
            return
        the_fix = None
        rebinds_local = not isinstance(sub.value, cst.Name) or ctx.rebinding_works(sub.value.value)
        if single and dotted_name(sub.value) is not None and rebinds_local and not frozen:
            v = ctx.code(value).strip()
            if binop is not None:
                atom = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float)
                if not isinstance(value, atom) and not value.lpar:
                    v = f"({v})"  # `x[i] //= a + b` is `x[i] // (a + b)`
                new = f"{base} = {base}.at[{idx}].set({base}[{idx}] {binop} {v})"
                method = "set"
            else:
                new = f"{base} = {base}.at[{idx}].{method}({v})"
            safe = (
                base_val.local_array
                and isinstance(sub.value, cst.Name)
                and sub.value.value not in ctx.unit.global_names
                and sub.value.value not in ctx.unit.nonlocal_names
            )
            the_fix = fix(
                Applicability.SAFE if safe else Applicability.UNSAFE,
                f"Replace with `{use}`",
                Replacement(stmt, new),
            )
        self.report(stmt, message, the_fix)
