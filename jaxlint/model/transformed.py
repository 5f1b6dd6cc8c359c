"""What a transformation's result is, for the calls that apply it at once.

``jax.value_and_grad(loss_fn)(p, b)`` inside a jitted function returns the loss and
the gradients JAX computed: tracers whatever the arguments were (omnistaging: every
operation under ``jit`` is staged), unlike ``jax.jit(f)(x)``, which returns whatever
``f`` returns.  With ``has_aux=True`` the auxiliary output is ``f``'s own value, so
nothing is said of the result then.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.model import apis
from jaxlint.model import values as V
from jaxlint.model.values import Value
from jaxlint.model.scopes import bound_once
from jaxlint.model.walk import keyword_arg, positional_args

# transformations whose result is the derivative (and value) computed by JAX
DIFFERENTIATING = frozenset({
    "jax.grad", "jax.value_and_grad", "jax.jacfwd", "jax.jacrev", "jax.jacobian", "jax.hessian",
    "equinox.filter_grad", "equinox.filter_value_and_grad",
    "flax.nnx.grad", "flax.nnx.value_and_grad",
})


def differentiates(transform: str, call: cst.Call) -> bool:
    """Does ``call`` (``jax.grad(f, ...)``, the transformation applied to ``f``) make a
    function whose every output JAX computes (no ``has_aux`` other than a literal False)?"""
    if apis.canonical(transform) not in DIFFERENTIATING:
        return False
    aux = keyword_arg(call, "has_aux")
    return aux is None or (isinstance(aux.value, cst.Name) and aux.value.value == "False")


def filtered_call_arrays(interp, call: cst.Call) -> None:
    """``make_step(model, x, y)`` with ``make_step`` under ``eqx.filter_jit`` (this file's):
    the unannotated parameters a call passes an array (JAX's or NumPy's) are traced,
    those it passes a Python value stay static, as equinox filters them.  ``interp``:
    the interpreter, walking the caller (callers come first)."""
    func = call.func
    target = None
    if type(func) is cst.Name:
        v = interp.lookup(func.value)
        target = v.unit if v is not None and v.unit is not None else (
            interp.unit.lookup_def(func.value) if v is None else None)
        if target is None and v is not None and v.transform is not None:
            # `fast = named_jit(step)` ... `fast(x)`: the name bound once to the transformation
            func = bound_once(interp.index, interp.unit, func)
    if target is None and type(func) is cst.Call and (t := apis.transform_for(interp.qualname(func.func))) is not None \
            and t.filtered and func.args and func.args[0].keyword is None and type(func.args[0].value) is cst.Name:
        # `eqx.filter_vmap(step)(x)`: the function of this file it transforms
        target = interp.unit.lookup_def(func.args[0].value.value)
    if target is None or not target.filtered_params or any(a.star for a in call.args):
        return
    positional = target.positional()
    for i, arg in enumerate(positional_args(call)):
        if i < len(positional) and positional[i].name in target.filtered_params:
            _array_passed(interp, target, positional[i].name, arg.value)
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value in target.filtered_params:
            _array_passed(interp, target, arg.keyword.value, arg.value)


def _array_passed(interp, target, name: str, expr: cst.BaseExpression) -> None:
    from jaxlint.model import values as V

    value = interp.value(expr)
    if value.kind in (V.ARRAY, V.NPARRAY) or (value.traced and value.kind == V.ARRAY):
        target.traced_params.add(name)
        target.array_params.add(name)


def gradient_tree(transform: str, grad_call: cst.Call, arg: Value, traced: bool) -> Optional[Value]:
    """``jax.grad(f)(params, ...)`` (no ``argnums``, no ``has_aux``) where ``params`` is a
    dict holding arrays under literal keys: the gradients are a dict of the same keys, each
    a JAX array (``grads["w"]``), a tracer under a trace; else None (unknown)."""
    if apis.canonical(transform) != "jax.grad" or len(grad_call.args) != 1 or grad_call.args[0].keyword is not None:
        return None
    # (a tuple or list of arrays under a key: not followed)
    leaves = tuple(f for f in arg.fields or () if f[1].kind not in (V.TUPLE, V.LIST) or f[1].traced)
    if arg.kind != V.LIST or not leaves or not all(
            n[:1] == "[" and fv.kind in (V.ARRAY, V.NPARRAY) for n, fv in leaves):
        return None
    # every value a JAX array (`arg.item`): so is every gradient, whichever key reads it
    item = Value(kind=V.ARRAY, traced=traced) if arg.item is not None and arg.item.kind == V.ARRAY \
        and not arg.item.traced else None
    return Value(kind=V.LIST, fields=tuple((n, Value(kind=V.ARRAY, traced=traced)) for n, _ in leaves),
                 item=item, pytype="dict")
