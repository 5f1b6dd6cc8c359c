"""Functions differentiated outside jit: tracers that hold concrete values.

``jax.grad(f)(x)`` (``value_and_grad``, ``jacfwd``/``jacrev``/``hessian``, ``jvp``,
``vjp``, ``linearize``, and the equinox/flax spellings) calls ``f`` at once with JVP
or linearize tracers wrapping the concrete arguments.  With no jit/vmap/scan around
(checked with jax 0.10.2):

* Python control flow and integer conversions work: ``if x > 0:``, ``int(x)``,
  ``x.item()``, ``range(int(x))``, shapes and indexes see the value;
* ``float(x)``, ``complex(x)`` and ``x.tolist()`` of a differentiated value raise
  ConcretizationTypeError all the same (JAX will not drop the derivative);
* NumPy conversion raises (``np.asarray(x)``, ``np.power(x, 2)``:
  TracerArrayConversionError), and ``print(x)`` shows ``GradTracer(primal=...)``
  instead of the numbers.

The index marks such a function (``Unit.grad_params``, ``Unit.grad_reasons``) at the
site that differentiates it; the walk gives those parameters traced values and knows
the unit is ``concrete_traced`` (no abstract trace reached it), so the rules about
abstract tracers (control flow, conversions, loops, side effects) stay quiet there
while those about any tracer (NumPy, ``print``, ``float()``) report.  A helper called
from such a function with its tracers (``mark_call``) and a function defined inside it
(``mark_nested``) run with those tracers the same way.  Under jit
(``jax.jit(jax.grad(f))``, ``grad`` applied inside a jitted function) the function is
marked traced as before and its tracers are abstract.
"""

from __future__ import annotations

import re
from typing import Optional

import libcst as cst

from jaxlint.model import apis
from jaxlint.model.units import Unit
from jaxlint.model.walk import arg_at, literal_ints

# differentiate the arguments named by ``argnums`` (default 0)
_BY_ARGNUMS = frozenset({
    "jax.grad", "jax.value_and_grad", "jax.jacfwd", "jax.jacrev", "jax.jacobian", "jax.hessian",
    "flax.nnx.grad", "flax.nnx.value_and_grad",
    # equinox differentiates the first argument (its inexact array leaves)
    "equinox.filter_grad", "equinox.filter_value_and_grad",
})
# call the function at once with every primal a tracer: jvp(f, primals, tangents),
# vjp(f, *primals), linearize(f, *primals)
_ALL_PRIMALS = frozenset({"jax.jvp", "jax.vjp", "jax.linearize"})
# every call that differentiates the function it is given (JAX's test helpers too)
DIFFERENTIATING = _BY_ARGNUMS | _ALL_PRIMALS | frozenset({
    "jax.test_util.check_grads", "jax.test_util.check_jvp", "jax.test_util.check_vjp",
    # the spelling of JAX's own tests (`from jax._src import test_util as jtu`)
    "jax._src.test_util.check_grads", "jax._src.test_util.check_jvp", "jax._src.test_util.check_vjp",
    "jax._src.public_test_util.check_grads", "jax._src.public_test_util.check_jvp",
    "jax._src.public_test_util.check_vjp",
})
# derivatives taken only in forward mode: the tangent of ``jnp.where(c, a, b)`` is the
# ``select`` of the branches' tangents, so a masked branch's infinite or NaN tangent is
# dropped, not multiplied by a zero cotangent (checked with jax 0.10.2:
# ``jax.jacfwd(lambda x: jnp.where(x > 0, jnp.sqrt(x), 0.))(0.)`` is 0, ``jax.jacrev`` and
# ``jax.hessian`` (jacfwd of jacrev) of it NaN).  ``linearize`` is forward mode too; its
# linear function turned into a reverse one goes through ``jax.linear_transpose``.
FORWARD_ONLY = frozenset({
    "jax.jvp", "jax.jacfwd", "jax.linearize", "equinox.filter_jvp",
    "jax.test_util.check_jvp", "jax._src.test_util.check_jvp", "jax._src.public_test_util.check_jvp",
})


def mark_site(unit: Unit, qualname: str, call: Optional[cst.Call], n_bound: int = 0,
              kw_bound: frozenset[str] = frozenset(), argnums: Optional[list[int]] = None) -> bool:
    """``unit`` is differentiated by ``qualname`` at ``call`` (None: a decorator, or a
    call in another module, whose literal ``argnums`` that module told: ``argnums``):
    mark the parameters that receive tracers.  False when ``qualname`` is not a
    differentiation that calls the function with tracers."""
    q = apis.canonical(qualname)
    if q not in _BY_ARGNUMS and q not in _ALL_PRIMALS:
        return False
    positional = unit.positional()[n_bound:]
    if unit.cls is not None and unit.positional() and unit.positional()[0].name in ("self", "cls") and n_bound == 0:
        positional = positional[1:]
    chosen: list[str] = []
    if q in _BY_ARGNUMS:
        nums: Optional[list[int]] = list(argnums) if argnums is not None else [0]
        if call is not None and not q.startswith("equinox."):
            a = arg_at(call, 1, "argnums")  # jax.grad(f, 1) / jax.grad(f, argnums=(0, 1))
            if a is not None:
                nums = literal_ints(a)
        if nums is None:
            return True  # argnums not a literal: which are tracers is unknown (unknown never reports)
        chosen = [positional[n].name for n in nums if -len(positional) <= n < len(positional)]
    else:
        chosen = [p.name for p in positional if p.default is None]
    chosen = [n for n in chosen if n not in kw_bound]
    if not chosen:
        return True
    unit.grad_params.update(chosen)
    reason = f"differentiated by {q.replace('equinox.', 'eqx.')}"
    if reason not in unit.grad_reasons:
        unit.grad_reasons.append(reason)
    return True


