"""What jaxlint knows about JAX's API, as data.

Qualified names here are the public spellings (``jax.jit``); ``canonical()``
maps common aliases (``jax.api.jit``, ``jax._src...``, ``jax.experimental.pjit.pjit``)
onto them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Optional

from jaxlint.model.static_args import ERRORS as STATIC_ARG_ERRORS
from jaxlint.model.static_args import STATIC_ARGS

if TYPE_CHECKING:
    import libcst as cst


@dataclass(frozen=True)
class Transform:
    """How a higher-order JAX function treats the function(s) it is given."""

    # positions of the function arguments (e.g. lax.cond: 1, 2; lax.switch: 1 holds a list)
    fn_args: tuple[int, ...] = (0,)
    # keyword names the functions may be passed by
    fn_kwargs: tuple[str, ...] = ("fun", "f")
    # True: the function's non-static parameters are abstract tracers
    traces: bool = True
    # keyword naming static positions / names (jit: static_argnums / static_argnames)
    static_argnums_kw: Optional[str] = None
    static_argnames_kw: Optional[str] = None
    # equinox-style filtering: only array arguments are traced
    filtered: bool = False
    # argument lists that are sequences of functions (lax.switch branches)
    fn_list_args: tuple[int, ...] = ()
    # the result wraps the function and is called later with the real arguments
    # (jit, vmap, grad...); False for primitives that call it now (scan, cond...)
    wrapper: bool = True
    # callbacks run on the host with concrete values
    host: bool = False
    # how many arguments a primitive passes to its body (None: as many as given)
    arity: Optional[int] = None
    # a library's callback slot (model/slots.py): how messages name the function's role
    # ("a schedule given to" optax.sgd); None: a JAX transformation
    role: Optional[str] = None


# `with jax.ensure_compile_time_eval():` runs what does not depend on a tracer eagerly:
# jnp results of concrete data are concrete arrays, even under jit
COMPILE_TIME_EVAL = frozenset({"jax.ensure_compile_time_eval", "jax.core.ensure_compile_time_eval"})

_JIT = Transform(static_argnums_kw="static_argnums", static_argnames_kw="static_argnames")
_PMAP = Transform(static_argnums_kw="static_broadcasted_argnums")
_TRACE = Transform()
_CONCRETE = Transform(traces=False)  # grad & co.: concrete tracers when used alone

TRANSFORMS: dict[str, Transform] = {
    # compilation / batching: abstract tracers
    "jax.jit": _JIT,
    "jax.pjit": _JIT,
    "jax.experimental.pjit.pjit": _JIT,
    "jax.pmap": _PMAP,
    "jax.vmap": _TRACE,
    "jax.shard_map": _TRACE,
    "jax.experimental.shard_map.shard_map": _TRACE,
    "jax.make_jaxpr": Transform(static_argnums_kw="static_argnums"),
    "jax.eval_shape": Transform(wrapper=False),
    "jax.named_call": _CONCRETE,
    # checkpoint/remat trace the function to a jaxpr even when called eagerly (jax 0.10.2:
    # `if x > 0` raises TracerBoolConversionError); defaults stay Python values
    "jax.checkpoint": Transform(static_argnums_kw="static_argnums"),
    "jax.remat": Transform(static_argnums_kw="static_argnums"),
    "jax.custom_jvp": _CONCRETE,
    "jax.custom_vjp": _CONCRETE,
    "jax.custom_gradient": _CONCRETE,
    # autodiff alone: concrete values, Python control flow works (seed: The Sharp Bits)
    "jax.grad": _CONCRETE,
    "jax.value_and_grad": _CONCRETE,
    "jax.jacfwd": _CONCRETE,
    "jax.jacrev": _CONCRETE,
    "jax.jacobian": _CONCRETE,
    "jax.hessian": _CONCRETE,
    "jax.linearize": Transform(traces=False, wrapper=False),
    "jax.jvp": Transform(traces=False, wrapper=False),
    "jax.vjp": Transform(traces=False, wrapper=False),
    # structured control flow: bodies always see abstract tracers
    "jax.lax.scan": Transform(fn_kwargs=("f",), wrapper=False, arity=2),
    "jax.lax.fori_loop": Transform(fn_args=(2,), fn_kwargs=("body_fun",), wrapper=False, arity=2),
    "jax.lax.while_loop": Transform(
        fn_args=(0, 1), fn_kwargs=("cond_fun", "body_fun"), wrapper=False, arity=1
    ),
    "jax.lax.cond": Transform(
        fn_args=(1, 2), fn_kwargs=("true_fun", "false_fun"), wrapper=False
    ),
    "jax.lax.switch": Transform(fn_args=(), fn_list_args=(1,), fn_kwargs=(), wrapper=False),
    "jax.lax.map": Transform(fn_kwargs=("f",), wrapper=False, arity=1),
    "jax.lax.associative_scan": Transform(fn_kwargs=("fn",), wrapper=False, arity=2),
    "jax.lax.custom_root": Transform(fn_args=(1, 2, 3), fn_kwargs=(), wrapper=False),
    "jax.lax.custom_linear_solve": Transform(fn_args=(0, 2), fn_kwargs=(), wrapper=False),
    "jax.lax.reduce": Transform(fn_args=(2,), fn_kwargs=("computation",), wrapper=False),
    # host callbacks: the Python function runs with concrete NumPy values
    "jax.pure_callback": Transform(traces=False, host=True, wrapper=False),
    "jax.experimental.io_callback": Transform(traces=False, host=True, wrapper=False),
    "jax.debug.callback": Transform(traces=False, host=True, wrapper=False),
    "jax.experimental.host_callback.call": Transform(traces=False, host=True, wrapper=False),
    "jax.experimental.host_callback.id_tap": Transform(traces=False, host=True, wrapper=False),
    # equinox
    "equinox.filter_jit": Transform(filtered=True),
    "equinox.filter_vmap": Transform(filtered=True),
    "equinox.filter_pmap": Transform(filtered=True),
    "equinox.filter_grad": _CONCRETE,
    "equinox.filter_value_and_grad": _CONCRETE,
    "equinox.filter_checkpoint": Transform(filtered=True),
    # equinox 0.13.8: both trace `f` to a jaxpr (`if x > 0` in it raises
    # TracerBoolConversionError even called eagerly)
    "equinox.filter_eval_shape": Transform(filtered=True, wrapper=False),
    "equinox.filter_make_jaxpr": Transform(filtered=True),
    # haliax (levanter's named-axis layer), read from its API, not installed here:
    # `named_jit` and its `filter_jit` are equinox's filter_jit with axis mapping: the
    # arguments that are arrays are traced, the rest static
    "haliax.named_jit": Transform(filtered=True),
    "haliax.filter_jit": Transform(filtered=True),
    "equinox.internal.while_loop": Transform(
        fn_args=(0, 1), fn_kwargs=("cond_fun", "body_fun"), wrapper=False
    ),
    # flax lifted transforms on functions / modules
    "flax.linen.jit": Transform(filtered=True),
    "flax.linen.vmap": Transform(filtered=True),
    "flax.linen.scan": Transform(filtered=True),
    "flax.linen.remat": _CONCRETE,
    "flax.linen.checkpoint": _CONCRETE,
    "flax.nnx.jit": Transform(filtered=True, static_argnums_kw="static_argnums",
                              static_argnames_kw="static_argnames"),
    "flax.nnx.vmap": Transform(filtered=True),
    "flax.nnx.scan": Transform(filtered=True),
    "flax.nnx.grad": _CONCRETE,
    "flax.nnx.value_and_grad": _CONCRETE,
    "flax.nnx.remat": _CONCRETE,
    # flax 0.12.8 nnx control flow and shape evaluation: lax's, graph nodes lifted (the
    # array arguments are traced; `if c > 0` in a body raises TracerBoolConversionError)
    "flax.nnx.cond": Transform(fn_args=(1, 2), fn_kwargs=("true_fun", "false_fun"), wrapper=False, filtered=True),
    "flax.nnx.switch": Transform(fn_args=(), fn_list_args=(1,), fn_kwargs=(), wrapper=False, filtered=True),
    "flax.nnx.fori_loop": Transform(fn_args=(2,), fn_kwargs=("body_fun",), wrapper=False, arity=2, filtered=True),
    "flax.nnx.while_loop": Transform(fn_args=(0, 1), fn_kwargs=("cond_fun", "body_fun"), wrapper=False,
                                     arity=1, filtered=True),
    "flax.nnx.eval_shape": Transform(filtered=True, wrapper=False),
    "flax.nnx.pmap": Transform(filtered=True),
    "flax.nnx.shard_map": Transform(filtered=True),
    # checkify traces the function to a jaxpr to add its error checks (jax 0.10.2:
    # `if x > 0` in `checkify.checkify(f)(x)` raises TracerBoolConversionError eagerly)
    "jax.experimental.checkify.checkify": Transform(fn_kwargs=("f",)),
    # chex / numpyro helpers that jit
    "chex.chexify": _CONCRETE,
    # haiku's control flow and transforms (haiku 0.0.16: the lax ones, module state threaded)
    "haiku.scan": Transform(fn_kwargs=("f",), wrapper=False, arity=2),
    "haiku.fori_loop": Transform(fn_args=(2,), fn_kwargs=("body_fun",), wrapper=False, arity=2),
    "haiku.while_loop": Transform(fn_args=(0, 1), fn_kwargs=("cond_fun", "body_fun"), wrapper=False, arity=1),
    "haiku.cond": Transform(fn_args=(1, 2), fn_kwargs=("true_fun", "false_fun"), wrapper=False),
    "haiku.switch": Transform(fn_args=(), fn_list_args=(1,), fn_kwargs=(), wrapper=False),
    "haiku.map": Transform(fn_kwargs=("f",), wrapper=False, arity=1),
    "haiku.vmap": _TRACE,
    "haiku.remat": Transform(static_argnums_kw="static_argnums"),
    # JAX functions that trace the function they are given
    # `excluded` positions are passed as they are (a set of names: all taken as static)
    "jax.numpy.vectorize": Transform(fn_kwargs=("pyfunc",), static_argnums_kw="excluded"),
    "jax.experimental.ode.odeint": Transform(fn_kwargs=("func",), wrapper=False),
    "jax.scipy.optimize.minimize": Transform(fn_kwargs=("fun",), wrapper=False),
    "jax.linear_transpose": Transform(wrapper=False),
    # Taylor-mode: `jet(f, primals, series)` traces f with JetTracers now (jax 0.10.2:
    # `if x > 0` in f raises TracerBoolConversionError, a print shows `JetTracer<~float32[]>`)
    "jax.experimental.jet.jet": Transform(wrapper=False),
    "jax.closure_convert": Transform(wrapper=False),
}

# Loop primitives that thread a carry through the functions they are given: (the
# functions' positions and keywords, the initial carry's position and keyword, the
# carry's position among each function's parameters).  The carry keeps the pytree
# structure of the initial value (a tuple stays a tuple, a list of arrays a list), each
# leaf a tracer
_FORI_CARRY = (((2, "body_fun"),), (3, "init_val"), 1)
_WHILE_CARRY = (((0, "cond_fun"), (1, "body_fun")), (2, "init_val"), 0)
_SCAN_CARRY = (((0, "f"),), (1, "init"), 0)
CARRY_LOOPS: dict[str, tuple] = {
    "jax.lax.fori_loop": _FORI_CARRY, "haiku.fori_loop": _FORI_CARRY,
    "jax.lax.while_loop": _WHILE_CARRY, "haiku.while_loop": _WHILE_CARRY,
    "jax.lax.scan": _SCAN_CARRY, "haiku.scan": _SCAN_CARRY,
}

# The jits that keep a compilation cache per function object: jitting a fresh function
# (one defined in the body of a function that runs again, a lambda, a partial) compiles
# again each time (JAX501, the project's jit builders)
CACHING_JITS = frozenset({"jax.jit", "jax.pjit", "jax.experimental.pjit.pjit", "jax.pmap",
                          "equinox.filter_jit", "equinox.filter_pmap", "flax.nnx.jit", "flax.nnx.pmap"})

# Structured loops that, called outside any trace, trace their body to a jaxpr cached per
# function object and compile the loop (``jit(scan)``, ``jit(while)``): given a new
# callable at every run (a lambda, a ``partial``, a bound method ``obj.step``, whose
# attribute access makes a new object that the cache does not keep alive), each call
# traces and compiles again (JAX 0.10.2, ``JAX_LOG_COMPILES=1``: four compiles of
# ``jit(scan)`` for four eager ``lax.scan(obj.step, ...)``, one for a module-level def or
# a method bound once before the loop).  ``lax.map`` and ``fori_loop`` with static bounds
# are scans.  Under a trace the body is traced with the enclosing function, once.
EAGER_COMPILING_LOOPS = frozenset({"jax.lax.scan", "jax.lax.fori_loop", "jax.lax.while_loop", "jax.lax.map"})


def body_functions(q: str, call: cst.Call) -> list[cst.BaseExpression]:
    """The function arguments of a call of the transformation or structured primitive
    ``q`` (``lax.scan``'s ``f``, ``while_loop``'s ``cond_fun`` and ``body_fun``), as the
    call passes them, positionally or by keyword; [] when ``q`` takes none."""
    t = TRANSFORMS.get(q)
    if t is None:
        return []
    pos = [a for a in call.args if a.keyword is None and not a.star]
    out = [pos[i].value for i in t.fn_args if i < len(pos)]
    out += [a.value for a in call.args if a.keyword is not None and a.keyword.value in t.fn_kwargs]
    return out


# Aliases that resolve to the public name.
_CANONICAL_PREFIXES = (
    ("jax._src.api.", "jax."),
    ("jax.api.", "jax."),
    ("jax._src.lax.control_flow.", "jax.lax."),
    ("jax._src.lax.lax.", "jax.lax."),
    ("jax._src.numpy.lax_numpy.", "jax.numpy."),
    ("jax._src.random.", "jax.random."),
    ("jax.experimental.maps.", "jax.experimental.maps."),
    ("flax.nn.", "flax.linen."),
    ("eqx.", "equinox."),
)

# flax's activations are jax.nn's own functions (flax 0.12.8: `flax.linen.relu is
# jax.nn.relu`, the same in `flax.linen.activation` and `flax.nnx`), so `nn.relu(h)` of a
# tracer is a tracer
FLAX_ACTIVATIONS = (
    "celu elu gelu glu hard_sigmoid hard_silu hard_swish hard_tanh leaky_relu log_sigmoid "
    "log_softmax logsumexp one_hot relu relu6 selu sigmoid silu soft_sign softmax softplus "
    "standardize swish tanh").split()

_CANONICAL_NAMES = {
    **{f"{m}.{a}": f"jax.nn.{a}" for m in ("flax.linen", "flax.linen.activation", "flax.nnx",
                                          "flax.nnx.nn.activations") for a in FLAX_ACTIVATIONS},
    "jax.lax.fori_loop": "jax.lax.fori_loop",
    "jax.numpy.jit": "jax.jit",
    "jax.ad_checkpoint.checkpoint": "jax.checkpoint",
    "jax.experimental.io_callback.io_callback": "jax.experimental.io_callback",
    "jax.random.PRNGKey": "jax.random.PRNGKey",
}


# `functools.partial` and the names JAX exported it under until 0.2.21 (`jax.partial`,
# `jax.lax.partial`): code written for those versions binds a jit's keywords with them
PARTIALS = frozenset({"functools.partial", "jax.partial", "jax.lax.partial"})


@lru_cache(maxsize=65536)
def canonical(qualname: str) -> str:
    for prefix, repl in _CANONICAL_PREFIXES:
        if qualname.startswith(prefix):
            qualname = repl + qualname[len(prefix):]
            break
    return _CANONICAL_NAMES.get(qualname, qualname)


def transform_for(qualname: Optional[str]) -> Optional[Transform]:
    if not qualname:
        return None
    return TRANSFORMS.get(canonical(qualname))


# Modules whose functions build JAX arrays (the result is a JAX array).
ARRAY_MODULES = (
    "jax.numpy.",
    "jax.lax.",
    "jax.nn.",
    "jax.scipy.",
    "jax.random.",
    "jax.image.",
    "jax.ops.",
)

# numpyro's sample statement: in a model its inference traces (model/slots.py) the value
# drawn is a tracer; `sample(name, fn, obs)` returns the observation instead
SAMPLE_SITES = frozenset({"numpyro.sample", "numpyro.primitives.sample"})

# jax.numpy / lax names whose result is a static Python value, not an array.
STATIC_RESULT_FUNCS = frozenset(
    {
        "jax.numpy.shape",
        "jax.numpy.ndim",
        "jax.numpy.size",
        "jax.numpy.dtype",
        "jax.numpy.result_type",
        "jax.numpy.promote_types",
        "jax.numpy.issubdtype",
        "jax.numpy.iinfo",
        "jax.numpy.finfo",
        "jax.numpy.can_cast",
        "jax.numpy.isdtype",
        "jax.numpy.iscomplexobj",
        "jax.numpy.isrealobj",
        "jax.numpy.isscalar",
        "jax.numpy.broadcast_shapes",
        "jax.lax.broadcast_shapes",
        "jax.lax.dtype",
        "jax.lax.axis_size",
        # a convolution's layout and shapes, computed from shapes (tuples of ints)
        "jax.lax.conv_dimension_numbers",
        "jax.lax.ConvDimensionNumbers",
        "jax.lax.padtype_to_pads",
        "jax.lax.conv_general_shape_tuple",
        "jax.lax.conv_shape_tuple",
        "jax.lax.conv_transpose_shape_tuple",
        "jax.numpy.isdtype",
        "jax.numpy.save",
        "jax.numpy.load",
        "jax.random.key_impl",
        "jax.random.default_prng_impl",
    }
)

# Functions whose result is a Python list or tuple of arrays, not one array:
# item assignment on it is ordinary Python, and its items are arrays.
# the leaves of a pytree, as a list (of tracers, for a traced argument)
TREE_LEAVES = frozenset({"jax.tree_util.tree_leaves", "jax.tree.leaves"})
# ``(leaves, treedef)``: the leaves a list (JAX 0.10.2's ``tree_flatten`` returns a list)
TREE_FLATTEN = frozenset({"jax.tree_util.tree_flatten", "jax.tree.flatten"})

ARRAY_SEQUENCE_FUNCS = frozenset(
    {
        "jax.numpy.split", "jax.numpy.array_split", "jax.numpy.hsplit", "jax.numpy.vsplit",
        "jax.numpy.dsplit", "jax.numpy.meshgrid", "jax.numpy.broadcast_arrays",
        "jax.numpy.nonzero", "jax.numpy.unravel_index", "jax.numpy.divmod", "jax.numpy.frexp",
        "jax.numpy.modf", "jax.numpy.histogram",
        "jax.numpy.tril_indices", "jax.numpy.triu_indices", "jax.numpy.diag_indices",
        "jax.numpy.mask_indices", "jax.numpy.tril_indices_from", "jax.numpy.triu_indices_from",
        "jax.numpy.linalg.eigh", "jax.numpy.linalg.eig", "jax.numpy.linalg.svd",
        "jax.numpy.linalg.qr", "jax.numpy.linalg.slogdet", "jax.numpy.linalg.lstsq",
        "jax.lax.sort_key_val", "jax.lax.top_k", "jax.lax.linalg.eigh", "jax.lax.linalg.qr",
        "jax.lax.linalg.svd", "jax.lax.linalg.lu",
    }
)
# ... when called with more than one array (``jnp.atleast_1d(a, b)``; one array: an array)
ARRAY_SEQUENCE_IF_MANY = frozenset({"jax.numpy.atleast_1d", "jax.numpy.atleast_2d", "jax.numpy.atleast_3d"})
# ... with one positional argument (``jnp.where(mask)``; three: an array)
ARRAY_SEQUENCE_IF_ONE = frozenset({"jax.numpy.where"})

# Collectives: the result has the pytree structure of the first argument (a tuple
# or dict of arrays stays one), and a Python number gives a Python number
# (``lax.psum(1, axis)`` is the axis size).
COLLECTIVES = frozenset(
    "jax.lax." + n
    for n in ("psum", "pmean", "pmax", "pmin", "all_gather", "ppermute", "psum_scatter",
              "all_to_all", "pshuffle", "pswapaxes", "pbroadcast")
)
# of those, the ones that give a Python number for a Python number
COLLECTIVES_STATIC_FOR_STATIC = frozenset({"jax.lax.psum", "jax.lax.pmean", "jax.lax.pmax", "jax.lax.pmin"})

# jax.numpy / random functions whose result is a boolean array (a mask).
BOOL_RESULT_FUNCS = frozenset(
    "jax.numpy." + n
    for n in (
        "isnan", "isfinite", "isinf", "isneginf", "isposinf", "isclose", "isin", "signbit",
        "logical_and", "logical_or", "logical_not", "logical_xor", "greater", "greater_equal",
        "less", "less_equal", "equal", "not_equal", "iscomplex", "isreal",
        # reductions of a mask (with `axis`, a mask of the other axes; jax 0.10.2:
        # `x[jnp.any(x > 0, axis=1)]` raises NonConcreteBooleanIndexError under jit)
        "any", "all",
    )
) | {"jax.random.bernoulli"} | frozenset(
    # lax's comparisons and `is_finite` return bool arrays (jax 0.10.2)
    "jax.lax." + n for n in ("eq", "ne", "lt", "le", "gt", "ge", "is_finite")
)

# jax.numpy / lax functions whose result has the dtype of their first argument when it
# is a mask (`jnp.invert(m)`, `jnp.logical_not` aside: bitwise on bools is logical)
BOOL_KEEPING_FUNCS = frozenset(
    "jax.numpy." + n for n in (
        "invert", "bitwise_not", "bitwise_and", "bitwise_or", "bitwise_xor",
        "zeros_like", "ones_like", "empty_like", "full_like", "copy", "asarray", "array",
        "ravel", "reshape", "transpose", "squeeze", "expand_dims", "broadcast_to", "tile",
        "flip", "roll", "concatenate", "stack", "hstack", "vstack", "tril", "triu",
    )
) | frozenset("jax.lax." + n for n in ("bitwise_not", "bitwise_and", "bitwise_or", "bitwise_xor"))

# The position of the `dtype` argument of the jax.numpy / lax functions that take one by
# position (jax 0.10.2 signatures); `dtype=bool` by keyword counts for any of them
DTYPE_POSITION: dict[str, int] = {
    **{"jax.numpy." + n: 1 for n in (
        "zeros", "ones", "empty", "zeros_like", "ones_like", "empty_like", "array", "asarray", "astype")},
    "jax.numpy.full": 2, "jax.numpy.full_like": 2, "jax.numpy.eye": 3, "jax.numpy.tri": 3,
    "jax.numpy.identity": 1, "jax.lax.convert_element_type": 1,
}

# Attributes of an array that are static under tracing.
STATIC_ATTRS = frozenset(
    {
        "shape",
        "ndim",
        "dtype",
        "size",
        "itemsize",
        "nbytes",
        "weak_type",
        "sharding",
        "aval",
        "devices",
        "device",
        "committed",
        "is_fully_addressable",
        "format",
        "named_shape",
    }
)

# Array methods that return arrays of the same tracedness.
ARRAY_METHODS = frozenset(
    {
        "sum", "mean", "max", "min", "prod", "std", "var", "argmax", "argmin",
        "all", "any", "cumsum", "cumprod", "reshape", "transpose", "squeeze",
        "astype", "ravel", "flatten", "clip", "round", "dot", "conj", "conjugate",
        "swapaxes", "take", "nonzero", "sort", "argsort", "repeat", "diagonal",
        "trace", "real", "imag", "T", "mT", "block_until_ready", "copy", "view",
        "ptp", "searchsorted", "squeeze", "cumulative_sum", "nansum", "max",
    }
)

# NumPy functions that forward to the array's own method (`np.sum(x)` is `x.sum()`): on a
# tracer they return a tracer instead of raising (checked on jax 0.10.2 with numpy 2.4:
# each of these runs under jit; np.ravel/np.clip/np.sort/np.diagonal... raise instead).
NUMPY_FORWARDING = frozenset(
    "sum mean max min prod std var argmax argmin cumsum cumprod all any amax amin "
    "reshape transpose round squeeze repeat flip swapaxes moveaxis real imag".split()
)

# Methods that pull a tracer into a Python value (ConcretizationTypeError).
CONCRETIZING_METHODS = frozenset({"item", "tolist", "__int__", "__float__", "__bool__"})

# Builtins that concretize their argument, and what JAX raises for each.
# The positional parameters of the jax.numpy functions that take a static `size=` (JAX
# 0.10.2's signatures, `inspect.signature`): their `size`/`length` is keyword-only, so
# `jax.jit(jnp.nonzero, static_argnums=1)` names no parameter.
JNP_POSITIONAL = {
    "jax.numpy." + name: tuple(params.split())
    for name, params in (
        ("nonzero", "a"), ("argwhere", "a"), ("flatnonzero", "a"), ("where", "condition x y"),
        ("unique", "ar return_index return_inverse return_counts axis"),
        ("unique_values", "x"), ("unique_counts", "x"), ("unique_inverse", "x"), ("unique_all", "x"),
        ("bincount", "x weights minlength"), ("setdiff1d", "ar1 ar2 assume_unique"),
        ("union1d", "ar1 ar2"), ("intersect1d", "ar1 ar2 assume_unique return_indices"),
        ("compress", "condition a axis"), ("extract", "condition arr"), ("repeat", "a repeats axis"),
    )
}

# Index builders whose slices give the length of the array they build: a traced bound or
# step raises ConcretizationTypeError under jit (jax 0.10.2: `jnp.r_[0:n]`, `jnp.c_[0:n]`,
# `jnp.mgrid[0:3, 0:n]`, `jnp.ogrid[0:n]`, `jnp.r_[0:5:n]`)
INDEX_BUILDERS = frozenset({"jax.numpy.r_", "jax.numpy.c_", "jax.numpy.mgrid", "jax.numpy.ogrid"})

# jax.numpy functions whose output size depends on the values of an input unless a flag
# says otherwise (no `size=` bound): qualname -> (the flag, the literal that makes the
# size static, whether the default does, the (position, keyword) of the inputs whose
# values decide it).  Each one, given a traced input, raises ConcretizationTypeError
# under jit (jax 0.10.2): `jnp.trim_zeros(x)` (no flag: always), `jnp.roots(p)`
# (`strip_zeros=False` is jit-compatible, its docstring), `jnp.delete(x, i)` with traced
# indices (`assume_unique_indices=True`), `jnp.polymul(a, b, trim_leading_zeros=True)`.
VALUE_SIZE_FLAGS: dict[str, tuple[Optional[str], Optional[str], bool, tuple[tuple[int, str], ...]]] = {
    "jax.numpy.trim_zeros": (None, None, False, ((0, "filt"),)),
    "jax.numpy.roots": ("strip_zeros", "False", False, ((0, "p"),)),
    "jax.numpy.delete": ("assume_unique_indices", "True", False, ((1, "obj"),)),
    "jax.numpy.polymul": ("trim_leading_zeros", "False", True, ((0, "a1"), (1, "a2"))),
}

# Array methods whose output size depends on the values: method -> (the keyword that
# bounds it, the (position, keyword) of the argument whose values decide it; None: the
# array itself).  jax 0.10.2: `x.nonzero()`, `x.compress(x > 0)` (TracerBoolConversionError),
# `x.repeat(r)` with a traced `r` raise under jit; each takes the bound (`size=`,
# `total_repeat_length=`).
SIZED_METHODS: dict[str, tuple[str, Optional[tuple[int, str]]]] = {
    "nonzero": ("size", None),
    "compress": ("size", (0, "condition")),
    "repeat": ("total_repeat_length", (0, "repeats")),
}

# Reductions whose `axis` must be a Python int (a traced axis raises; JAX 0.10.2): the
# array methods take it first, the jax.numpy functions second.  argmin/argmax raise
# TracerIntegerConversionError, the others ConcretizationTypeError.
AXIS_REDUCTIONS = frozenset(
    "min max sum mean prod std var argmin argmax any all cumsum cumprod ptp".split()
)
AXIS_FUNCTIONS = frozenset("jax.numpy." + n for n in AXIS_REDUCTIONS | frozenset(
    "nanmin nanmax nansum nanmean nanprod nanstd nanvar median nanmedian amin amax average "
    "count_nonzero nanargmin nanargmax".split()
))

CONCRETIZING_BUILTINS = {
    "int": "ConcretizationTypeError",
    "float": "ConcretizationTypeError",
    "complex": "ConcretizationTypeError",
    "range": "TracerIntegerConversionError",
    "hex": "TracerIntegerConversionError",
    "oct": "TracerIntegerConversionError",
    "bin": "TracerIntegerConversionError",
    "chr": "TracerIntegerConversionError",
}

# The `math` module's functions convert their arguments to Python floats (`__float__`) or
# ints (`__index__`): on a tracer they raise (jax 0.10.2: each called under jit).  Value: the
# JAX function to use instead.
_MATH_FLOAT = {n: "jnp." + n for n in (
    "cbrt ceil copysign cos cosh degrees exp exp2 expm1 floor fmod frexp hypot isclose isfinite "
    "isinf isnan ldexp log log10 log1p log2 modf nextafter radians remainder sin sinh sqrt tan tanh"
).split()}
_MATH_FLOAT.update({
    "acos": "jnp.arccos", "acosh": "jnp.arccosh", "asin": "jnp.arcsin", "asinh": "jnp.arcsinh",
    "atan": "jnp.arctan", "atan2": "jnp.arctan2", "atanh": "jnp.arctanh", "pow": "jnp.power",
    "fabs": "jnp.abs", "erf": "jax.scipy.special.erf", "erfc": "jax.scipy.special.erfc",
    "gamma": "jax.scipy.special.gamma", "lgamma": "jax.scipy.special.gammaln", "ulp": "jnp.spacing",
})
MATH_CONCRETIZING: dict[str, tuple[str, str]] = {
    **{"math." + n: ("ConcretizationTypeError", twin) for n, twin in _MATH_FLOAT.items()},
    **{"math." + n: ("TracerIntegerConversionError", twin) for n, twin in (
        ("comb", "jax.scipy.special.comb"), ("factorial", "jax.scipy.special.factorial"),
        ("gcd", "jnp.gcd"), ("lcm", "jnp.lcm"), ("perm", ""), ("isqrt", ""))},
}

# jax.numpy / random functions that take a shape (position, keyword).
SHAPE_ARGS: dict[str, tuple[Optional[int], str]] = {
    "jax.numpy.zeros": (0, "shape"),
    "jax.numpy.ones": (0, "shape"),
    "jax.numpy.empty": (0, "shape"),
    "jax.numpy.full": (0, "shape"),
    "jax.numpy.eye": (0, "N"),
    "jax.numpy.identity": (0, "n"),
    "jax.numpy.tri": (0, "N"),
    "jax.numpy.arange": (0, "start"),
    "jax.numpy.linspace": (2, "num"),
    "jax.numpy.logspace": (2, "num"),
    "jax.numpy.geomspace": (2, "num"),
    "jax.numpy.reshape": (1, "shape"),
    "jax.numpy.broadcast_to": (1, "shape"),
    "jax.numpy.tile": (1, "reps"),
    "jax.numpy.resize": (1, "new_shape"),
    "jax.lax.full": (0, "shape"),
    "jax.lax.broadcast": (1, "sizes"),
    "jax.lax.iota": (1, "size"),
    "jax.random.normal": (1, "shape"),
    "jax.random.uniform": (1, "shape"),
    "jax.random.bernoulli": (2, "shape"),
    "jax.random.randint": (1, "shape"),
    "jax.random.categorical": (3, "shape"),
    "jax.random.truncated_normal": (3, "shape"),
    "jax.random.gumbel": (1, "shape"),
    "jax.random.exponential": (1, "shape"),
    "jax.random.split": (1, "num"),
}

# Further arguments that fix the size of the result, beside the shape of SHAPE_ARGS
# (position, keyword); each traced one raises under jit (checked on jax 0.10.2:
# ConcretizationTypeError for arange/triu_indices/tril_indices, TypeError for the others).
MORE_SIZE_ARGS: dict[str, tuple[tuple[Optional[int], str], ...]] = {
    "jax.numpy.arange": ((1, "stop"), (2, "step")),
    "jax.numpy.eye": ((1, "M"),),
    "jax.numpy.tri": ((1, "M"),),
    "jax.numpy.triu_indices": ((0, "n"), (1, "k"), (2, "m")),
    "jax.numpy.tril_indices": ((0, "n"), (1, "k"), (2, "m")),
    # (jax 0.10.2, each traced under jit: ConcretizationTypeError for the `_from` pair and
    # scan's `length`, TypeError for the others, SIZE_ARG_ERRORS; `lax.pad`'s padding is
    # in STATIC_ARGS, model/static_args.py)
    "jax.numpy.triu_indices_from": ((1, "k"),),
    "jax.numpy.tril_indices_from": ((1, "k"),),
    "jax.numpy.diagflat": ((1, "k"),),
    "jax.lax.scan": ((3, "length"),),
    "jax.numpy.tensordot": ((2, "axes"),),
    "jax.lax.dynamic_slice": ((2, "slice_sizes"),),
    "jax.lax.dynamic_slice_in_dim": ((2, "slice_size"),),
    # the rest of the family (signatures of jax 0.10.2; each traced one raises under jit,
    # the error named in SIZE_ARG_ERRORS, TypeError otherwise)
    "jax.nn.one_hot": ((1, "num_classes"),),
    "jax.ops.segment_sum": ((2, "num_segments"),),
    "jax.ops.segment_max": ((2, "num_segments"),),
    "jax.ops.segment_min": ((2, "num_segments"),),
    "jax.ops.segment_prod": ((2, "num_segments"),),
    "jax.numpy.split": ((1, "indices_or_sections"),),
    "jax.numpy.array_split": ((1, "indices_or_sections"),),
    "jax.numpy.hsplit": ((1, "indices_or_sections"),),
    "jax.numpy.vsplit": ((1, "indices_or_sections"),),
    "jax.numpy.dsplit": ((1, "indices_or_sections"),),
    "jax.numpy.zeros_like": ((2, "shape"),),
    "jax.numpy.ones_like": ((2, "shape"),),
    "jax.numpy.empty_like": ((2, "shape"),),
    "jax.numpy.full_like": ((3, "shape"),),
    "jax.numpy.bincount": ((None, "length"),),
    "jax.numpy.nonzero": ((None, "size"),),
    "jax.numpy.flatnonzero": ((None, "size"),),
    "jax.numpy.argwhere": ((None, "size"),),
    "jax.numpy.where": ((None, "size"),),
    "jax.numpy.unique": ((None, "size"),),
    "jax.numpy.unique_values": ((None, "size"),),
    "jax.numpy.unique_counts": ((None, "size"),),
    "jax.numpy.unique_inverse": ((None, "size"),),
    "jax.numpy.unique_all": ((None, "size"),),
    "jax.numpy.setdiff1d": ((None, "size"),),
    "jax.numpy.union1d": ((None, "size"),),
    "jax.numpy.intersect1d": ((None, "size"),),
    "jax.numpy.pad": ((1, "pad_width"),),
    "jax.numpy.indices": ((0, "dimensions"),),
    "jax.numpy.diag_indices": ((0, "n"),),
    "jax.numpy.mask_indices": ((0, "n"),),
    "jax.numpy.vander": ((1, "N"),),
    "jax.numpy.diag": ((1, "k"),),
    "jax.numpy.hamming": ((0, "M"),),
    "jax.numpy.hanning": ((0, "M"),),
    "jax.numpy.blackman": ((0, "M"),),
    "jax.numpy.bartlett": ((0, "M"),),
    "jax.numpy.kaiser": ((0, "M"),),
    "jax.numpy.fft.fft": ((1, "n"),),
    "jax.numpy.fft.ifft": ((1, "n"),),
    "jax.numpy.fft.rfft": ((1, "n"),),
    "jax.numpy.fft.irfft": ((1, "n"),),
    "jax.numpy.fft.hfft": ((1, "n"),),
    "jax.numpy.fft.ihfft": ((1, "n"),),
    "jax.numpy.fft.fftn": ((1, "s"),),
    "jax.numpy.fft.ifftn": ((1, "s"),),
    "jax.numpy.fft.rfftn": ((1, "s"),),
    "jax.numpy.fft.irfftn": ((1, "s"),),
    "jax.numpy.fft.fft2": ((1, "s"),),
    "jax.numpy.fft.ifft2": ((1, "s"),),
    "jax.numpy.fft.rfft2": ((1, "s"),),
    "jax.numpy.fft.irfft2": ((1, "s"),),
    "jax.numpy.fft.fftfreq": ((0, "n"),),
    "jax.numpy.fft.rfftfreq": ((0, "n"),),
    "jax.lax.broadcasted_iota": ((1, "shape"),),
    "jax.lax.reshape": ((1, "new_sizes"),),
    "jax.lax.broadcast_in_dim": ((1, "shape"),),
    "jax.lax.full_like": ((3, "shape"),),
    "jax.lax.top_k": ((1, "k"),),
    "jax.lax.approx_max_k": ((1, "k"),),
    "jax.lax.approx_min_k": ((1, "k"),),
    "jax.image.resize": ((1, "shape"),),
    "jax.image.scale_and_translate": ((1, "shape"),),
    "jax.random.orthogonal": ((1, "n"), (2, "shape")),
    "jax.random.ball": ((1, "d"), (3, "shape")),
    **{"jax.random." + name: ((pos, "shape"),) for name, pos in (
        ("beta", 3), ("binomial", 3), ("bits", 1), ("cauchy", 1), ("chisquare", 2),
        ("choice", 2), ("dirichlet", 2), ("double_sided_maxwell", 3), ("f", 3), ("gamma", 2),
        ("generalized_normal", 2), ("geometric", 2), ("laplace", 1), ("loggamma", 2),
        ("logistic", 1), ("lognormal", 2), ("maxwell", 1), ("multinomial", None),
        ("multivariate_normal", 3), ("pareto", 2), ("poisson", 2), ("rademacher", 1),
        ("rayleigh", 2), ("t", 2), ("triangular", 4), ("wald", 2), ("weibull_min", 3),
    )},
}

# The error a traced size raises where it is not the TypeError of a traced shape
# ("Shapes must be 1D sequences of concrete values"), checked on jax 0.10.2.
_CONCRETIZATION = "ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected"
_INDEX = "TracerIntegerConversionError: The __index__() method was called on a traced array"
_UNHASHABLE = "ValueError: Non-hashable static arguments are not supported"
SIZE_ARG_ERRORS: dict[str, str] = {
    **{q: _CONCRETIZATION for q in (
        "jax.numpy.arange", "jax.numpy.linspace", "jax.numpy.logspace", "jax.numpy.geomspace",
        "jax.numpy.triu_indices", "jax.numpy.tril_indices", "jax.nn.one_hot",
        "jax.ops.segment_sum", "jax.ops.segment_max", "jax.ops.segment_min", "jax.ops.segment_prod",
        "jax.numpy.split", "jax.numpy.array_split", "jax.numpy.hsplit", "jax.numpy.vsplit",
        "jax.numpy.dsplit", "jax.numpy.bincount", "jax.numpy.nonzero", "jax.numpy.flatnonzero",
        "jax.numpy.argwhere", "jax.numpy.where", "jax.numpy.unique", "jax.numpy.unique_values",
        "jax.numpy.unique_counts", "jax.numpy.unique_inverse", "jax.numpy.unique_all",
        "jax.numpy.setdiff1d", "jax.numpy.union1d", "jax.numpy.intersect1d", "jax.numpy.pad",
        "jax.numpy.indices", "jax.numpy.diag_indices", "jax.numpy.hamming", "jax.numpy.hanning",
        "jax.numpy.blackman", "jax.numpy.bartlett", "jax.numpy.kaiser", "jax.numpy.fft.fftfreq",
        "jax.random.orthogonal", "jax.random.ball",
        "jax.numpy.triu_indices_from", "jax.numpy.tril_indices_from", "jax.lax.scan",
    )},
    "jax.numpy.tensordot": "TypeError: tensordot axes argument must be an int, a pair of ints, or a pair of lists/tuples of ints",
    **{q: _INDEX for q in (
        "jax.numpy.diag", "jax.numpy.fft.fft", "jax.numpy.fft.ifft", "jax.numpy.fft.rfft",
        "jax.numpy.fft.irfft", "jax.numpy.fft.hfft", "jax.numpy.fft.ihfft",
        *("jax.numpy.fft." + n for n in "fftn ifftn rfftn irfftn fft2 ifft2 rfft2 irfft2".split()),
    )},
    **{q: "TypeError: parameters to jaxpr equations must have __hash__ and __eq__ methods"
       for q in ("jax.lax.approx_max_k", "jax.lax.approx_min_k")},
    "jax.random.choice": "TracerBoolConversionError: Attempted boolean conversion of traced array",
    "jax.numpy.vander": _UNHASHABLE,
    "jax.lax.top_k": "TracerBoolConversionError: Attempted boolean conversion of traced array",
    "jax.numpy.fft.rfftfreq": "TracerBoolConversionError: Attempted boolean conversion of traced array",
    "jax.lax.broadcast_in_dim": "TracerBoolConversionError: Attempted boolean conversion of traced array",
}


def size_args(q: str) -> tuple[tuple[Optional[int], str], ...]:
    """Every (position, keyword) of a shape or size argument of ``q``."""
    first = SHAPE_ARGS.get(q)
    more = MORE_SIZE_ARGS.get(q, ())
    return ((first,) if first is not None else ()) + more


def static_args(q: str) -> tuple[tuple[Optional[int], str, str], ...]:
    """Every (position, keyword, error key) of an argument JAX needs as a Python value
    (not a size): `jnp.linalg.matrix_power`'s `n`, `lax.integer_pow`'s `y` (model/static_args.py)."""
    return STATIC_ARGS.get(q, ())


def static_arg_error(key: str) -> str:
    """What JAX raises for an error key of `static_args`."""
    return STATIC_ARG_ERRORS[key]


# Array methods taking a shape.
SHAPE_METHODS = {"reshape": 0, "broadcast_to": 0, "resize": 0}

# jax.random functions that consume a key (first argument, keyword "key").
# the qualified name's last part for ``getattr(jax.random, name)`` with a name not
# written as a literal: a function of jax.random chosen at run time (a sampler of a
# distribution's name); taken to consume its key, as every sampler and ``split`` do
RANDOM_BY_NAME = "<getattr>"

RANDOM_CONSUMERS = frozenset(
    {
        "ball", "bernoulli", "beta", "binomial", "bits", "categorical", "cauchy",
        "chisquare", "choice", "dirichlet", "double_sided_maxwell", "exponential",
        "f", "gamma", "generalized_normal", "geometric", "gumbel", "laplace",
        "loggamma", "logistic", "lognormal", "maxwell", "multinomial",
        "multivariate_normal", "normal", "orthogonal", "pareto", "permutation",
        "poisson", "rademacher", "randint", "rayleigh", "t", "triangular",
        "truncated_normal", "uniform", "wald", "weibull_min", "split", "shuffle",
    }
)

# Library constructors that draw their initial values from the key given as `key=`:
# equinox's layers (`eqx.nn.Linear(3, 3, key=key)`; two built with one key get the same
# weights).  Prefix of the qualified name -> how messages name it.
LIBRARY_KEY_CONSUMER_PREFIXES = {"equinox.nn.": "eqx.nn."}


# library constructors that draw from ``key=`` only when they are not given the values
# themselves: (the parameter holding those values, its position)
LIBRARY_KEY_UNUSED_WITH = {"equinox.nn.Embedding": ("weight", 2)}


# Initializer factories whose initializer draws from the key it is called with
# (`init = lecun_normal(); w = init(key, shape)`): every factory of jax.nn.initializers
# (JAX 0.10.2) whose initializer gives other values for another key, checked by calling
# each with two keys (`constant`, and the initializers `zeros`/`ones`, draw nothing);
# flax re-exports them (linen and nnx).
INITIALIZER_FACTORIES = frozenset(
    "delta_orthogonal glorot_normal glorot_uniform he_normal he_uniform kaiming_normal kaiming_uniform "
    "lecun_normal lecun_uniform normal orthogonal truncated_normal uniform variance_scaling "
    "xavier_normal xavier_uniform".split()
)
INITIALIZER_MODULES = frozenset({"jax.nn.initializers", "flax.linen.initializers", "flax.nnx.initializers",
                                 "flax.nnx.nn.initializers"})


def initializer_factory(qualname: "str | None") -> bool:
    """``jax.nn.initializers.lecun_normal`` and the like: a factory whose initializer
    draws from the key it is given (``INITIALIZER_FACTORIES``)."""
    if qualname is None or "." not in qualname:
        return False
    module, name = qualname.rsplit(".", 1)
    return name in INITIALIZER_FACTORIES and module in INITIALIZER_MODULES


def initializer_draws_nothing(qualname: "str | None") -> bool:
    """``jax.nn.initializers.zeros`` / ``ones`` (flax's re-exports too): initializers
    called with a key and a shape that ignore the key (checked with JAX 0.10.2: two keys
    give the same array)."""
    if qualname is None or "." not in qualname:
        return False
    module, name = qualname.rsplit(".", 1)
    return name in ("zeros", "ones") and module in INITIALIZER_MODULES


def initializer_type(annotation: "str | None") -> bool:
    """``jax.nn.initializers.Initializer`` (flax's re-exports too): the type of an
    initializer, a function called with a key and a shape that draws from the key."""
    if annotation is None or "." not in annotation:
        return False
    module, name = annotation.rsplit(".", 1)
    return name == "Initializer" and module in INITIALIZER_MODULES


# Probability distributions whose `sample(seed=key)` / `sample_and_log_prob(seed=key)`
# draw from `seed` (distrax: keyword-only `seed`; TFP's JAX substrate: `seed=` too)
DISTRIBUTION_SAMPLERS = frozenset({"sample", "sample_and_log_prob"})
_DISTRIBUTION_MODULES = ("distrax.", "tensorflow_probability.substrates.jax.distributions.", "numpyro.distributions.")
# numpyro's `Distribution.sample(key, sample_shape=())` takes the key first (distrax and
# TFP: `sample(sample_shape, seed=key)`)
POSITIONAL_KEY_DISTRIBUTIONS = ("numpyro.distributions.",)


def distribution_class(qualname: "str | None") -> bool:
    """A distribution class of distrax, of TFP's JAX substrate or of numpyro (``distrax.Normal``)."""
    return qualname is not None and qualname.startswith(_DISTRIBUTION_MODULES) and qualname.rsplit(".", 1)[1][:1].isupper()


# Library functions that draw from the key they are given, not as ``key=``: (the
# keyword, its position).  numpyro's ``sample(name, fn, obs=None, rng_key=None)`` draws
# from ``rng_key`` when the site is not observed (a seed handler's key only when none is
# given); ``handlers.seed(model, rng_seed)`` seeds every draw of the model from it.
LIBRARY_KEY_ARGS = {
    "numpyro.sample": ("rng_key", 3), "numpyro.primitives.sample": ("rng_key", 3),
    "numpyro.handlers.seed": ("rng_seed", 1), "numpyro.primitives.seed": ("rng_seed", 1),
    # haiku's functional dropout draws its mask from the key it is given first
    "haiku.dropout": ("rng", 0), "haiku._src.basic.dropout": ("rng", 0),
}
# the keyword that, given a value other than None, makes a ``LIBRARY_KEY_ARGS`` call draw
# nothing (numpyro: an observed site): (keyword, position)
LIBRARY_KEY_UNLESS = {"numpyro.sample": ("obs", 2), "numpyro.primitives.sample": ("obs", 2)}

# Objects of a library class whose call or method draws from the key it is given first
# (numpyro's ``Predictive(model, ...)(rng_key, ...)``, ``MCMC(...).run(rng_key, ...)``,
# ``SVI(...).run(rng_key, n)``): class -> {method ("__call__": the object called): keyword}
LIBRARY_KEY_METHODS = {
    "numpyro.infer.Predictive": {"__call__": "rng_key"},
    "numpyro.infer.util.Predictive": {"__call__": "rng_key"},
    "numpyro.infer.MCMC": {"run": "rng_key"},
    "numpyro.infer.mcmc.MCMC": {"run": "rng_key"},
    "numpyro.infer.SVI": {"run": "rng_key", "init": "rng_key"},
    "numpyro.infer.svi.SVI": {"run": "rng_key", "init": "rng_key"},
}


# flax linen layers whose default initializers draw from the "params" key (lecun_normal,
# variance_scaling, normal embeddings, orthogonal recurrent kernels); not the
# normalisation layers, whose scales and biases start as ones and zeros
FLAX_DRAWING_LAYERS = frozenset({
    "Dense", "DenseGeneral", "Conv", "ConvTranspose", "ConvLocal", "Embed", "Einsum",
    "MultiHeadDotProductAttention", "MultiHeadAttention", "SelfAttention", "LSTMCell",
    "OptimizedLSTMCell", "GRUCell", "MGUCell", "SimpleCell", "ConvLSTMCell",
})


def library_key_consumer(qualname: str) -> "str | None":
    """How a library call that consumes its ``key=`` argument is named in messages
    (``eqx.nn.Linear``), or None."""
    for prefix, shown in LIBRARY_KEY_CONSUMER_PREFIXES.items():
        if qualname.startswith(prefix) and qualname.count(".") == prefix.count("."):
            return shown + qualname[len(prefix):]
    return None


# Dtype spellings that need jax_enable_x64.
# values jit cannot make an abstract array, by what builds them (JAX 0.10.2: each, passed
# to a traced parameter of `jax.jit(lambda x: x)`, raises TypeError: Error interpreting
# argument ... as an abstract array): calls whose result is a list of devices
DEVICE_LISTS = frozenset({"jax.devices", "jax.local_devices"})
# calls whose result is one object that is not a pytree of arrays
NON_ARRAY_CONSTRUCTORS = {
    "jax.sharding.NamedSharding": "a sharding",
    "jax.sharding.SingleDeviceSharding": "a sharding",
    "jax.sharding.PositionalSharding": "a sharding",
    "jax.sharding.Mesh": "a device mesh",
    "jax.make_mesh": "a device mesh",
    "jax.sharding.PartitionSpec": "a partition spec",
}
# builtins (written bare, not shadowed) whose result is not a pytree of arrays
NON_ARRAY_BUILTINS = {"range": "a `range` object", "slice": "a `slice` object", "set": "a set",
                      "frozenset": "a set"}
# the scalar types of `numpy` / `jax.numpy` (a type passed as a traced argument is no array)
DTYPE_NAMES = frozenset({"float16", "float32", "float64", "bfloat16", "int8", "int16", "int32", "int64", "uint8",
                         "uint16", "uint32", "uint64", "complex64", "complex128", "bool_", "double", "single",
                         "half", "float_", "int_", "uint", "complex_", "cdouble", "csingle", "longlong", "ulonglong"})
# NumPy constructors whose result holds strings when given string data or a string dtype
NUMPY_ARRAY_BUILDERS = frozenset({"numpy.array", "numpy.asarray", "numpy.full", "numpy.zeros", "numpy.empty",
                                  "numpy.ones"})
# the dtypes (as written in `dtype=`) that make a NumPy array of strings or objects
NUMPY_TEXT_DTYPES = frozenset({"str", "bytes", "object", "numpy.str_", "numpy.bytes_", "numpy.object_",
                               "numpy.dtypes.StringDType"})
# the strings NumPy reads as a 64-bit dtype, with the dtype each names (NumPy 2.4, JAX
# 0.10.2: `jnp.zeros(2, dtype=s)` warns "Explicitly requested dtype int64 ... truncated to
# dtype int32" for each with x64 off).  Python's type names as strings are NumPy's 64-bit
# types (`dtype='int'` is int64, `dtype='float'` float64), unlike the types themselves
# (`dtype=int` is JAX's default integer: no warning).  Not 'l', 'L', 'long', 'ulong':
# C's long, 32-bit on Windows
X64_DTYPE_STRING_NAMES = {
    "float64": "float64", "int64": "int64", "uint64": "uint64", "complex128": "complex128",
    "f8": "float64", "i8": "int64", "u8": "uint64", "c16": "complex128",
    "<f8": "float64", "<i8": "int64", "<u8": "uint64", "<c16": "complex128",
    "=f8": "float64", "=i8": "int64", "=u8": "uint64", "=c16": "complex128",
    "double": "float64", "d": "float64", "float": "float64",
    "int": "int64", "int_": "int64", "intp": "int64", "q": "int64", "p": "int64", "longlong": "int64",
    "uint": "uint64", "uintp": "uint64", "Q": "uint64", "P": "uint64", "ulonglong": "uint64",
    "complex": "complex128", "cdouble": "complex128", "D": "complex128",
}
X64_DTYPE_STRINGS = frozenset(X64_DTYPE_STRING_NAMES)
# the 64-bit dtypes as attributes of `numpy` / `jax.numpy` (NumPy's aliases of them too)
X64_DTYPE_ATTRS = frozenset({"float64", "int64", "uint64", "complex128", "double", "cdouble", "longlong",
                             "ulonglong", "float_", "complex_", "int_", "uint"})
X64_REPLACEMENT = {
    "float64": "float32",
    "double": "float32",
    "float_": "float32",
    "int64": "int32",
    "longlong": "int32",
    "int_": "int32",
    "uint64": "uint32",
    "uint": "uint32",
    "ulonglong": "uint32",
    "complex128": "complex64",
    "cdouble": "complex64",
    "complex_": "complex64",
    "f8": "f4",
    "i8": "i4",
    "u8": "u4",
    "c16": "c8",
    "<f8": "<f4",
    "<i8": "<i4",
    "<u8": "<u4",
    "<c16": "<c8",
    "=f8": "=f4",
    "=i8": "=i4",
    "=u8": "=u4",
    "=c16": "=c8",
    "d": "f",
    "D": "F",
    "q": "i",
    "Q": "I",
    "float": "float32",
    "int": "int32",
    "intp": "int32",
    "uintp": "uint32",
    "complex": "complex64",
}

# Base classes whose methods run under tracing (flax / equinox modules).
MODULE_BASES = frozenset(
    {
        "flax.linen.Module",
        "flax.nnx.Module",
        "equinox.Module",
        "haiku.Module",
    }
)

# Annotations that mean "this parameter is an array" (traced under jit).
ARRAY_ANNOTATIONS = frozenset(
    {
        "jax.Array",
        "jax.numpy.ndarray",
        "jax.typing.ArrayLike",
        "chex.Array",
        "chex.ArrayDevice",
        "jaxtyping.Array",
        "jaxtyping.ArrayLike",
        "jaxtyping.Float",
        "jaxtyping.Int",
        "jaxtyping.Bool",
        "jaxtyping.Shaped",
        "jaxtyping.Num",
        "jaxtyping.Real",
        "jaxtyping.Inexact",
        "jaxtyping.Integer",
        "jaxtyping.Complex",
        "jaxtyping.PRNGKeyArray",
        "jaxtyping.Key",
    }
)

# Annotations that admit a JAX array and nothing else (not chex.Array or ArrayLike,
# which admit NumPy arrays and scalars too): such a parameter is a JAX array even
# where no transformation traces it, so its item assignment raises TypeError.
JAX_ARRAY_ANNOTATIONS = frozenset({"jax.Array", "jax.numpy.ndarray", "jaxtyping.Array"})

# jaxtyping's dtype-annotated array types: `Float[Array, "n"]` (its first item is the array type)
JAXTYPING_DTYPES = frozenset(
    q for q in ARRAY_ANNOTATIONS
    if q.startswith("jaxtyping.") and q not in ("jaxtyping.Array", "jaxtyping.ArrayLike", "jaxtyping.PRNGKeyArray")
)

# equinox layers whose leaves include a Python function (a field that is not static):
# plain `jax.jit` cannot make them abstract arrays (TypeError), `eqx.filter_jit` can.
# From equinox 0.13's nn package: `Pool` and its Max/Avg subclasses (`operation`),
# `AdaptivePool` and its subclasses (`operation`), `MLP` (`activation`,
# `final_activation`), `Lambda` (`fn`), `WeightNorm` (`_norm`); each checked under
# `jax.jit` (TypeError).  `Sequential` holds what it is given.
EQX_FUNCTION_LEAF_LAYERS = frozenset(
    "equinox.nn." + n for n in (
        "Pool", "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d",
        "AdaptivePool", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d",
        "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "MLP", "Lambda", "WeightNorm",
    )
)

# Annotations that mean "a static Python value".
STATIC_ANNOTATIONS = frozenset(
    {"int", "bool", "str", "float", "bytes", "type", "None", "typing.Callable",
     "collections.abc.Callable", "Callable", "typing.Literal", "Literal"}
)

# The static annotations a tracer can stand in for (a jit that names its static arguments
# and leaves such a parameter out traces it: `el: int` becomes an int32 tracer)
NUMBER_ANNOTATIONS = frozenset({"int", "float", "bool", "complex"})

# Annotations no tracer can satisfy: a parameter annotated so holds a Python value even
# when traced code calls its function (JAX has no string, bytes or class arrays).
UNTRACEABLE_ANNOTATIONS = frozenset({"str", "bytes", "type", "typing.Literal", "Literal"})

# Attributes every tracer has: `hasattr(x, "shape")` is True for a traced `x`.
TRACER_ATTRIBUTES = frozenset({"shape", "dtype", "ndim", "size", "at", "T", "aval", "astype", "reshape"})


def _catchers(name: str, base: str) -> frozenset[str]:
    """The qualified names an ``except`` may spell to catch JAX's error ``name`` (JAX
    0.10.2's ``__mro__``: the error, ``jax.errors.JAX<base>``, the builtin ``base``
    and its own bases short of ``Exception``: a catch-all handler says nothing of what
    the code expects, and often hides the error it should not)."""
    builtins = {"TypeError": ("TypeError",), "IndexError": ("IndexError", "LookupError")}[base]
    return frozenset(
        {f"jax.errors.{name}", f"jax.core.{name}", f"jax._src.errors.{name}", f"jax.errors.JAX{base}",
         *(f"builtins.{b}" for b in builtins)}
    )


# What catches each error a tracing rule predicts: code inside `try:` with such a
# handler is run for (or guarded against) that error, whatever the handler then does
# (`except jax.errors.ConcretizationTypeError: raise ValueError("not jittable")`)
CONCRETIZATION_CATCHERS = _catchers("ConcretizationTypeError", "TypeError")
TRACER_BOOL_CATCHERS = CONCRETIZATION_CATCHERS | _catchers("TracerBoolConversionError", "TypeError")
TRACER_INTEGER_CATCHERS = _catchers("TracerIntegerConversionError", "TypeError")
TRACER_ARRAY_CATCHERS = _catchers("TracerArrayConversionError", "TypeError")
BOOLEAN_INDEX_CATCHERS = _catchers("NonConcreteBooleanIndexError", "IndexError")

# SciPy's own functions, run on the host: each converts a JAX array with `__array__()`, so a
# tracer raises TracerArrayConversionError (checked on jax 0.10.2 with scipy 1.17: special,
# linalg, stats (functions, distributions' methods and frozen distributions), signal,
# integrate.trapezoid, optimize.minimize, ndimage, interpolate, spatial.distance, fft).  The
# quadrature routines call Python on the bounds instead (`quad(f, 0, t)` raises
# TracerBoolConversionError) and are left out.
HOST_SCIPY_SKIP = frozenset(
    "scipy.integrate." + n for n in "quad dblquad tplquad nquad fixed_quad quadrature romberg".split()
)

# ... they still run on the host: a traced bound raises TracerBoolConversionError (`quad`
# compares it), a traced value in `args=` or closed over by the integrand raises
# ConcretizationTypeError (`float()` of what the integrand returns) (checked on jax 0.10.2
# with scipy 1.17, under jit and under grad; `fixed_quad` of a closure returns a tracer)
HOST_QUADRATURE = frozenset("scipy.integrate." + n for n in "quad dblquad tplquad nquad".split())

# jax.scipy's functions (jax 0.10.2), the twin a message names for a SciPy call.
_JAX_SCIPY = (
    ("special", "bernoulli bessel_jn beta betainc betaln boxcox boxcox1p comb dawsn digamma entr erf erfc erfcx erfinv exp1 expi expit expn factorial fresnel gamma gammainc gammaincc gammaln gammasgn hyp1f1 hyp2f1 i0 i0e i1 i1e kl_div log_ndtr log_softmax loggamma logit logsumexp multigammaln ndtr ndtri owens_t poch polygamma rel_entr sici softmax spence sph_harm_y wofz xlog1py xlogy zeta"),
    ("linalg", "block_diag cho_factor cho_solve cholesky circulant companion convolution_matrix det dft eigh eigh_tridiagonal expm expm_frechet fiedler fiedler_companion funm hadamard hankel helmert hessenberg hilbert inv invhilbert invpascal leslie lu lu_factor lu_solve pascal polar qr qr_multiply rsf2csf schur solve solve_sylvester solve_triangular sqrtm svd toeplitz"),
    ("signal", "convolve convolve2d correlate correlate2d csd detrend fftconvolve istft stft welch"),
    ("integrate", "trapezoid"),
    ("ndimage", "map_coordinates"),
    ("fft", "dct dctn idct idctn"),
    ("stats", "gaussian_kde mode rankdata sem"),
    ("interpolate", "RegularGridInterpolator"),
    ("optimize", "OptimizeResults minimize"),
    ("cluster.vq", "vq"),
    ("spatial.transform", "Rotation Slerp"),
    ("stats.bernoulli", "cdf logpmf pmf ppf"),
    ("stats.beta", "cdf logcdf logpdf logsf pdf sf"),
    ("stats.betabinom", "logpmf pmf"),
    ("stats.binom", "logpmf pmf"),
    ("stats.cauchy", "cdf isf logcdf logpdf logsf pdf ppf sf"),
    ("stats.chi2", "cdf logcdf logpdf logsf pdf sf"),
    ("stats.dirichlet", "logpdf pdf"),
    ("stats.expon", "cdf logcdf logpdf logsf pdf ppf sf"),
    ("stats.gamma", "cdf logcdf logpdf logsf pdf sf"),
    ("stats.gennorm", "cdf logpdf pdf"),
    ("stats.geom", "logpmf pmf"),
    ("stats.gumbel_l", "cdf logcdf logpdf logsf pdf ppf sf"),
    ("stats.gumbel_r", "cdf logcdf logpdf logsf pdf ppf sf"),
    ("stats.laplace", "cdf logpdf pdf"),
    ("stats.logistic", "cdf isf logpdf pdf ppf sf"),
    ("stats.multinomial", "logpmf pmf"),
    ("stats.multivariate_normal", "logpdf pdf"),
    ("stats.nbinom", "logpmf pmf"),
    ("stats.norm", "cdf isf logcdf logpdf logsf pdf ppf sf"),
    ("stats.pareto", "cdf logcdf logpdf logsf pdf ppf sf"),
    ("stats.poisson", "cdf entropy logpmf pmf"),
    ("stats.t", "logpdf pdf"),
    ("stats.truncnorm", "cdf logcdf logpdf logsf pdf sf"),
    ("stats.uniform", "cdf logpdf pdf ppf"),
    ("stats.vonmises", "logpdf pdf"),
    ("stats.wrapcauchy", "logpdf pdf"),
)
JAX_SCIPY_NAMES = frozenset(f"{m}.{n}" for m, names in _JAX_SCIPY for n in names.split())


def host_scipy(q: Optional[str]) -> bool:
    """Is ``q`` a function of SciPy itself (not jax.scipy), run on the host?"""
    return q is not None and q.startswith("scipy.") and q.count(".") >= 2 and q not in HOST_SCIPY_SKIP


def jax_scipy_twin(q: str) -> Optional[str]:
    """`scipy.special.hyp2f1` -> `jax.scipy.special.hyp2f1` where jax.scipy has it."""
    rest = q[len("scipy."):]
    return "jax.scipy." + rest if rest in JAX_SCIPY_NAMES else None
