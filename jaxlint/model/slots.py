"""Callback slots of libraries: arguments that take a function the library calls later
with values of its own, inside code that runs traced.

An optax optimizer's ``learning_rate`` (and every other ``ScalarOrSchedule``/``Schedule``
argument) may be a schedule: the optimizer's ``update`` calls it with the step count, a
JAX array of its state, and ``update`` runs inside the user's jitted training step
(``state.apply_gradients``, ``tx.update``).  So the schedule's body runs traced: a Python
``if step < warmup:`` in it raises TracerBoolConversionError.  The same holds for the
schedules ``optax.join_schedules`` joins and for the hyperparameters
``optax.inject_hyperparams(opt)(...)`` is given as functions.

Each slot is a ``Transform`` (model/apis.py) that traces the one argument the library
passes (``arity=1``), with ``role`` naming it in messages; model/index.py adds a
transformation site for the function in the slot, here or, as a fact, in the module
that defines it.  The table was read from optax 0.2.8's public functions
(``inspect.signature``: the parameters annotated ``ScalarOrSchedule``/``Schedule``);
tests/test_recall_mechanisms_o.py checks it against the installed optax."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.model.apis import Transform

# public optax function -> the parameters (position, name) that take a schedule
OPTAX_SCHEDULE_SLOTS: dict[str, tuple[tuple[Optional[int], str], ...]] = {
    "optax.adabelief": ((0, "learning_rate"),),
    "optax.adadelta": ((0, "learning_rate"), (3, "weight_decay")),
    "optax.adafactor": ((0, "learning_rate"), (8, "weight_decay_rate")),
    "optax.adagrad": ((0, "learning_rate"),),
    "optax.adam": ((0, "learning_rate"),),
    "optax.adamax": ((0, "learning_rate"),),
    "optax.adamaxw": ((0, "learning_rate"), (4, "weight_decay")),
    "optax.adamw": ((0, "learning_rate"), (6, "weight_decay")),
    "optax.adan": ((0, "learning_rate"), (6, "weight_decay")),
    "optax.add_decayed_weights": ((0, "weight_decay"),),
    "optax.amsgrad": ((0, "learning_rate"),),
    "optax.fromage": ((0, "learning_rate"),),
    "optax.lamb": ((0, "learning_rate"), (5, "weight_decay")),
    "optax.lars": ((0, "learning_rate"), (1, "weight_decay")),
    "optax.lbfgs": ((0, "learning_rate"),),
    "optax.lion": ((0, "learning_rate"), (4, "weight_decay")),
    "optax.nadam": ((0, "learning_rate"),),
    "optax.nadamw": ((0, "learning_rate"), (6, "weight_decay")),
    "optax.noisy_sgd": ((0, "learning_rate"),),
    "optax.novograd": ((0, "learning_rate"), (5, "weight_decay")),
    "optax.optimistic_adam_v2": ((0, "learning_rate"),),
    "optax.optimistic_gradient_descent": ((0, "learning_rate"), (1, "alpha"), (2, "beta")),
    "optax.polyak_sgd": ((1, "scaling"),),
    "optax.radam": ((0, "learning_rate"),),
    "optax.rmsprop": ((0, "learning_rate"),),
    "optax.scale_by_learning_rate": ((0, "learning_rate"),),
    "optax.scale_by_schedule": ((0, "step_size_fn"),),
    "optax.sgd": ((0, "learning_rate"),),
    "optax.sign_sgd": ((0, "learning_rate"),),
    "optax.signum": ((0, "learning_rate"),),
    "optax.yogi": ((0, "learning_rate"),),
    "optax.contrib.acprop": ((0, "learning_rate"),),
    "optax.contrib.ademamix": ((0, "learning_rate"), (3, "b3"), (4, "alpha")),
    "optax.contrib.adopt": ((0, "learning_rate"),),
    "optax.contrib.cocob": ((0, "learning_rate"),),
    "optax.contrib.dadapt_adamw": ((0, "learning_rate"),),
    "optax.contrib.dog": ((0, "learning_rate"),),
    "optax.contrib.dowg": ((0, "learning_rate"),),
    "optax.contrib.dpsgd": ((0, "learning_rate"),),
    "optax.contrib.galore": ((0, "learning_rate"),),
    "optax.contrib.madgrad": ((0, "learning_rate"),),
    "optax.contrib.momo": ((0, "learning_rate"),),
    "optax.contrib.momo_adam": ((0, "learning_rate"),),
    "optax.contrib.muon": ((0, "learning_rate"), (None, "adam_learning_rate")),
    "optax.contrib.prodigy": ((0, "learning_rate"),),
    "optax.contrib.scale_by_ademamix": ((2, "b3"), (3, "alpha")),
    "optax.contrib.scale_by_madgrad": ((0, "learning_rate"),),
    "optax.contrib.scale_by_simplified_ademamix": ((2, "alpha"),),
    "optax.contrib.schedule_free": ((1, "learning_rate"),),
    "optax.contrib.simplified_ademamix": ((0, "learning_rate"), (3, "alpha")),
    "optax.contrib.sophia": ((0, "learning_rate"),),
}

# sequences of schedules: each element is one
OPTAX_SCHEDULE_LISTS: dict[str, int] = {
    "optax.join_schedules": 0,
    "optax.schedules.join_schedules": 0,
}

# `optax.inject_hyperparams(opt)(learning_rate=fn, ...)`: a hyperparameter given as a
# function is called with the step count in `update`
OPTAX_INJECTORS = frozenset({
    "optax.inject_hyperparams", "optax.inject_stateful_hyperparams",
    "optax.schedules.inject_hyperparams", "optax.schedules.inject_stateful_hyperparams",
})

_ROLE = "a schedule given to"

# `jax.tree.map(fn, tree, ...)`: `fn` runs on the leaves, now, where the call runs
TREE_MAPS = frozenset({"jax.tree_util.tree_map", "jax.tree.map", "jax.tree_map",
                       "jax.tree_util.tree_map_with_path", "jax.tree.map_with_path"})


def _slot_transform(positions: tuple[int, ...], names: tuple[str, ...], lists: tuple[int, ...] = ()) -> Transform:
    return Transform(fn_args=positions, fn_kwargs=names, fn_list_args=lists, wrapper=False, arity=1, role=_ROLE)


_TABLE: dict[str, Transform] = {
    q: _slot_transform(tuple(i for i, _ in slots if i is not None), tuple(n for _, n in slots))
    for q, slots in OPTAX_SCHEDULE_SLOTS.items()
}
_TABLE.update({q: _slot_transform((), ("schedules",), (i,)) for q, i in OPTAX_SCHEDULE_LISTS.items()})
_INJECTED = Transform(fn_args=(), fn_kwargs=(), wrapper=False, arity=1, role=_ROLE)

# numpyro's inference runs the model it is given under a trace (MCMC's kernels and SVI
# under jit, Predictive under vmap or lax.map; numpyro 0.22): the values of its sample
# sites are tracers there (model/evaluation.py: `numpyro.sample` without `obs`); the
# arguments the user passes on (`mcmc.run(key, x)`) are traced when they are JAX arrays
# and stay concrete as NumPy arrays or Python values, which the call does not show: they
# are left unknown (arity 0), and unknown never reports.
# Checked with numpyro 0.22: `if z > 0:` on a sample site raises
# TracerBoolConversionError under each of these; `numpyro.handlers.seed(model, 0)()` runs
# the model eagerly (concrete values)
_MODEL_ROLE = "a model given to"


def _model_slot(positions: tuple[int, ...], names: tuple[str, ...]) -> Transform:
    return Transform(fn_args=positions, fn_kwargs=names, wrapper=False, arity=0, role=_MODEL_ROLE)


NUMPYRO_MODEL_SLOTS: dict[str, Transform] = {
    "numpyro.infer.Predictive": _model_slot((0,), ("model", "guide")),
    "numpyro.infer.util.Predictive": _model_slot((0,), ("model", "guide")),
    "numpyro.infer.NUTS": _model_slot((0,), ("model",)),
    "numpyro.infer.hmc.NUTS": _model_slot((0,), ("model",)),
    "numpyro.infer.HMC": _model_slot((0,), ("model",)),
    "numpyro.infer.hmc.HMC": _model_slot((0,), ("model",)),
    "numpyro.infer.SA": _model_slot((0,), ("model",)),
    "numpyro.infer.sa.SA": _model_slot((0,), ("model",)),
    "numpyro.infer.BarkerMH": _model_slot((0,), ("model",)),
    "numpyro.infer.barker.BarkerMH": _model_slot((0,), ("model",)),
    "numpyro.infer.SVI": _model_slot((0, 1), ("model", "guide")),
    "numpyro.infer.svi.SVI": _model_slot((0, 1), ("model", "guide")),
}
_TABLE.update(NUMPYRO_MODEL_SLOTS)


def slot_for(qualname: Optional[str]) -> Optional[Transform]:
    """The slot transform of a library function whose arguments take callbacks."""
    if not qualname:
        return None
    if qualname.startswith("optax._src."):
        qualname = "optax." + qualname.rsplit(".", 1)[-1]
    return _TABLE.get(qualname) or (_INJECTED if qualname in OPTAX_INJECTORS else None)


def injected(call: cst.Call, qualname) -> Optional[tuple[str, list[cst.BaseExpression]]]:
    """``optax.inject_hyperparams(optax.adam)(learning_rate=schedule)``: (the injector's
    name, the arguments of the outer call that may be schedules)."""
    inner = call.func
    if type(inner) is not cst.Call:
        return None
    q = qualname(inner.func)
    if q not in OPTAX_INJECTORS:
        return None
    return q, [a.value for a in call.args if not a.star and type(a.value) in (cst.Name, cst.Lambda, cst.Attribute, cst.Call)]
