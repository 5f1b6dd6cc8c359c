"""Deprecated and removed JAX APIs, as one data table (research notes, Part C).

Each row: the old spelling, what to use instead, the JAX version that deprecated it and
the one that removed it (None: still works, with a warning), how far a mechanical fix
can go, and a note.  ``kind``:

* ``name``   a qualified name (attribute chain or import), matched through imports;
* ``module`` a module: the name and everything below it;
* ``method`` an attribute/method of a JAX array (``x.device_buffer``);
* ``kwarg``  a keyword argument of a function (``jnp.clip(a_min=...)``).

``fix``: ``"safe"`` (same behaviour), ``"unsafe"`` (usually right, review it) or None.
``new_qualname``: the replacement spelled as a qualified name, when the fix is a plain
rename keeping the user's import alias; ``import_from``: a module from which the same
local name can be imported instead (for ``from OLD import name`` lines).
"""

from __future__ import annotations

from functools import lru_cache

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class CallShape:
    """How the arguments of a call of the old spelling become those of the new one,
    for a rename whose new function does not take every call the old one took
    (checked against JAX 0.10.2's signatures: ``jax.jit`` and ``jax.shard_map`` take
    only their function by position, ``check_rep`` became ``check_vma``, ...).

    A row with a shape is fixed only where each use of the old name is seen with
    its arguments: a call, a bare decorator, or ``@functools.partial(old, k=v, ...)``;
    and only when every argument maps (no ``*args``/``**kwargs``, no unknown keyword)."""

    params: tuple[str, ...]  # the old function's parameters a caller may pass by position, in order
    positional: int = 1  # how many leading ones the new function takes by position (the rest by keyword)
    renamed: tuple[tuple[str, str], ...] = ()  # old keyword -> new keyword
    keywords: tuple[str, ...] = ()  # further keywords both take as they are
    positional_only: tuple[str, ...] = ()  # the new function takes these by position only
    # old keyword -> (new keyword, its value as a template of the old arguments' text,
    # each other argument it names a plain dotted name, as it is written twice)
    derived: tuple[tuple[str, tuple[str, str]], ...] = ()


@dataclass(frozen=True)
class Deprecation:
    old: str
    new: str  # the replacement, as prose/code for the message
    deprecated: Optional[str]
    removed: Optional[str]
    fix: Optional[str] = None  # "safe" | "unsafe" | None
    note: str = ""
    kind: str = "name"
    new_qualname: Optional[str] = None  # rename target (keeps the user's alias)
    import_from: Optional[tuple[str, str]] = None  # (module, name) for `from OLD import x`
    function: Optional[str] = None  # kind == "kwarg": the function's qualified name
    opt_in: bool = False  # JAX950: suggestions that are not deprecations
    call: Optional[CallShape] = None  # the rename needs its calls' arguments rewritten (or no fix)


def _tree(short: str, new_short: Optional[str] = None) -> Deprecation:
    new = new_short or short
    return Deprecation(
        f"jax.tree_{short}" if short != "treedef_is_leaf" else "jax.treedef_is_leaf",
        f"`jax.tree.{new}`" if new != "treedef_is_leaf" else "`jax.tree_util.treedef_is_leaf`",
        "0.3.15", "0.6.0", "safe",
        "identical signature",
        new_qualname=f"jax.tree.{new}" if new != "treedef_is_leaf" else "jax.tree_util.treedef_is_leaf",
        import_from=("jax.tree_util", f"tree_{short}" if short != "treedef_is_leaf" else "treedef_is_leaf"),
    )


# jax.experimental.pjit.pjit(fun, in_shardings, out_shardings, static_argnums, ...) ->
# jax.jit(fun, /, *, in_shardings, out_shardings, ...)
PJIT_CALL = CallShape(
    ("fun", "in_shardings", "out_shardings", "static_argnums", "static_argnames", "donate_argnums",
     "donate_argnames", "keep_unused", "device", "backend", "inline", "compiler_options"),
    renamed=(("in_axis_resources", "in_shardings"), ("out_axis_resources", "out_shardings")),
    positional_only=("fun",),
)
# jax.experimental.shard_map.shard_map(f, mesh, in_specs, out_specs, check_rep=True, auto=frozenset()) ->
# jax.shard_map(f, /, *, out_specs, in_specs, mesh, axis_names, check_vma)
SHARD_MAP_CALL = CallShape(
    ("f", "mesh", "in_specs", "out_specs", "check_rep"),
    renamed=(("check_rep", "check_vma"),),
    positional_only=("f",),
    derived=(("auto", ("axis_names", "frozenset({mesh}.axis_names) - frozenset({auto})")),),
)