def differentiates(qualname: str) -> bool:
    """Does ``qualname`` call the function it is given with tracers of concrete values
    (``mark_site`` marks it): ``jax.grad``, ``value_and_grad``, ``jacrev``, ``vjp``...?"""
    q = apis.canonical(qualname)
    return q in _BY_ARGNUMS or q in _ALL_PRIMALS


def argnums_of(qualname: str, call: Optional[cst.Call]) -> Optional[list[int]]:
    """The arguments ``call`` of ``qualname`` differentiates, as ``mark_site`` reads them
    (``jax.grad(f, argnums=(0, 1))``: [0, 1]; the default [0]; None: not literals)."""
    q = apis.canonical(qualname)
    if q not in _BY_ARGNUMS or call is None or q.startswith("equinox."):
        return [0]
    a = arg_at(call, 1, "argnums")
    return [0] if a is None else literal_ints(a)


def in_reverse_mode(unit: Unit, units: list[Unit], depth: int = 0) -> bool:
    """Is ``unit`` (marked by the sites above) differentiated in reverse mode, or called
    from or defined inside such a function?  False when every derivative the file takes
    of it is forward mode only (``FORWARD_ONLY``: ``jax.jacfwd(f)``, ``jax.jvp(f, ...)``,
    ``jax.linearize``), or it has no mark.  A caller the file cannot place counts as
    reverse (unknown is no exemption)."""
    for r in unit.grad_reasons:
        if r in unit.forward_reasons:
            continue  # told by another module: its caller there is differentiated forward only
        if r.startswith("differentiated by "):
            q = r[len("differentiated by "):].replace("eqx.", "equinox.")
            if q not in FORWARD_ONLY:
                return True
            continue
        name = r[r.find("`") + 1:r.rfind("`")] if r.count("`") == 2 else None
        others = [u for u in units if u.name == name and u is not unit] if name else []
        if not others or depth > 6 or any(in_reverse_mode(o, units, depth + 1) for o in others):
            return True
    return False


def mark_call(caller: Unit, target: Unit, traced_args: list[str]) -> None:
    """``target`` (a function of this file) called from ``caller``, a function
    differentiated outside jit, with tracers for the parameters ``traced_args``."""
    if not traced_args or target is caller or target.host:
        return
    target.grad_params.update(traced_args)
    reason = f"called from differentiated `{caller.name}`"
    if reason not in target.grad_reasons:
        target.grad_reasons.append(reason)


def mark_nested(outer: Unit, inner: Unit) -> None:
    """``inner`` is defined inside ``outer``, a function differentiated outside jit:
    the tracers it captures hold concrete values as well."""
    reason = f"defined inside differentiated `{outer.name}`"
    if reason not in inner.grad_reasons:
        inner.grad_reasons.append(reason)


# what takes a derivative, by its last name (JAX's, equinox's, flax.nnx's spellings), and
# the libraries that consume gradients (an optimizer, a training loop): a file that names
# one of them may differentiate what it is given
_DERIVATIVE_NAMES = frozenset({
    "grad", "value_and_grad", "jacfwd", "jacrev", "jacobian", "hessian", "jvp", "vjp", "linearize",
    "linear_transpose", "closure_convert", "custom_vjp", "custom_jvp", "custom_gradient", "check_grads",
    "check_jvp", "check_vjp", "filter_grad", "filter_value_and_grad", "filter_jvp", "filter_vjp",
    "filter_custom_vjp", "filter_custom_jvp", "jet",
})
# libraries that differentiate what they are given (samplers by Hamiltonian dynamics,
# minimizers by gradients: numpyro's NUTS, blackjax, TFP's MCMC, `jax.scipy.optimize`
# (BFGS), netket's VMC, flowjax's training) count as well
_GRADIENT_LIBRARIES = frozenset({"optax", "jaxopt", "optimistix", "trax", "objax", "elegy", "keras", "numpyro",
                                 "blackjax", "tensorflow_probability", "netket", "flowjax"})


def names_derivative(imports, text: str, packages: frozenset[str]) -> bool:
    """Does this file name a derivative: import a differentiating transformation
    (``from jax import grad``), spell one on a module it imports (``jax.grad``,
    ``eqx.filter_value_and_grad``, ``nnx.grad``, ``jax.custom_vjp``), or import a
    library that consumes gradients (``optax``, ``jaxopt``...)?  A star import counts
    (what it binds is not known).  Read from the import table and the text: no walk.
    False shows the file takes no derivative of its own; the project's other files
    may still."""
    if imports.star:
        return True
    modules: set[str] = set()
    for local, full in imports.every_binding():
        root = full.split(".", 1)[0]
        if root in packages:
            continue
        if root in _GRADIENT_LIBRARIES or full.startswith(("flax.training", "jax.scipy.optimize")):
            return True
        if full.rsplit(".", 1)[-1] in _DERIVATIVE_NAMES and "." in full:
            return True
        modules.add(local)
    if re.search(r"\bscipy\s*\.\s*optimize\b", text):
        return True  # `jax.scipy.optimize.minimize(..., method="BFGS")` differentiates its function
    if not modules:
        return False
    pattern = r"\b(?:%s)\s*\.\s*(?:[A-Za-z_]\w*\s*\.\s*)*(?:%s)\b" % (
        "|".join(re.escape(m) for m in sorted(modules)), "|".join(sorted(_DERIVATIVE_NAMES)))
    return re.search(pattern, text) is not None
