"""JAX130 list-passed-to-jnp: A Python list/tuple passed as an array argument to a `jax.numpy` function raises TypeError."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Replacement, Rule, Valid, fix
from jaxlint.findings import Applicability, Severity
from jaxlint.model import values as V


# jax.numpy functions that reject list/tuple array arguments (checked against
# jax 0.10.2: "<name> requires ndarray or scalar arguments, got <class 'list'>"),
# with the positional indices that are array operands.
_UNARY = (
    "sum prod mean max min std var median argmax argmin all any cumsum cumprod nansum nanmean "
    "nanmax nanmin nanstd nanvar nanprod exp exp2 log log2 log10 sin cos tan tanh sinh cosh arcsin "
    "arccos arctan sqrt cbrt abs absolute square negative sign floor ceil round rint log1p expm1 "
    "isnan isfinite isinf clip diag diagonal trace transpose ravel reshape sort argsort flip "
    "squeeze expand_dims nonzero unique cumulative_sum count_nonzero ptp real imag conj "
    "conjugate angle roll tile repeat pad take zeros_like ones_like full_like empty_like "
    "linalg.norm linalg.inv linalg.det linalg.eigh linalg.svd linalg.cholesky linalg.qr "
    "fft.fft fft.ifft fft.rfft fft.irfft"
).split()
_BINARY = (
    "add subtract multiply divide true_divide floor_divide power mod remainder maximum minimum "
    "dot matmul inner outer vdot isclose allclose equal not_equal less less_equal greater "
    "greater_equal arctan2 hypot logaddexp kron convolve cross isin searchsorted digitize "
    "percentile quantile logical_and logical_or logical_xor bitwise_and bitwise_or"
).split()
ARRAY_POSITIONS: dict[str, tuple[int, ...]] = {f"jax.numpy.{n}": (0,) for n in _UNARY}
ARRAY_POSITIONS.update({f"jax.numpy.{n}": (0, 1) for n in _BINARY})
ARRAY_POSITIONS["jax.numpy.where"] = (0, 1, 2)
# the indices of `take`, the repeats of `repeat`; NumPy's in-place writers (`jnp.put`)
ARRAY_POSITIONS.update({"jax.numpy.take": (0, 1), "jax.numpy.repeat": (0, 1)})
ARRAY_POSITIONS.update({f"jax.numpy.{n}": (0, 1, 2) for n in ("put", "place", "put_along_axis")})
ARRAY_POSITIONS["jax.numpy.fill_diagonal"] = (0, 1)
# more of jax.numpy, measured on JAX 0.10.2: each called with a Python list at these
# positions (arrays elsewhere) raises "<name> requires ndarray or scalar arguments"
_UNARY_MORE = (
    "acos acosh amax amin arccosh arcsinh arctanh argwhere around asin asinh atan atanh bincount "
    "bitwise_count bitwise_invert bitwise_not copy corrcoef cov cumulative_prod deg2rad degrees "
    "diag_indices_from diagflat diff ediff1d fabs flatnonzero fliplr flipud frexp histogram histogram_bin_edges "
    "histogramdd i0 invert iscomplex isneginf isposinf isreal logical_not matrix_transpose modf nan_to_num "
    "nanargmax nanargmin nancumprod nancumsum nanmedian packbits poly polyder polyint positive rad2deg radians "
    "reciprocal roots rot90 signbit sinc sort_complex spacing trapezoid tril tril_indices_from trim_zeros triu "
    "triu_indices_from trunc unique_all unique_counts unique_inverse unique_values unpackbits unstack unwrap vander "
    "array_split astype broadcast_to choose dsplit hsplit permute_dims split unravel_index vsplit "
    "linalg.cond linalg.diagonal linalg.eig linalg.eigvals linalg.eigvalsh linalg.matrix_norm linalg.matrix_rank "
    "linalg.matrix_transpose linalg.pinv linalg.slogdet linalg.svdvals linalg.tensorinv linalg.trace "
    "linalg.vector_norm fft.fft2 fft.fftn fft.fftshift fft.hfft fft.ifft2 fft.ifftn fft.ifftshift fft.irfft2 "
    "fft.irfftn fft.rfft2 fft.rfftn"
).split()
_BINARY_MORE = (
    "append atan2 bitwise_left_shift bitwise_right_shift bitwise_xor compress copysign correlate delete divmod "
    "extract float_power fmax fmin fmod gcd heaviside histogram2d intersect1d lcm ldexp left_shift linspace "
    "logaddexp2 matvec nanpercentile nanquantile nextafter polyadd polydiv polymul polysub polyval pow right_shift "
    "setdiff1d setxor1d take_along_axis tensordot union1d vecdot vecmat linalg.cross linalg.lstsq linalg.matmul "
    "linalg.outer linalg.solve linalg.tensordot linalg.tensorsolve linalg.vecdot"
).split()
for _n in _UNARY_MORE:
    ARRAY_POSITIONS.setdefault(f"jax.numpy.{_n}", (0,))
for _n in _BINARY_MORE:
    ARRAY_POSITIONS.setdefault(f"jax.numpy.{_n}", (0, 1))
ARRAY_POSITIONS.setdefault("jax.numpy.full", (1,))  # the fill value (the shape may be a list)
# functions of any number of arrays (each positional argument is one)
for _n in ("meshgrid", "broadcast_arrays", "atleast_1d", "atleast_2d", "atleast_3d", "ix_"):
    ARRAY_POSITIONS.setdefault(f"jax.numpy.{_n}", tuple(range(8)))
# functions joining a sequence of arrays: a list or tuple of them is fine, a Python list
# among them raises (`jnp.concatenate([[], [1]], 0)`: "concatenate requires ndarray or
# scalar arguments, got <class 'list'> at position 0", JAX 0.10.2)
# jax.numpy's shape queries hand a non-array argument to NumPy (`np.ndim(list)`)
SHAPE_QUERIES = frozenset({"jax.numpy.ndim", "jax.numpy.shape", "jax.numpy.size"})
SEQUENCE_OF_ARRAYS = frozenset(f"jax.numpy.{n}" for n in (
    "concatenate", "concat", "stack", "vstack", "hstack", "dstack", "column_stack"))
# array methods whose first argument is an array operand: `x.take([4])` raises as
# `jnp.take(x, [4])` does (JAX 0.10.2)
ARRAY_METHODS = frozenset({"take", "repeat", "searchsorted", "dot"})
# keyword names of the array operands
_ARRAY_KEYWORDS = frozenset({"a", "x", "x1", "x2", "ar", "ar1", "ar2", "m", "indices", "ind", "v", "vals", "values", "mask", "arr", "val"})


class ListToJnpFunction(Rule):
    code = "JAX130"
    name = "list-passed-to-jnp"
    runtime_check = '`jax.jit(f).trace(...)`: confirmed when `TypeError` (a list passed to `jax.numpy`) is raised at the flagged line.'
    summary = "A Python list/tuple passed as an array argument to a `jax.numpy` function raises TypeError"
    severity = Severity.ERROR
    seed = "The Sharp Bits § Non-array inputs: NumPy vs. JAX (seed 000); tutorial § jnp.diag of a list (seed 002)"
    what_it_does = (
        "Flags list and tuple displays (`[1, 2, 3]`, `(a, b)`), list comprehensions and names "
        "bound to them (a name bound once to a comprehension or `list(...)`: `grads = "
        "[jax.grad(loss)(w, x) for x in batches]` then `jnp.mean(grads, axis=0)`), and the values the model "
        "shows are Python lists wherever they come from: a helper's return (in this module or another, "
        "also one that never imports JAX), a module constant of another module, an attribute `__init__` "
        "sets once, what a method returns, a parameter every caller gives a list; passed as an *array operand* of a `jax.numpy` function that rejects "
        "them: reductions (`sum`, `mean`, `max`...), element-wise functions (`exp`, `sqrt`, "
        "`add`, `maximum`...), `diag`, `sort`, `linalg.norm`, `where`, ...; the indices of `take`, the repeats of "
        "`repeat`, the operands of `put`/`place`/`put_along_axis`/`fill_diagonal`, and the "
        "first argument of the JAX array methods `x.take`, `x.repeat`, `x.searchsorted`, "
        "`x.dot`; the table holds every `jax.numpy` (and `linalg`, `fft`) function measured on JAX 0.10.2 "
        "to raise for a list at those positions (`diff`, `tril`, `nan_to_num`, `linspace`, "
        "`tensordot`, `linalg.solve`, `fft.fft2`, each argument of `meshgrid`/`broadcast_arrays`/"
        "`atleast_1d`...). Also a Python list or tuple among the arrays a joining function takes "
        "(`jnp.concatenate([[], [1]], 0)`, `jnp.stack([x, (3.0, 4.0)])`; also `concat`, `vstack`, "
        "`hstack`, `dstack`, `column_stack`), and, in traced code, `jnp.ndim`/`jnp.shape`/`jnp.size` "
        "of a list or tuple display holding a traced array or one made in the trace "
        "(`jnp.ndim([jnp.ones(1)])` under jit: NumPy converts each element, TracerArrayConversionError). "
        "Shape, axis, "
        "index and width arguments (`jnp.zeros((2, 3))`, `axis=(0, 1)`, `jnp.pad(x, ((1, 1),))`) "
        "and the sequence a function is made to take (`jnp.array`, `asarray`, the list of arrays of "
        "`stack`/`concatenate`, `block`, `select`, `einsum` operands...) are not checked."
    )
    why_bad = (
        "Unlike NumPy, `jax.numpy` does not convert lists implicitly, because a list of values "
        "would become one traced input per element (a 10-element list gives 10 jaxpr inputs and "
        "22 equations instead of 1 and 2). It raises:\n\n"
        "```\nTypeError: sum requires ndarray or scalar arguments, got <class 'list'> at position 0.\n```"
    )
    use_instead = "```python\ntotal = jnp.sum(jnp.asarray([1, 2, 3]))\nd = jnp.diag(jnp.array([1., 2., 3.]))\n```"
    fix_safety = (
        "The fix wraps the argument in `jnp.asarray(...)` (with the module alias the call uses). "
        "It is **safe**: the original call always raises, and `asarray` is exactly the "
        "conversion NumPy would have done. It is only offered when the function is called as "
        "an attribute of the `jax.numpy` module (`jnp.sum`), or, for an array method "
        "(`x.take([4])`), when the file imports `jax.numpy`."
    )
    VALID = [
        Valid(
            """
            import jax.numpy as jnp

            t = jnp.sum(jnp.array([1, 2, 3]))
            z = jnp.zeros((2, 3)).sum(axis=(0, 1))
            s = jnp.stack([t, t])
            c = jnp.concatenate([s, s])
            """
        ),
        Valid(
            """
            import jax.numpy as jnp

            x = jnp.ones((2, 3))
            y = jnp.reshape(x, (3, 2))
            z = jnp.pad(x, ((1, 1), (0, 0)))
            w = jnp.transpose(x, (1, 0))
            v = jnp.tile(x, (2, 1))
            """
        ),
        # NumPy accepts lists
        Valid(
            """
            import numpy as np

            t = np.sum([1, 2, 3])
            """
        ),
        # a name rebound to an array
        Valid(
            """
            import jax.numpy as jnp

            xs = [1.0, 2.0]
            xs = jnp.asarray(xs)
            m = jnp.mean(xs)
            """
        ),
        # a method given an array; a list's own methods; reshape/transpose take sequences
        Valid(
            """
            import jax.numpy as jnp

            x = jnp.array([[1, 2, 3], [4, 5, 6]])
            row = x.take(jnp.array([1]), axis=0)
            flat = x.reshape([6]).transpose([0])
            names = ["a", "b"]
            i = names.index("b")
            """
        ),
    ]

    INVALID = [
        Invalid(
            """
            import jax.numpy as jnp

            print(jnp.sum([1, 2, 3]))
            """,
            expected=[(3, 15)],
            messages=[
                "`jnp.sum` does not accept a Python list: this raises `TypeError: sum requires ndarray or scalar arguments, got <class 'list'>`. Convert it first with `jnp.asarray(...)`",
            ],
            fixed="""
            import jax.numpy as jnp

            print(jnp.sum(jnp.asarray([1, 2, 3])))
            """,
        ),
        Invalid(
            """
            import jax.numpy as jnp

            losses = []
            for i in range(3):
                losses.append(float(i))
            m = jnp.mean(losses)
            d = jnp.diag((1., 2., 3.))
            """,
            expected=[(6, 14), (7, 15)],
            messages=[
                "`jnp.mean` does not accept a Python list: this raises `TypeError: mean requires ndarray or scalar arguments, got <class 'list'>`. Convert it first with `jnp.asarray(...)`",
                "`jnp.diag` does not accept a Python tuple: this raises `TypeError: diag requires ndarray or scalar arguments, got <class 'tuple'>`. Convert it first with `jnp.asarray(...)`",
            ],
            fixed="""
            import jax.numpy as jnp

            losses = []
            for i in range(3):
                losses.append(float(i))
            m = jnp.mean(jnp.asarray(losses))
            d = jnp.diag(jnp.asarray((1., 2., 3.)))
            """,
        ),
        # lists the model shows through a helper's return and an attribute set in `__init__`
        Invalid(
            """
            import jax.numpy as jnp


            def class_weights(counts):
                total = sum(counts)
                return [total / (len(counts) * c) for c in counts]


            class Scaler:
                def __init__(self):
                    self.levels = [1.0, 10.0, 100.0]


            w = jnp.sum(class_weights([10, 5, 1]))
            m = jnp.max(Scaler().levels)
            """,
            expected=[(14, 13), (15, 13)],
            messages=[
                "`jnp.sum` does not accept a Python list: this raises `TypeError: sum requires ndarray or scalar arguments, got <class 'list'>`. Convert it first with `jnp.asarray(...)`",
                "`jnp.max` does not accept a Python list: this raises `TypeError: max requires ndarray or scalar arguments, got <class 'list'>`. Convert it first with `jnp.asarray(...)`",
            ],
            fixed="""
            import jax.numpy as jnp


            def class_weights(counts):
                total = sum(counts)
                return [total / (len(counts) * c) for c in counts]


            class Scaler:
                def __init__(self):
                    self.levels = [1.0, 10.0, 100.0]


            w = jnp.sum(jnp.asarray(class_weights([10, 5, 1])))
            m = jnp.max(jnp.asarray(Scaler().levels))
            """,
        ),
        # a function of a submodule (`jnp.linalg.norm`): reported without a fix, which is
        # offered only for `jnp.<name>` calls
        Invalid(
            """
            import jax.numpy as jnp

            def dist(a, b):
                return jnp.linalg.norm([a[0] - b[0], a[1] - b[1]])
            """,
            expected=[(4, 28)],
            messages=[
                "`jnp.linalg.norm` does not accept a Python list: this raises `TypeError: norm requires ndarray or scalar arguments, got <class 'list'>`. Convert it first with `jnp.asarray(...)`",
            ],
        ),
        # the indices of a JAX array's `take`; an operand of `jnp.put`
        Invalid(
            """
            import jax.numpy as jnp

            x = jnp.array([[1, 2, 3], [4, 5, 6]])
            row = x.take([1], axis=0)
            a = jnp.put(jnp.zeros(5), [0, 2], 1.0, inplace=False)
            """,
            expected=[(4, 14), (5, 27)],
            messages=[
                "`.take()` of a JAX array does not accept a Python list: this raises `TypeError: take requires ndarray or scalar arguments, got <class 'list'>`. Convert it first with `jnp.asarray(...)`",
                "`jnp.put` does not accept a Python list: this raises `TypeError: put requires ndarray or scalar arguments, got <class 'list'>`. Convert it first with `jnp.asarray(...)`",
            ],
            fixed="""
            import jax.numpy as jnp

            x = jnp.array([[1, 2, 3], [4, 5, 6]])
            row = x.take(jnp.asarray([1]), axis=0)
            a = jnp.put(jnp.zeros(5), jnp.asarray([0, 2]), 1.0, inplace=False)
            """,
        ),
    ]

    def _is_sequence(self, e: cst.CSTNode) -> Optional[str]:
        if isinstance(e, cst.List) or isinstance(e, cst.ListComp):
            return "list"
        if isinstance(e, cst.Tuple):
            return "tuple"
        if isinstance(e, (cst.Name, cst.Call, cst.Subscript, cst.Attribute)):
            v = self.ctx.value(e)
            if isinstance(e, cst.Name) and v.kind == V.LIST and v.elements is not None:
                return "list"
            if isinstance(e, cst.Name) and v.kind == V.TUPLE and v.elements is not None:
                return "tuple"
            if v.pytype in ("list", "tuple") and v.kind in (V.UNKNOWN, V.LIST, V.ARRAYS):
                # what the model knows is a Python list: `jax.tree_util.tree_leaves(g)`,
                # `tree_flatten(g)[0]`, `list(...)`, a helper (here or imported) returning one
                return v.pytype
            if isinstance(e, cst.Name):
                return self._bound_to_list(e)
        return None

    def _bound_to_list(self, name: cst.Name) -> Optional[str]:
        """A name bound once, in its scope, to a list comprehension or `list(...)`:
        `grads = [jax.grad(loss)(w, x) for x in batches]`, `rows = list(map(f, xs))`."""
        u = self.ctx.unit
        while u is not None:
            if u.param(name.value) is not None:
                return None  # a parameter: what the callers give
            binds = u.bindings.get(name.value)
            if not binds and name.value in u.assigned:
                return None  # bound here otherwise (`x, mask = inp` in a scan body): not the list
            if binds:
                if len(binds) != 1:
                    return None
                value = binds[0][1]
                if isinstance(value, cst.ListComp):
                    return "list"
                if (isinstance(value, cst.Call) and self.ctx.builtin_name(value.func) == "list"
                        and len(value.args) == 1 and not value.args[0].star):
                    return "list"
                return None
            u = u.parent
        return None

    def _method(self, node: cst.Call, func: cst.Attribute) -> None:
        """`x.take([4], axis=0)` on a JAX array."""
        ctx = self.ctx
        m = func.attr.value
        if m not in ARRAY_METHODS or ctx.value(func.value).kind != V.ARRAY:
            return
        pos = [a for a in node.args if a.keyword is None]
        if not pos or pos[0].star:
            return
        what = self._is_sequence(pos[0].value)
        if what is None:
            return
        the_fix = None
        mod = self.module_alias("jax.numpy")
        if mod is not None:
            wrapped = cst.parse_expression(f"{mod}.asarray({ctx.code(pos[0].value).strip()})")
            args = [a.with_changes(value=wrapped) if a is pos[0] else a for a in node.args]
            the_fix = fix(Applicability.SAFE, "Convert with `jnp.asarray`",
                          Replacement(node, node.with_changes(args=args, lpar=(), rpar=())))
        self.report(
            pos[0].value,
            f"`.{m}()` of a JAX array does not accept a Python {what}: this raises `TypeError: {m} "
            f"requires ndarray or scalar arguments, got <class '{what}'>`. Convert it first with "
            "`jnp.asarray(...)`",
            the_fix,
        )

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        q = ctx.qualname(node.func)
        positions = ARRAY_POSITIONS.get(q or "")
        if q in SEQUENCE_OF_ARRAYS:
            self._joined(node, q)
            return
        if q in SHAPE_QUERIES:
            self._shape_query(node, q)
            return
        if positions is None:
            if q is None and isinstance(node.func, cst.Attribute):
                self._method(node, node.func)
            return
        short = q[len("jax.numpy."):]  # type: ignore[index]
        i = 0
        for arg in node.args:
            if arg.star:
                return
            if arg.keyword is None:
                check = i in positions
                i += 1
            else:
                check = arg.keyword.value in _ARRAY_KEYWORDS
            if not check:
                continue
            what = self._is_sequence(arg.value)
            if what is None:
                continue
            self.report(
                arg.value,
                f"`jnp.{short}` does not accept a Python {what}: this raises `TypeError: {short.rsplit('.', 1)[-1]} "
                f"requires ndarray or scalar arguments, got <class '{what}'>`. Convert it first "
                "with `jnp.asarray(...)`",
                self._fix(node, arg),
            )

    def _shape_query(self, node: cst.Call, q: str) -> None:
        """``jnp.ndim([jnp.ones(1)])`` in traced code: ``jnp.ndim``/``shape``/``size`` of a
        Python list or tuple hands it to NumPy, which converts each element; a JAX array
        made or received in the trace is a tracer there (JAX 0.10.2:
        TracerArrayConversionError)."""
        ctx = self.ctx
        if not ctx.in_traced or not node.args or node.args[0].keyword is not None or node.args[0].star:
            return
        seq = node.args[0].value
        if not isinstance(seq, (cst.List, cst.Tuple)):
            return
        for el in seq.elements:
            if not isinstance(el, cst.Element):
                return
            v = ctx.value(el.value)
            if v.traced or (v.kind == V.ARRAY and isinstance(el.value, cst.Call)):
                short = q[len("jax.numpy."):]
                what = "list" if isinstance(seq, cst.List) else "tuple"
                self.report(
                    seq,
                    f"`jnp.{short}` of a Python {what} hands it to NumPy, which converts each element: "
                    f"`{ctx.code(el.value).strip()}` is a JAX array in traced `{ctx.unit.name}`, a tracer "
                    f"there, so this raises TracerArrayConversionError. Stack the arrays first "
                    f"(`jnp.stack(...)`) or read `len(...)` and the elements' `.ndim`/`.shape`",
                )
                return

    def _joined(self, node: cst.Call, q: str) -> None:
        """``jnp.concatenate([[], [1]], 0)``: a Python list or tuple among the arrays a
        joining function takes (its first argument, a list or tuple display)."""
        first = next((a for a in node.args if a.keyword is None or a.keyword.value in ("arrays", "tup")), None)
        if first is None or first.star or not isinstance(first.value, (cst.List, cst.Tuple)):
            return
        short = q[len("jax.numpy."):]
        for position, el in enumerate(first.value.elements):
            if not isinstance(el, cst.Element):
                return  # `*rest`: the positions after it are unknown
            what = self._is_sequence(el.value)
            if what is None:
                continue
            self.report(
                el.value,
                f"`jnp.{short}` does not accept a Python {what} among the arrays it joins: this raises "
                f"`TypeError: {short} requires ndarray or scalar arguments, got <class '{what}'> at position "
                f"{position}`. Convert it first with `jnp.asarray(...)`",
            )
            return

    def _fix(self, call: cst.Call, arg: cst.Arg):
        ctx = self.ctx
        func = call.func
        if not isinstance(func, cst.Attribute) or ctx.qualname(func.value) != "jax.numpy":
            return None
        mod = ctx.code(func.value).strip()
        inner = ctx.code(arg.value).strip()
        wrapped = cst.parse_expression(f"{mod}.asarray({inner})")
        args = [a.with_changes(value=wrapped) if a is arg else a for a in call.args]
        # rewrite the whole call: a parenthesized tuple's own range excludes its parentheses
        new = call.with_changes(args=args, lpar=(), rpar=())
        return fix(Applicability.SAFE, "Convert with `jnp.asarray`", Replacement(call, new))