TABLE: tuple[Deprecation, ...] = (
    # --- pytrees ---------------------------------------------------------------------
    Deprecation("jax.tree_map", "`jax.tree.map`", "0.4.26", "0.6.0", "safe", "identical signature",
                new_qualname="jax.tree.map", import_from=("jax.tree_util", "tree_map")),
    _tree("leaves"), _tree("flatten"), _tree("unflatten"), _tree("structure"), _tree("transpose"),
    _tree("treedef_is_leaf"),
    Deprecation("jax.tree_util.tree_multimap", "`jax.tree.map`", "0.3.5", "0.3.16", "safe",
                "tree_map takes several trees", new_qualname="jax.tree.map",
                import_from=("jax.tree_util", "tree_map")),
    # --- random ------------------------------------------------------------------------
    Deprecation("jax.random.KeyArray", "`jax.Array`", "0.4.16", "0.4.24", "safe", "annotation",
                new_qualname="jax.Array", import_from=("jax", "Array")),
    Deprecation("jax.random.PRNGKeyArray", "`jax.Array`", "0.4.16", "0.4.24", "safe", "annotation",
                new_qualname="jax.Array", import_from=("jax", "Array")),
    Deprecation("jax.random.shuffle", "`jax.random.permutation(key, x, independent=True)`",
                None, "0.4.31", "safe", "permutation with independent=True shuffles the same way"),
    Deprecation("jax.random.threefry2x32_key", "`jax.random.PRNGKey(seed, impl='threefry2x32')`", "0.4.17", "0.4.24", None),
    Deprecation("jax.random.rbg_key", "`jax.random.PRNGKey(seed, impl='rbg')`", "0.4.17", "0.4.24", None),
    Deprecation("jax.random.unsafe_rbg_key", "`jax.random.PRNGKey(seed, impl='unsafe_rbg')`", "0.4.17", "0.4.24", None),
    Deprecation("jax.random.PRNGKey", "`jax.random.key` (typed keys)", None, None, None,
                "not deprecated: a legacy raw uint32[2] key; typed keys differ in shape, dtype and "
                "indexing, so no rewrite", opt_in=True),
    # --- jax.ops -------------------------------------------------------------------------
    *(
        Deprecation(f"jax.ops.{n}", f"`x.at[idx].{m}(v)`", "0.2.22", "0.3.2", "safe",
                    "mechanical rewrite to the .at[] property")
        for n, m in (("index_update", "set"), ("index_add", "add"), ("index_mul", "multiply"),
                     ("index_min", "min"), ("index_max", "max"))
    ),
    Deprecation("jax.ops.index", "a plain index inside `x.at[...]`", "0.2.22", "0.3.2", None),
    # --- backends / xla ----------------------------------------------------------------
    Deprecation("jax.lib.xla_bridge", "`jax.default_backend()` / `jax.extend.backend`", "0.4.32", "0.8.0", None,
                "`xla_bridge.get_backend().platform` is `jax.default_backend()`", kind="module"),
    Deprecation("jax.lib.xla_client", "nothing public (`jax.extend`)", "0.6.0", "0.8.0", None, kind="module"),
    Deprecation("jax.lib.xla_extension", "nothing public (`jax.extend`)", "0.6.0", "0.8.0", None, kind="module"),
    Deprecation("jaxlib.xla_extension", "`jax.Array` / `jax.extend`", None, "0.4.36", None,
                "the module no longer exists (now jaxlib._jax)", kind="module"),
    Deprecation("jax.xla_computation", "`jax.jit(f).lower(*args).compiler_ir('hlo')`", "0.4.30", "0.4.34", None),
    Deprecation("jax.clear_backends", "`jax.clear_caches()`", "0.4.26", "0.4.36", None, "not exactly equivalent"),
    Deprecation("jax.experimental.compilation_cache.compilation_cache.initialize_cache",
                "`jax.config.update('jax_compilation_cache_dir', path)`", None, "0.8.0", None),
    Deprecation("jax.dlpack.to_dlpack", "pass the array to the consumer's `from_dlpack` (or `x.__dlpack__()`)", "0.6.0", "0.8.0", None),
    # --- sharding / parallelism ----------------------------------------------------------
    Deprecation("jax.experimental.maps.Mesh", "`jax.sharding.Mesh`", "0.4.1", "0.4.11", "safe",
                new_qualname="jax.sharding.Mesh", import_from=("jax.sharding", "Mesh")),
    Deprecation("jax.experimental.maps", "`jax.shard_map` / `jax.sharding`", "0.4.26", "0.4.31", None,
                "xmap has no mechanical replacement", kind="module"),
    Deprecation("jax.experimental.PartitionSpec", "`jax.sharding.PartitionSpec`", "0.4.1", "0.4.11", "safe",
                new_qualname="jax.sharding.PartitionSpec", import_from=("jax.sharding", "PartitionSpec")),
    Deprecation("jax.experimental.pjit.pjit", "`jax.jit`", "0.8.0", None, "safe",
                "same parameters, all but the function passed by keyword; `in_axis_resources`/"
                "`out_axis_resources` were renamed `in_shardings`/`out_shardings`",
                new_qualname="jax.jit", import_from=("jax", "jit"), call=PJIT_CALL),
    Deprecation("jax.experimental.pjit.with_sharding_constraint", "`jax.lax.with_sharding_constraint`", "0.4.16", "0.10.2",
                "safe", new_qualname="jax.lax.with_sharding_constraint",
                import_from=("jax.lax", "with_sharding_constraint"),
                call=CallShape(("x", "shardings"), positional=2)),
    Deprecation("jax.experimental.shard_map.shard_map", "`jax.shard_map`", "0.8.0", None, "unsafe",
                "`mesh`, `in_specs` and `out_specs` are keyword-only, `check_rep` became `check_vma`, "
                "`auto` became `axis_names` (the mesh's other axes): review the call",
                new_qualname="jax.shard_map", import_from=("jax", "shard_map"), call=SHARD_MAP_CALL),
    Deprecation("jax.device_put_replicated", "`jax.device_put(x, sharding)`", "0.8.1", "0.10.0", None),
    Deprecation("jax.device_put_sharded", "`jax.device_put(x, sharding)`", "0.8.1", "0.10.0", None),
    Deprecation("jax.sharding.PmapSharding", "`jax.NamedSharding`", "0.8.1", "0.10.0", None),
    Deprecation("jax.interpreters.pxla.ShardedDeviceArray", "`jax.Array`", "0.4.7", "0.4.14", "safe",
                new_qualname="jax.Array", import_from=("jax", "Array")),
    Deprecation("jax.lax.pvary", "`jax.lax.pcast(x, axis_name, to='varying')`", "0.8.2", "0.10.0", None),
    Deprecation("jax.host_count", "`jax.process_count`", "0.2.13", None, "safe", new_qualname="jax.process_count"),
    Deprecation("jax.host_id", "`jax.process_index`", "0.2.13", None, "safe", new_qualname="jax.process_index"),
    Deprecation("jax.host_ids", "`jax.process_indices`", "0.2.13", None, "safe", new_qualname="jax.process_indices"),
    # --- array types ---------------------------------------------------------------------
    Deprecation("jax.numpy.DeviceArray", "`jax.Array`", "0.4.7", "0.4.14", "safe",
                new_qualname="jax.Array", import_from=("jax", "Array")),
    Deprecation("jax.interpreters.xla.DeviceArray", "`jax.Array`", "0.4.7", "0.4.11", "safe",
                new_qualname="jax.Array", import_from=("jax", "Array")),
    Deprecation("jax.abstract_arrays", "`jax.core.ShapedArray`", "0.4.12", "0.4.17", None, kind="module"),
    Deprecation("jax.core.ConcreteArray", "nothing (use `jax.core.is_concrete` / static values)", None, "0.4.24", None),
    Deprecation("jax.core.Primitive", "`jax.extend.core.Primitive`", None, "0.6.0", "safe",
                new_qualname="jax.extend.core.Primitive", import_from=("jax.extend.core", "Primitive")),
    Deprecation("jax.util", "nothing public (copy the helper)", None, "0.8.0", None, kind="module"),
    Deprecation("jax.linear_util", "`jax.extend.linear_util`", "0.4.16", "0.4.24", "safe", kind="module",
                new_qualname="jax.extend.linear_util"),
    Deprecation("jax.api", "`jax`", None, "0.2.21", None, kind="module"),
    Deprecation("jax.experimental.array_api", "`jax.numpy`", "0.4.32", "0.5.0", None, kind="module"),
    Deprecation("jax.cloud_tpu_init", "nothing (delete the import)", "0.8.1", "0.11.0", None, kind="module"),
    Deprecation("jax.experimental.host_callback", "`jax.debug.callback` / `jax.pure_callback` / `jax.experimental.io_callback`",
                "0.4.26", "0.8.0", None, "the semantics of id_tap/call differ", kind="module"),
    Deprecation("jax.experimental.optimizers", "`jax.example_libraries.optimizers` (or optax)", None, "0.3.16", "safe",
                kind="module", new_qualname="jax.example_libraries.optimizers",
                import_from=("jax.example_libraries", "optimizers")),
    Deprecation("jax.experimental.stax", "`jax.example_libraries.stax` (or flax/equinox)", None, "0.3.16", "safe",
                kind="module", new_qualname="jax.example_libraries.stax",
                import_from=("jax.example_libraries", "stax")),
    Deprecation("jax.experimental.enable_x64", "`jax.enable_x64(True)`", "0.8.0", "0.10.2", None),
    Deprecation("jax.experimental.disable_x64", "`jax.enable_x64(False)`", "0.8.0", "0.10.2", None),
    Deprecation("jax.lax.tie_in", "its second argument (it was a no-op)", "0.4.24", "0.4.29", None),
    Deprecation("jax.lax.prod", "`math.prod`", "0.4.11", "0.4.16", None),
    Deprecation("jax.lax.zeros_like_array", "`jnp.zeros_like`", "0.7.1", "0.10.2", "safe",
                new_qualname="jax.numpy.zeros_like"),
    Deprecation("jax.nn.normalize", "`jax.nn.standardize`", "0.3.5", "0.4.29", "safe",
                new_qualname="jax.nn.standardize", import_from=("jax.nn", "standardize")),
    Deprecation("jax.scipy.linalg.tril", "`jnp.tril`", "0.4.16", "0.4.24", "safe", new_qualname="jax.numpy.tril"),
    Deprecation("jax.scipy.linalg.triu", "`jnp.triu`", "0.4.16", "0.4.24", "safe", new_qualname="jax.numpy.triu"),
    # --- jax.numpy names -------------------------------------------------------------------
    Deprecation("jax.numpy.round_", "`jnp.round`", "0.4.32", "0.4.38", "safe", new_qualname="jax.numpy.round"),
    Deprecation("jax.numpy.product", "`jnp.prod`", "0.4.12", "0.4.16", "safe", new_qualname="jax.numpy.prod"),
    Deprecation("jax.numpy.cumproduct", "`jnp.cumprod`", "0.4.12", "0.4.16", "safe", new_qualname="jax.numpy.cumprod"),
    Deprecation("jax.numpy.sometrue", "`jnp.any`", "0.4.12", "0.4.16", "safe", new_qualname="jax.numpy.any"),
    Deprecation("jax.numpy.alltrue", "`jnp.all`", "0.4.12", "0.4.16", "safe", new_qualname="jax.numpy.all"),
    Deprecation("jax.numpy.NINF", "`-jnp.inf`", "0.4.16", "0.4.24", "safe"),
    Deprecation("jax.numpy.PINF", "`jnp.inf`", "0.4.16", "0.4.24", "safe", new_qualname="jax.numpy.inf"),
    Deprecation("jax.numpy.PZERO", "`0.0`", "0.4.16", "0.4.24", "safe"),
    Deprecation("jax.numpy.NZERO", "`-0.0`", "0.4.16", "0.4.24", "safe"),
    Deprecation("jax.numpy.msort", "`jnp.sort(x, axis=0)`", "0.4.1", "0.4.9", "safe"),
    Deprecation("jax.numpy.trapz", "`jnp.trapezoid`", "0.4.16", "0.4.24", "safe", new_qualname="jax.numpy.trapezoid"),
    Deprecation("jax.numpy.in1d", "`jnp.isin` (same result for 1-D input; else `jnp.isin(a, b).ravel()`)",
                "0.4.16", "0.4.24", "unsafe", "isin keeps the shape of its first argument",
                new_qualname="jax.numpy.isin",
                call=CallShape(("ar1", "ar2", "assume_unique", "invert"), positional=4,
                               renamed=(("ar1", "element"), ("ar2", "test_elements")), keywords=("method",))),
    Deprecation("jax.numpy.row_stack", "`jnp.vstack`", "0.4.16", "0.4.24", "safe", new_qualname="jax.numpy.vstack"),
    Deprecation("jax.numpy.issubsctype", "`jnp.issubdtype(x.dtype, t)`", "0.4.16", "0.4.24", None),
    Deprecation("jax.numpy.asfarray", "`jnp.asarray(x, dtype=float)`", None, "never existed", None,
                "a NumPy name that jax.numpy never had"),
    Deprecation("jax.numpy.find_common_type", "`jnp.result_type`", None, "never existed", None,
                "a NumPy name that jax.numpy never had"),
    Deprecation("jax.numpy.random", "`jax.random`", None, "never existed", None,
                "jax.numpy has no random module", kind="module"),
    # --- JAX 0.10.2's own deprecation registries (``_deprecations`` of each public module), --
    # with the versions their source comments and messages give; ``by 0.10.2`` where only the
    # registry (or JAX 0.10.2 raising AttributeError) dates it.
    Deprecation("jax.numpy.fix", "`jnp.trunc`", "0.9.0", "0.10.0", "safe", "drop-in replacement",
                new_qualname="jax.numpy.trunc", call=CallShape(("x",))),  # trunc takes no `out`
    Deprecation("jax.scipy.special.sph_harm", "`jax.scipy.special.sph_harm_y(n, m, theta, phi)`", "0.7.0", "0.10.0",
                None, "the degree and order arguments swap places"),
    Deprecation("jax.scipy.special.lpmn", "nothing (JAX plans no replacement)", "by 0.10.2", None, None),
    Deprecation("jax.scipy.special.lpmn_values", "nothing (JAX plans no replacement)", "by 0.10.2", None, None),
    Deprecation("jax.ad_checkpoint.checkpoint", "`jax.checkpoint`", "0.8.2", "0.10.0", "safe",
                new_qualname="jax.checkpoint", import_from=("jax", "checkpoint")),
    Deprecation("jax.ad_checkpoint.remat", "`jax.remat`", "0.8.2", "0.10.0", "safe",
                new_qualname="jax.remat", import_from=("jax", "remat")),
    Deprecation("jax.cloud_tpu_init.cloud_tpu_init", "nothing (JAX calls it itself)", "0.8.1", "0.10.0", None),
    Deprecation("jax.core.get_aval", "`jax.typeof`", "0.8.2", "0.10.0", "safe",
                new_qualname="jax.typeof", import_from=("jax", "typeof")),
    *(
        Deprecation(f"jax.core.{n}", f"`jax.extend.core.{n}`", "0.8.2", "0.10.0", "safe",
                    new_qualname=f"jax.extend.core.{n}", import_from=("jax.extend.core", n))
        for n in ("mapped_aval", "unmapped_aval", "set_current_trace", "take_current_trace", "TraceTag",
                  "call_impl", "subjaxprs", "AbstractToken")
    ),
    Deprecation("jax.core.traverse_jaxpr_params", "nothing public", "0.8.2", "0.10.0", None),
    *(
        Deprecation(f"jax.core.{n}", f"`jax.extend.core.{n}`", "0.10.0", None, "safe",
                    new_qualname=f"jax.extend.core.{n}", import_from=("jax.extend.core", n))
        for n in ("CallPrimitive", "DebugInfo", "DropVar", "Effect", "Effects", "check_jaxpr",
                  "concrete_or_error", "find_top_trace", "gensym", "get_opaque_trace_state",
                  "jaxprs_in_params", "new_jaxpr_eqn", "no_effects", "primal_dtype_to_tangent_dtype",
                  "valid_jaxtype")
    ),
    *(
        Deprecation(f"jax.core.{n}", f"`jax.errors.{n}`", "0.10.0", None, "safe",
                    new_qualname=f"jax.errors.{n}", import_from=("jax.errors", n))
        for n in ("InconclusiveDimensionOperation", "JaxprTypeError")
    ),
    *(
        Deprecation(f"jax.core.{n}", "nothing public", "0.10.0", None, None)
        for n in ("JaxprPpContext", "JaxprPpSettings", "OutputType", "abstract_token", "aval_mapping_handlers",
                  "call", "concretization_function_error", "custom_typechecks", "is_concrete",
                  "is_constant_dim", "is_constant_shape", "literalable_types", "no_axis_name",
                  "nonempty_axis_env_DO_NOT_USE", "pytype_aval_mappings", "trace_ctx",
                  "unsafe_am_i_under_a_jit_DO_NOT_USE", "unsafe_am_i_under_a_vmap_DO_NOT_USE",
                  "unsafe_get_axis_names_DO_NOT_USE")
    ),
    *(
        Deprecation(f"jax.core.{n}", f"`jax.extend.core.{n}`", None, "by 0.10.2", "safe",
                    new_qualname=f"jax.extend.core.{n}", import_from=("jax.extend.core", n))
        for n in ("Jaxpr", "ClosedJaxpr", "Literal", "Var", "jaxpr_as_fun")
    ),
    *(
        Deprecation(f"jax.core.{n}", "nothing public", None, "0.4.29", None)
        for n in ("non_negative_dim", "DimSize", "Shape")
    ),
    *(
        Deprecation(f"jax.core.{n}", "`print(jaxpr)` / `jaxpr.pretty_print()`", "0.4.30", "by 0.10.2", None)
        for n in ("pp_eqn", "pp_eqns", "pp_jaxpr", "pp_vars", "pp_aval")
    ),
    *(
        Deprecation(f"jax.interpreters.xla.{n}", "`jax.interpreters.mlir` lowering rules", None, "0.4.29", None)
        for n in ("backend_specific_translations", "translations", "register_translation", "xla_destructure",
                  "TranslationRule", "TranslationContext", "XlaOp")
    ),
    Deprecation("jax.interpreters.xla.pytype_aval_mappings", "nothing public", None, "by 0.10.2", None),
    Deprecation("jax.interpreters.ad.reducing_transposes", "nothing (unused since JAX 0.4.38)", "0.9.0", "0.10.0", None),
    Deprecation("jax.interpreters.batching.NotMapped", "nothing public", "0.7.1", "0.10.0", None),
    *(
        Deprecation(f"jax.interpreters.pxla.{n}", "`jax.shard_map` instead of `jax.pmap`", "0.8.2", "0.10.0", None)
        for n in ("Chunked", "NoSharding", "Replicated", "ShardedAxis", "ShardingSpec", "Unstacked", "spec_to_indices")
    ),
    *(
        Deprecation(f"jax.interpreters.pxla.{n}", "nothing public", "0.8.2", "0.10.0", None)
        for n in ("MapTracer", "PmapExecutable", "parallel_callable", "shard_args")
    ),
    Deprecation("jax.interpreters.pxla.thread_resources", "`with jax.set_mesh(mesh)` and `jax.sharding.get_abstract_mesh()`",
                "0.8.2", None, None),
    Deprecation("jax.interpreters.pxla.MeshAxisName", "the axis names of `jax.sharding.Mesh`", "0.8.2", None, None),
    *(
        Deprecation(f"jax.interpreters.pxla.{n}", "nothing public", "0.8.2", None, None)
        for n in ("ArrayMapping", "Index", "MeshComputation", "MeshExecutable", "_UNSPECIFIED",
                  "are_hlo_shardings_equal", "array_mapping_to_axis_resources", "global_aval_to_result_handler",
                  "global_avals_to_results_handler", "global_result_handlers", "is_hlo_sharding_replicated",
                  "op_sharding_to_indices")
    ),
    *(
        Deprecation(f"jax.experimental.pallas.tpu.{n}", f"`jax.experimental.pallas.{n}`", "by 0.10.2", None, "safe",
                    new_qualname=f"jax.experimental.pallas.{n}", import_from=("jax.experimental.pallas", n))
        for n in ("DeviceIdType", "HOST", "semaphore", "semaphore_read", "semaphore_signal", "semaphore_wait")
    ),
    Deprecation("jax.experimental.pallas.dot", "`jnp.dot`, `jnp.einsum` or `@` (TPU, Mosaic GPU), or "
                "`jax.experimental.pallas.triton.dot`", "by 0.10.2", None, None),
    Deprecation("jax.experimental.pallas.debug_checks_enabled", "`pl.enable_debug_checks.value`", "by 0.10.2", None, None),
    # --- from JAX's CHANGELOG, gone from the registries (each raises on JAX 0.10.2) -------------
    Deprecation("jax.experimental.export", "`jax.export`", "0.4.30", "by 0.10.2", "unsafe",
                "review the call: some functions were renamed when the module moved", kind="module",
                new_qualname="jax.export"),
    Deprecation("jax.sharding.XLACompatibleSharding", "`jax.sharding.Sharding`", "0.4.29", "by 0.10.2", "safe",
                new_qualname="jax.sharding.Sharding", import_from=("jax.sharding", "Sharding")),
    Deprecation("jax.tree_util.build_tree", "`jax.tree.unflatten`", "0.6.0", "by 0.10.2", None,
                "build_tree takes a nested structure, unflatten a flat list of leaves"),
    # --- config ---------------------------------------------------------------------------
    Deprecation("jax.config.config", "`jax.config` (`from jax import config`)", "0.4.25", "0.4.29", "safe",
                "the jax.config module was removed; the object is jax.config",
                import_from=("jax", "config")),
    # --- keyword arguments (JAX903) ---------------------------------------------------------
    Deprecation("a_min", "`min=`", "0.4.27", "0.10.0", "safe", kind="kwarg", function="jax.numpy.clip", new_qualname="min"),
    Deprecation("a_max", "`max=`", "0.4.27", "0.10.0", "safe", kind="kwarg", function="jax.numpy.clip", new_qualname="max"),
    Deprecation("a", "a positional argument", "0.4.27", "0.10.0", "safe", kind="kwarg", function="jax.numpy.clip"),
    Deprecation("newshape", "`shape=`", None, "by 0.10.2", "safe", kind="kwarg", function="jax.numpy.reshape",
                new_qualname="shape"),
    Deprecation("condition", "positional arguments", "0.4.21", "0.4.27", "safe", kind="kwarg", function="jax.numpy.where"),
    Deprecation("backend", "`jax.device_put` the inputs (or `jax.default_device`)", "0.4.2", None, None,
                "still runs with a DeprecationWarning", kind="kwarg", function="jax.jit"),
    Deprecation("device", "`jax.device_put` the inputs (or `jax.default_device`)", "0.4.2", None, None,
                "still runs with a DeprecationWarning", kind="kwarg", function="jax.jit"),
    Deprecation("in_axis_resources", "`in_shardings=`", "0.4.9", "0.4.14", "safe", kind="kwarg",
                function="jax.experimental.pjit.pjit", new_qualname="in_shardings"),
    Deprecation("out_axis_resources", "`out_shardings=`", "0.4.9", "0.4.14", "safe", kind="kwarg",
                function="jax.experimental.pjit.pjit", new_qualname="out_shardings"),
    # --- array methods (JAX904) ---------------------------------------------------------------
    Deprecation("device_buffer", "`x.addressable_data(0)`", "0.4.22", "0.4.27", "safe", kind="method"),
    Deprecation("device_buffers", "`[s.data for s in x.addressable_shards]`", "0.4.22", "0.4.27", "safe", kind="method"),
    Deprecation("to_py", "`np.asarray(x)`", "0.3.17", "0.4.0", "safe", kind="method"),
    Deprecation("device", "the `x.device` property (or `x.devices()`)", "0.4.21", "0.4.27", "safe", kind="method",
                note="`device` is now a property: `x.device()` raises TypeError: 'Device' object is not callable"),
)

BY_NAME: dict[str, Deprecation] = {d.old: d for d in TABLE if d.kind == "name"}
MODULES: tuple[Deprecation, ...] = tuple(d for d in TABLE if d.kind == "module")
METHODS: dict[str, Deprecation] = {d.old: d for d in TABLE if d.kind == "method"}
CALL_SHAPED: frozenset[str] = frozenset(d.old for d in TABLE if d.call is not None)
KWARGS: dict[str, dict[str, Deprecation]] = {}
for _d in TABLE:
    if _d.kind == "kwarg":
        KWARGS.setdefault(_d.function or "", {})[_d.old] = _d


@lru_cache(maxsize=65536)
def lookup(qualname: str) -> Optional[Deprecation]:
    """The row for a qualified name: an exact name, else the deprecated module it is in."""
    d = BY_NAME.get(qualname)
    if d is not None:
        return d
    for m in MODULES:
        if qualname == m.old or qualname.startswith(m.old + "."):
            return m
    return None
