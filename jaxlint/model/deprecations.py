"""Deprecated and removed JAX APIs, as one data table (research notes, Part C).

Each row: the old spelling, what to use instead, the JAX version that deprecated it and
the one that removed it (None: still works, with a warning), how far a mechanical fix
can go, and a note.  ``kind``:

* ``name``   a qualified name (attribute chain or import), matched through imports;
* ``module`` a module: the name and everything below it;
* ``method`` an attribute/method of a JAX array (``x.device_buffer``);
* ``kwarg``  a keyword argument of a function (``jnp.clip(a_min=...)``);
* ``flag``   a configuration option, set with ``jax.config.update("jax_array", ...)``.

``fix``: ``"safe"`` (same behaviour), ``"unsafe"`` (usually right, review it) or None;
every fix was checked against JAX 0.10.2 (the replacement exists there under that name).
``new_qualname``: the replacement spelled as a qualified name, when the fix is a plain
rename keeping the user's import alias; ``import_from``: a module from which the same
local name can be imported instead (for ``from OLD import name`` lines).

``changelog``: where the row comes from: ``"VERSION: quoted line"`` entries of JAX's
CHANGELOG.md (the versions' headings; several joined by `` | ``), or of the library's
own changelog for the rows of another ``library``; ``"registry 0.10.2"`` where only JAX
0.10.2's ``_deprecations`` registry names it; ``"git jax-vVERSION: what changed"`` where no
CHANGELOG line says it and the diff of JAX's sources between two release tags does (the
first release without the name).  ``tests/test_api_history.py`` checks that every row has one.
"""

from __future__ import annotations

from functools import lru_cache

from dataclasses import dataclass, replace
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
    changelog: str = ""  # "VERSION: quoted CHANGELOG line" (see the module docstring)
    library: str = "JAX"  # whose versions `deprecated`/`removed` are


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


_ROWS: tuple[Deprecation, ...] = (
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
    Deprecation("jax.extend.mlir.mhlo", "the StableHLO dialect, `jax.extend.mlir.dialects.stablehlo`", None, "0.4.32",
                None, kind="module",
                changelog="0.4.32: The MHLO MLIR dialect (`jax.extend.mlir.mhlo`) has been removed. Use the"),
    Deprecation("jax.interpreters.mlir.dense_bool_array", "nothing public (build the attribute with MLIR's own API)",
                None, "0.8.0", None,
                changelog="0.8.0: `jax.interpreters.mlir.dense_bool_array` was removed. Use MLIR APIs to"),
    Deprecation("jax.lib.xla_extension", "nothing public (`jax.extend`)", "0.6.0", "0.8.0", None, kind="module"),
    Deprecation("jaxlib.xla_extension", "`jax.extend` where it exposes the name (`jax.Array` for `ArrayImpl`)", None,
                "0.4.36", None, "the module is now the private `jaxlib._jax`", kind="module"),
    # jaxlib.xla_client, the module jax.lib.xla_client re-exported, still imports in jaxlib
    # 0.10.2 but without these members (each checked absent there): the re-exports' removals
    # from jax.lib.xla_client, and XLA's older Python client API
    *(
        Deprecation(f"jaxlib.xla_client.{n}", new, None, "by 0.10.2", None,
                    "jaxlib.xla_client no longer has it", changelog=src)
        for n, new, src in (
            ("FftType", "`jax.lax.FftType`", "0.4.35: operations. The semi-public API `jax.lib.xla_client.FftType` has been | "
             "0.6.0: * From `jax.lib.xla_client`: `ArrayImpl`, `FftType`, `PaddingType`,"),
            ("PaddingType", "nothing (no JAX API takes it)", "0.4.35: The semi-public API `jax.lib.xla_client.PaddingType` has been deprecated. | "
             "0.6.0: * From `jax.lib.xla_client`: `ArrayImpl`, `FftType`, `PaddingType`,"),
            *((n, "StableHLO: `jax.jit(f).lower(*args).compiler_ir()`",
               "0.4.35: `jax.lib.xla_client.Shape`, `jax.lib.xla_client.XlaBuilder`, and | "
               "0.6.0: `ops`, `register_custom_call_target`, `shape_from_pyval`, `Shape`,")
              for n in ("XlaBuilder", "dtype_to_etype", "ops", "shape_from_pyval")),
            ("heap_profile", "`jax.profiler.device_memory_profile()`",
             "0.6.0: `get_topology_for_devices`, `heap_profile`, `mlir_api_version`, `Client`,"),
            ("mlir_api_version", "nothing public", "0.6.0: `get_topology_for_devices`, `heap_profile`, `mlir_api_version`, `Client`, | "
             "0.7.0: `DeviceAssignment`, `get_topology_for_devices`, and `mlir_api_version`"),
            ("bfloat16", "`jax.numpy.bfloat16`", "0.4.38: * from {mod}`jax.lib.xla_client`: `_xla` and `bfloat16`."),
            *((n, "StableHLO: `jax.jit(f).lower(*args).compiler_ir()`",
               "not JAX's: XLA's older Python client API (its builder became `XlaBuilder`, itself "
               "removed since); absent from jaxlib 0.10.2's xla_client")
              for n in ("ComputationBuilder", "Computation", "LocalBuffer", "Buffer")),
            *((n, "`jax.devices()` / `jax.extend.backend.get_backend()`",
               "not JAX's: XLA's older Python client API; absent from jaxlib 0.10.2's xla_client")
              for n in ("get_local_backend", "Backend")),
            ("register_cpu_custom_call_target", "the JAX FFI (`jax.ffi.register_ffi_target`)",
             "not JAX's: XLA's older Python client API; absent from jaxlib 0.10.2's xla_client"),
        )
    ),
    Deprecation("jax.xla_computation", "`jax.jit(f).lower(*args).compiler_ir('hlo')`", "0.4.30", "0.4.34", None),
    Deprecation("jax.clear_backends", "`jax.clear_caches()`", "0.4.26", "0.4.36", None, "not exactly equivalent"),
    Deprecation("jax.experimental.compilation_cache.compilation_cache.initialize_cache",
                "`jax.config.update('jax_compilation_cache_dir', path)`", None, "0.8.0", None),
    Deprecation("jax.dlpack.to_dlpack", "the consumer's `from_dlpack` (pass it the array itself, or call `x.__dlpack__()`)", "0.6.0", "0.8.0", None),
    # --- sharding / parallelism ----------------------------------------------------------
    Deprecation("jax.experimental.maps.Mesh", "`jax.sharding.Mesh`", "0.4.1", "0.4.11", "safe",
                new_qualname="jax.sharding.Mesh", import_from=("jax.sharding", "Mesh")),
    Deprecation("jax.experimental.maps", "`jax.shard_map` / `jax.sharding`", "0.4.26", "0.4.31", None,
                "xmap has no mechanical replacement", kind="module"),
    # members of the module with their own replacements (its note is xmap's)
    Deprecation("jax.experimental.maps.xmap", "`jax.shard_map` (or `jax.vmap` with `spmd_axis_name`)", "0.4.26",
                "0.4.31", None, "xmap has no mechanical replacement"),
    Deprecation("jax.experimental.maps.thread_resources",
                "`jax.sharding.get_abstract_mesh()` (the mesh `with jax.set_mesh(mesh)` sets)", "0.4.26", "0.4.31",
                None),
    Deprecation("jax.experimental.PartitionSpec", "`jax.sharding.PartitionSpec`", "0.4.1", "0.4.11", "safe",
                new_qualname="jax.sharding.PartitionSpec", import_from=("jax.sharding", "PartitionSpec")),
    Deprecation("jax.experimental.pjit.pjit", "`jax.jit`", "0.8.0", None, "safe",
                "same parameters, all but the function passed by keyword; `in_axis_resources`/"
                "`out_axis_resources` were renamed `in_shardings`/`out_shardings`",
                new_qualname="jax.jit", import_from=("jax", "jit"), call=PJIT_CALL),
    Deprecation("jax.experimental.pjit.with_sharding_constraint", "`jax.lax.with_sharding_constraint`", "0.4.16", "by 0.10.2",
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
    Deprecation("jax.experimental.enable_x64", "`jax.enable_x64(True)`", "0.8.0", "by 0.10.2", None),
    Deprecation("jax.experimental.disable_x64", "`jax.enable_x64(False)`", "0.8.0", "by 0.10.2", None),
    Deprecation("jax.lax.tie_in", "its second argument (it was a no-op)", "0.4.24", "0.4.29", None),
    Deprecation("jax.lax.prod", "`math.prod`", "0.4.11", "0.4.16", None),
    Deprecation("jax.lax.zeros_like_array", "`jnp.zeros_like`", "0.7.1", "by 0.10.2", "safe",
                new_qualname="jax.numpy.zeros_like", import_from=("jax.numpy", "zeros_like")),
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
    # NumPy 1.x aliases (removed in NumPy 2.0) that jax.numpy never had: code ported from
    # NumPy gets AttributeError (JAX 0.10.2)
    *(
        Deprecation(f"jax.numpy.{old}", f"`jnp.{new}`", None, "never existed", "safe",
                    "a NumPy 1.x alias jax.numpy never had", new_qualname=f"jax.numpy.{new}",
                    changelog="not JAX's: a NumPy name jax.numpy never had")
        for old, new in (("NaN", "nan"), ("NAN", "nan"), ("Inf", "inf"), ("Infinity", "inf"),
                         ("infty", "inf"), ("cfloat", "complex128"), ("longfloat", "float64"),
                         ("singlecomplex", "complex64"))
    ),
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
        Deprecation(f"jax.interpreters.pxla.{n}", "`jax.shard_map`", "0.8.2", "0.10.0", None,
                    "it was part of `jax.pmap`'s sharding internals")
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
    # --- from JAX's CHANGELOG since 0.2.0: names removed long ago that stay in users' code ---
    Deprecation("jax.tree_multimap", "`jax.tree.map`", "0.3.5", "0.3.16", "safe",
                "tree_map takes several trees; the top-level alias went with tree_util's",
                new_qualname="jax.tree.map", import_from=("jax.tree_util", "tree_map"),
                changelog="0.3.5: {func}`jax.tree_util.tree_multimap` is deprecated. Use {func}`jax.tree_util.tree_map` instead"
                          " | 0.3.16: {func}`jax.tree_util.tree_multimap` has been removed."),
    *(
        Deprecation(old, "`functools.partial`", None, ver, "safe", "an accidental export of functools.partial",
                    new_qualname="functools.partial", import_from=("functools", "partial"), changelog=cite)
        for old, ver, cite in (
            ("jax.partial", "0.2.21", "0.2.21: `jax.partial`, and `jax.lax.partial` were accidental exports that have now been removed."),
            ("jax.lax.partial", "0.2.21", "0.2.21: `jax.partial`, and `jax.lax.partial` were accidental exports that have now been removed."),
            ("jax.util.partial", "0.2.22", "0.2.22: `jax.util.partial` was an accidental export that has now been removed."),
        )
    ),
    Deprecation("jax.experimental.loops", "`jax.lax.fori_loop` / `jax.lax.scan` / `jax.lax.while_loop`", "0.3.6", "0.3.16",
                None, "no mechanical replacement (jax-ml/jax#10278 shows the alternative)", kind="module",
                changelog="0.3.6: {mod}`jax.experimental.loops` is being deprecated. | 0.3.16: {mod}`jax.experimental.loops` has been removed."),
    Deprecation("jax.experimental.optix", "`optax` (the standalone package optix became)", None, "0.2.7", None,
                "optax renamed some transformations", kind="module",
                changelog="0.2.7: `jax.experimental.optix` has been deleted, in favor of the standalone `optax` Python package."),
    Deprecation("jax.experimental.minmax", "`jax.example_libraries.optimizers` (or optax)", None, "0.1.49", None,
                "renamed `jax.experimental.optimizers` in February 2019", kind="module",
                changelog="0.1.49: no CHANGELOG entry; JAX's commit 'rename \"minmax\" -> \"optimizers\"' is first in jax-v0.1.49"),
    Deprecation("jax.soft_pmap", "`jax.jit` with shardings, or `jax.shard_map`", None, "0.3.18", None,
                "no mechanical replacement", changelog="0.3.18: `jax.soft_pmap` has been deleted. Please use `pjit` or `xmap` instead."),
    Deprecation("jax.custom_transforms", "`jax.custom_jvp` / `jax.custom_vjp`", "0.1.63", "by 0.10.2", None,
                "the rules are written differently",
                changelog="0.1.63: Deprecated `jax.custom_transforms` and removed it from the docs (though it still works)."),
    Deprecation("jax.experimental.callback", "nothing public (the tracer-rewriting API was deleted)", None, "0.4.2", None,
                kind="module", changelog="0.4.2: Deleted `jax.experimental.callback`"),
    Deprecation("jax.experimental.si_vjp", "`jax.vjp`", None, "0.8.2", None, "jax.vjp subsumes it",
                changelog="0.8.2: `jax.experimental.si_vjp` has been deleted."),
    Deprecation("jax.experimental.sharded_jit", "`jax.jit` with shardings", "0.3.5", "by 0.4.9", None, kind="module",
                changelog="0.3.5: `jax.experimental.sharded_jit` is deprecated. Use `pjit` instead."
                          " | 0.4.9: since they were only used with sharded_jit and sharded_jit is long gone."),
    *(
        Deprecation(f"jax.{n}", "nothing (shape polymorphism is `jax.export`'s)", None, "0.3.16", None,
                    changelog="0.3.16: {func}`jax.mask` {func}`jax.shapecheck` APIs have been removed.")
        for n in ("mask", "shapecheck")
    ),
    Deprecation("jax.test_util.JaxTestCase", "`absl.testing.parameterized.TestCase` (or `unittest.TestCase`)", "0.3.1", "0.3.15",
                None, changelog="0.3.15: `JaxTestCase` and `JaxTestLoader` have been removed from `jax.test_util`."),
    Deprecation("jax.test_util.JaxTestLoader", "`absl.testing.absltest.TestLoader`", "0.3.1", "0.3.15",
                None, changelog="0.3.15: `JaxTestCase` and `JaxTestLoader` have been removed from `jax.test_util`."),
    # the rest of jax.test_util's deprecated helpers (0.3.8) went in 0.3.22; jax 0.10.2's
    # jax.test_util keeps only check_grads, check_jvp and check_vjp
    *(
        Deprecation(f"jax.test_util.{n}", new, "0.3.8", "0.3.22", None,
                    changelog="0.3.8: Many functions and objects available in {mod}`jax.test_util` are now deprecated and will raise a | "
                    "0.3.22: Several test utilities deprecated in JAX v0.3.8 are now removed from")
        for n, new in (
            ("cases_from_list", "`absl.testing.parameterized` / a plain list"),
            ("check_close", "`numpy.testing.assert_allclose`"),
            ("check_eq", "`numpy.testing.assert_array_equal`"),
            ("device_under_test", "`jax.default_backend()`"),
            ("format_shape_dtype_string", "nothing public (format the shape yourself)"),
            ("rand_uniform", "`numpy.random.default_rng().uniform`"),
            ("skip_on_devices", "a `unittest.skipIf(jax.default_backend() == ...)`"),
            ("with_config", "`jax.config.update` in the test's setUp"),
            ("xla_bridge", "`jax.devices()` / `jax.default_backend()`"),
            ("_default_tolerance", "nothing public"),
            ("BufferDonationTestCase", "`absl.testing.parameterized.TestCase` (or `unittest.TestCase`)"),
        )
    ),
    *(
        Deprecation(f"jax.core.{n}", "`jnp.issubdtype(dtype, jax.dtypes.extended)`", None, "0.4.16", None,
                    "opaque dtypes were renamed extended dtypes",
                    changelog="0.4.16: The internal utilities `jax.core.is_opaque_dtype` and `jax.core.has_opaque_dtype`")
        for n in ("is_opaque_dtype", "has_opaque_dtype")
    ),
    Deprecation("jax.interpreters.xla.register_collective_primitive", "nothing (delete the call: it did nothing)", None,
                "0.4.16", None,
                changelog="0.4.16: The utility `jax.interpreters.xla.register_collective_primitive` has been"),
    Deprecation("jax.lax_linalg", "`jax.lax.linalg`", None, "0.2.6", "safe", kind="module", new_qualname="jax.lax.linalg",
                changelog="0.2.6: The contents of the (undocumented) `jax.lax_linalg` linear algebra module"),
    Deprecation("jax.experimental.compilation_cache.compilation_cache.is_initialized",
                "nothing (the cache initializes itself: `jax.config.update('jax_compilation_cache_dir', path)`)",
                None, "0.8.0", None,
                changelog="0.8.0: from {mod}`jax.experimental.compilation_cache`, the deprecated symbols"),
    # `jax.jax`: jax/__init__.py's `import jax.lib` bound the package's own name inside it, so
    # `jax.jax.tree_util.tree_map` worked until 0.10.0; 0.10.1 imports `from jax import lib as
    # lib` instead and `jax.jax` raises AttributeError (no CHANGELOG line: the git diff says it)
    Deprecation("jax.jax", "`jax` (`jax.jax` was the jax package itself, bound by accident)", None, "0.10.1", "safe",
                kind="module", new_qualname="jax",
                changelog="git jax-v0.10.1: jax/__init__.py: `import jax.lib` (which bound `jax.jax`) became "
                          "`from jax import lib as lib`"),
    Deprecation("jax.experimental.ann", "`jax.lax.approx_max_k` / `jax.lax.approx_min_k`", None, "by 0.10.2", None,
                kind="module", changelog="0.3.2: Moved `jax.experimental.ann.approx_*_k` into `jax.lax`."),
    *(
        Deprecation(f"jax.experimental.ann.{n}", f"`jax.lax.{n}`", None, "by 0.10.2", "safe", "the same function, moved",
                    new_qualname=f"jax.lax.{n}", import_from=("jax.lax", n),
                    changelog="0.3.2: Moved `jax.experimental.ann.approx_*_k` into `jax.lax`.")
        for n in ("approx_max_k", "approx_min_k")
    ),
    Deprecation("jax.scipy.linalg.polar_unitary", "`jax.scipy.linalg.polar`", "0.3.11", "0.4.3", None,
                "polar returns the unitary and the positive factor",
                changelog="0.4.3: Deleted {func}`jax.scipy.linalg.polar_unitary`, which was a deprecated JAX"),
    Deprecation("jax.sharding.MeshPspecSharding", "`jax.sharding.NamedSharding`", "0.3.24", "by 0.10.2", "safe",
                new_qualname="jax.sharding.NamedSharding", import_from=("jax.sharding", "NamedSharding"),
                changelog="0.3.24: `jax.sharding.MeshPspecSharding` has been renamed to `jax.sharding.NamedSharding`."),
    Deprecation("jax.sharding.OpShardingSharding", "`jax.sharding.GSPMDSharding` (gone too: `jax.NamedSharding`)",
                "0.4.5", "0.4.12", None,
                changelog="0.4.5: `jax.sharding.OpShardingSharding` has been renamed to `jax.sharding.GSPMDSharding`."
                          " | 0.4.12: `jax.sharding.OpShardingSharding` has been removed since it has been 3"),
    # 0.4.11: "The following APIs have been removed after a 3 month deprecation period"
    *(
        Deprecation(old, f"`{new}`", "0.4.4", "0.4.11", "safe", new_qualname=new,
                    import_from=tuple(new.rsplit(".", 1)),  # type: ignore[arg-type]
                    changelog=f"0.4.11: `{old}`: use `{new}`")
        for old, new in (("jax.experimental.pjit.NamedSharding", "jax.sharding.NamedSharding"),
                         ("jax.experimental.pjit.PartitionSpec", "jax.sharding.PartitionSpec"),
                         ("jax.interpreters.pxla.PartitionSpec", "jax.sharding.PartitionSpec"),
                         ("jax.interpreters.pxla.Mesh", "jax.sharding.Mesh"),
                         ("jax.interpreters.xla.Device", "jax.Device"),
                         ("jax.interpreters.xla.Buffer", "jax.Array"))
    ),
    Deprecation("jax.experimental.pjit.FROM_GDA", "sharded `jax.Array` inputs (drop `in_shardings`)", "0.4.7", "0.4.11", None,
                changelog="0.4.11: `jax.experimental.pjit.FROM_GDA`. Instead pass sharded `jax.Array` objects"),
    Deprecation("jax.interpreters.xla.device_put", "`jax.device_put`", "0.4.7", "0.4.11", None,
                "the arguments differ", changelog="0.4.11: `jax.interpreters.xla.device_put`: use `jax.device_put`."),
    Deprecation("jax.interpreters.xla.xla_call_p", "nothing public (`jax.jit`)", None, "0.4.11", None,
                changelog="0.4.11: `jax.interpreters.xla.xla_call_p`: use `jax.experimental.pjit.pjit_p`."),
    # 0.4.14: "The following APIs have been removed after previous deprecation"
    *(
        Deprecation(old, new, "0.4.4", "0.4.14", None, kind="module", changelog=cite)
        for old, new, cite in (
            ("jax.partial_eval", "`jax.interpreters.partial_eval`", "0.4.14: `jax.partial_eval`: use {mod}`jax.interpreters.partial_eval`."),
            ("jax.pxla", "`jax.interpreters.pxla`", "0.4.14: `jax.pxla`: use {mod}`jax.interpreters.pxla`."),
            ("jax.xla", "`jax.interpreters.xla`", "0.4.14: `jax.xla`: use {mod}`jax.interpreters.xla`."),
        )
    ),
    Deprecation("jax.curry", "`lambda f: functools.partial(functools.partial, f)`", None, "0.4.14", None,
                changelog="0.4.14: `jax.curry`: use ``curry = lambda f: partial(partial, f)``."),
    Deprecation("jax.ShapedArray", "`jax.core.ShapedArray`", None, "0.4.14", "safe", new_qualname="jax.core.ShapedArray",
                import_from=("jax.core", "ShapedArray"),
                changelog="0.4.14: `jax.ShapedArray`: use {class}`jax.core.ShapedArray`."),
    Deprecation("jax.interpreters.pxla.device_put", "`jax.device_put`", "0.4.7", "0.4.14", None, "the arguments differ",
                changelog="0.4.14: `jax.interpreters.pxla.device_put`: use {func}`jax.device_put`."),
    Deprecation("jax.interpreters.pxla.make_sharded_device_array", "`jax.make_array_from_single_device_arrays`",
                None, "0.4.14", None, "the arguments differ",
                changelog="0.4.14: `jax.interpreters.pxla.make_sharded_device_array`: use {func}`jax.make_array_from_single_device_arrays`."),
    Deprecation("jax.jaxpr_util", "nothing public", None, "0.4.16", None, kind="module",
                changelog="0.4.16: `jax.jaxpr_util` has been removed from the public JAX namespace."),
    Deprecation("jax.experimental.gda_serialization", "`jax.experimental.array_serialization`", "0.4.9", "by 0.10.2",
                None, "the API changed with the rename", kind="module",
                changelog="0.4.9: `jax.experimental.gda_serialization` is deprecated and has been renamed to"),
    # 0.4.24: "A number of previously deprecated functions have been removed"
    Deprecation("jax.prng", "`jax.extend.random`", "0.4.16", "0.4.24", None, kind="module",
                changelog="0.4.16: The internal submodule `jax.prng` is now deprecated. | 0.4.24: The `jax.prng` submodule and all its contents."),
    *(
        Deprecation(f"jax.random.{n}", "`jax.random.key(seed, impl=...)` / `jax.extend.random`", None, "0.4.24", None,
                    changelog="0.4.24: From {mod}`jax.random`: `PRNGKeyArray`, `KeyArray`, `default_prng_impl`,")
        for n in ("default_prng_impl", "threefry_2x32", "threefry2x32_p")
    ),
    *(
        Deprecation(f"jax.tree_util.{n}", new, "0.4.6", "0.4.24", None,
                    changelog="0.4.24: From {mod}`jax.tree_util`: `register_keypaths`, `AttributeKeyPathEntry`, and")
        for n, new in (("register_keypaths", "`jax.tree_util.register_pytree_with_keys`"),
                       ("AttributeKeyPathEntry", "`jax.tree_util.GetAttrKey`"),
                       ("GetitemKeyPathEntry", "`jax.tree_util.SequenceKey` / `jax.tree_util.DictKey`"),
                       ("GetItemKeyPathEntry", "`jax.tree_util.SequenceKey` / `jax.tree_util.DictKey`"))
    ),
    *(
        Deprecation(f"jax.core.{n}", f"`jax.errors.{n}`", None, "0.4.24", "safe", new_qualname=f"jax.errors.{n}",
                    import_from=("jax.errors", n),
                    changelog="0.4.24: From {mod}`jax.core`: `TracerArrayConversionError`,")
        for n in ("TracerArrayConversionError", "TracerIntegerConversionError", "UnexpectedTracerError")
    ),
    Deprecation("jax.core.ConcretizationTypeError", "`jax.errors.ConcretizationTypeError`", None, "0.7.0", "safe",
                new_qualname="jax.errors.ConcretizationTypeError", import_from=("jax.errors", "ConcretizationTypeError"),
                changelog="0.7.0: From {mod}`jax.core`, the previously deprecated symbols `AxisName`,"),
    *(
        Deprecation(f"jax.lax.{n}", "`jax.experimental.io_callback` / `jax.device_put`", "0.6.0", "0.7.0", None,
                    changelog="0.7.0: `lax.infeed` and `lax.outfeed` were removed, after being deprecated in")
        for n in ("infeed", "outfeed", "infeed_p", "outfeed_p")
    ),
    Deprecation("jax.extend.ffi", "`jax.ffi`", "0.5.0", "0.7.0", "safe", "the same functions, moved", kind="module",
                new_qualname="jax.ffi", import_from=("jax", "ffi"),
                changelog="0.5.0: The {mod}`jax.extend.ffi` submodule was moved to {mod}`jax.ffi`, and the"
                          " | 0.7.0: `jax.extend.ffi` was removed after being deprecated in v0.5.0."),
    Deprecation("jax.sharding.use_mesh", "`jax.set_mesh`", None, "0.7.1", None,
                changelog="0.7.1: Removed `jax.sharding.use_mesh` in favor of `jax.set_mesh`."),
    Deprecation("jax.experimental.shard", "`jax.sharding` (`reshard`, `auto_axes`, `explicit_axes`)", None, "0.7.0", None,
                kind="module", changelog="0.7.0: `jax.experimental.shard` module has been deleted and all the APIs have been"),
    Deprecation("jax.interpreters.xla.canonicalize_dtype", "`jax.dtypes.canonicalize_dtype`", "0.7.0", "0.8.0", None,
                changelog="0.8.0: The deprecated function {func}`jax.interpreters.xla.canonicalize_dtype`"),
    Deprecation("jax.interpreters.mlir.custom_call", "`jax.ffi.ffi_call`", "0.6.0", "0.8.0", None,
                changelog="0.8.0: The deprecated function {func}`jax.interpreters.mlir.custom_call` was"),
    Deprecation("jax.custom_derivatives.custom_jvp_call_jaxpr_p", "nothing public", "0.6.1", "0.8.0", None,
                changelog="0.8.0: The deprecated symbol {obj}`jax.custom_derivatives.custom_jvp_call_jaxpr_p`"),
    Deprecation("jax.experimental.compilation_cache.compilation_cache.is_initialized", "nothing (the cache initialises itself)",
                None, "0.8.0", None,
                changelog="0.8.0: from {mod}`jax.experimental.compilation_cache`, the deprecated symbols"),
    Deprecation("jax.dlpack.SUPPORTED_DTYPES", "`jax.dlpack.is_supported_dtype(dtype)`", "0.7.0", "by 0.10.2", None,
                changelog="0.7.0: {obj}`jax.dlpack.SUPPORTED_DTYPES` is deprecated; please use the new"),
    Deprecation("jax.experimental.custom_dce.custom_dce", "nothing public", None, "0.10.0", None,
                changelog="0.10.0: Removed experimental {func}`jax.experimental.custom_dce.custom_dce`"),
    # host_callback's functions: each call needs rewriting (the module row reports the import)
    *(
        Deprecation(f"jax.experimental.host_callback.{n}", new, "0.4.26", "0.8.0", None, note, changelog=(
            "0.4.26: The `jax.experimental.host_callback` module is deprecated."
            " | 0.8.0: The `jax.util`, `jax.extend.ffi`, and `jax.experimental.host_callback`"))
        for n, new, note in (
            ("id_print", "`jax.debug.print(\"{}\", x)`", "id_print returned its argument; debug.print returns None"),
            ("id_tap", "`jax.debug.callback(fn, x)`", "id_tap returned its argument and passed `transforms`"),
            ("call", "`jax.pure_callback(fn, result_shape, x)` (or `jax.experimental.io_callback`)",
             "`result_shape` becomes the second argument"),
            ("barrier_wait", "`jax.effects_barrier()`", ""),
        )
    ),
    # --- JAX internals the CHANGELOG lists as removed (nothing public replaces most) ----------
    *(
        Deprecation(f"{mod}.{n}", "nothing public", None, ver, None, changelog=cite)
        for mod, ver, cite, names in (
            ("jax.core", "0.4.24", "0.4.24: From {mod}`jax.core`: `TracerArrayConversionError`,",
             ("as_hashable_function", "collections", "dtypes", "lu", "map", "namedtuple", "partial", "pp",
              "ref", "safe_zip", "safe_map", "source_info_util", "total_ordering", "traceback_util",
              "tuple_delete", "tuple_insert", "zip")),
            ("jax.lax", "0.4.24", "0.4.24: From {mod}`jax.lax`: `dtypes`, `itertools`, `naryop`, `naryop_dtype_rule`,",
             ("dtypes", "itertools", "naryop", "naryop_dtype_rule", "standard_abstract_eval", "standard_naryop",
              "standard_primitive", "standard_unop", "unop", "unop_dtype_rule")),
            ("jax.interpreters.xla", "0.4.24",
             "0.4.24: from {mod}`jax.interpreters.xla`: `backend_specific_translations`, `translations`,",
             ("axis_groups", "ShapedArray", "ConcreteArray", "AxisEnv", "backend_compile")),
            ("jax.core", "0.4.31", "0.4.31: polymorphic shapes. From {mod}`jax.core`: removed `canonicalize_shape`,",
             ("canonicalize_shape", "dimension_as_value", "definitely_equal", "symbolic_equal_dim")),
            ("jax.core", "0.4.38", "0.4.38: from {mod}`jax.core`: `check_eqn`, `check_type`, `check_valid_jaxtype`, and",
             ("check_eqn", "check_type", "check_valid_jaxtype")),
            ("jax.core", "0.6.0", "0.6.0: From `jax.core`: `AxisSize`, `ClosedJaxpr`, `EvalTrace`, `InDBIdx`, `InputType`,",
             ("AxisSize", "EvalTrace", "InDBIdx", "InputType", "JaxprEqn", "MapPrimitive", "OpaqueTraceState",
              "OutDBIdx", "Token", "TRACER_LEAK_DEBUGGER_WARNING", "concrete_aval", "dedup_referents",
              "escaped_tracer_error", "extend_axis_env_nd", "full_lower", "get_referent", "join_effects",
              "lattice_join", "leaked_tracer_error", "maybe_find_leaked_tracers", "raise_to_shaped",
              "raise_to_shaped_mappings", "reset_trace_state", "str_eqn_compact", "substitute_vars_in_output_ty",
              "typecompat", "used_axis_names_jaxpr")),
            ("jax.core", "0.7.0", "0.7.0: From {mod}`jax.core`, the previously deprecated symbols `AxisName`,",
             ("AxisName", "axis_frame", "call_p", "closed_call_p", "get_type", "trace_state_clean", "typematch",
              "typecheck")),
            ("jax.interpreters.xla", "0.4.36", "0.4.36: In `jax.interpreters.xla`, the `xb`, `xc`, and `xe` symbols have been removed",
             ("xb", "xc", "xe")),
            ("jax.interpreters.ad", "0.4.26", "0.4.26: The previously-deprecated imports `jax.interpreters.ad.config` and",
             ("config", "source_info_util")),
            ("jax.interpreters.xla", "0.7.0", "0.7.0: From {mod}`jax.interpreters.xla`, the previously deprecated symbols",
             ("abstractify",)),
        )
        for n in names
    ),
    # --- keyword arguments from the CHANGELOG (JAX903) -----------------------------------------
    Deprecation("interpolation", "`method=`", None, "0.8.0", "safe", kind="kwarg", function="jax.numpy.percentile",
                new_qualname="method",
                changelog="0.8.0: The previously-deprecated `interpolation` argument to"),
    Deprecation("interpolation", "`method=`", None, "0.8.0", "safe", kind="kwarg", function="jax.numpy.quantile",
                new_qualname="method",
                changelog="0.8.0: The previously-deprecated `interpolation` argument to"),
    Deprecation("kind", "`stable=True` / `stable=False`", None, "0.4.28", None, kind="kwarg", function="jax.numpy.sort",
                changelog="0.4.28: The ``kind`` argument to {func}`jax.numpy.sort` and {func}`jax.numpy.argsort`"),
    Deprecation("kind", "`stable=True` / `stable=False`", None, "0.4.28", None, kind="kwarg", function="jax.numpy.argsort",
                changelog="0.4.28: The ``kind`` argument to {func}`jax.numpy.sort` and {func}`jax.numpy.argsort`"),
    Deprecation("use_magma", "`implementation=jax.lax.linalg.EigImplementation.MAGMA`", "0.8.0", None, None,
                kind="kwarg", function="jax.lax.linalg.eig",
                changelog="0.8.0: ({jax-issue}`#27265`). The `use_magma` argument is now deprecated in favor"),
    Deprecation("sym_pos", "`assume_a='pos'`", "0.3.15", "0.4.21", None, kind="kwarg", function="jax.scipy.linalg.solve",
                changelog="0.4.21: The previously-deprecated `sym_pos` argument has been removed from"),
    # `jax.nn.softmax`/`log_softmax` (the same objects as flax's `nn.softmax`, `nnx.softmax`)
    *(
        Deprecation("initial", "nothing (drop it: `where=` alone masks; empty inputs need no `initial`)",
                    "0.4.27", "0.4.36", None, kind="kwarg", function=f"{mod}.{fn}",
                    changelog="0.4.27: The `initial` argument to {func}`jax.nn.softmax` and {func}`jax.nn.log_softmax`"
                              " | 0.4.36: The `initial` argument to {func}`jax.nn.softmax` and {func}`jax.nn.log_softmax`")
        for mod in ("jax.nn", "flax.linen", "flax.nnx") for fn in ("softmax", "log_softmax")
    ),
    Deprecation("named_shape", "nothing (drop it: only `xmap` used it)", None, "0.4.34", None, kind="kwarg",
                function="jax.ShapeDtypeStruct",
                changelog="0.4.34: {class}`jax.ShapeDtypeStruct` no longer accepts the `named_shape` argument."),
    Deprecation("lowering_platforms", "`platforms=`", None, "0.4.36", "safe", kind="kwarg",
                function="jax.export.export", new_qualname="platforms",
                changelog="0.4.36: the `lowering_platforms` kwarg for {func}`jax.export.export`: use"),
    *(
        Deprecation(old, f"`{new}=`", None, "0.4.36", "safe", kind="kwarg", function="jax.export.symbolic_args_specs",
                    new_qualname=new,
                    changelog="0.4.36: The kwargs `symbolic_scope` and `symbolic_constraints` from")
        for old, new in (("symbolic_scope", "scope"), ("symbolic_constraints", "constraints"))
    ),
    Deprecation("axis_resources", "`shardings=`", "0.4.4", "0.4.11", "safe", kind="kwarg",
                function="jax.lax.with_sharding_constraint", new_qualname="shardings",
                changelog="0.4.4: `axis_resources` argument of `with_sharding_constraint` is deprecated."
                          " | 0.4.11: `axis_resources` argument of `with_sharding_constraint` is removed. Please"),
    # --- other libraries' removed APIs (their changelogs) ----------------------------------------
    Deprecation("flax.optim", "optax (`optax.adam(...)` with `flax.training.train_state.TrainState`)", "0.4.1", "0.6.0",
                None, "optax's optimizers are gradient transformations, not optimizer objects", kind="module",
                library="Flax",
                changelog="Flax 0.4.1: Added Optax update guide and deprecated `flax.optim`."
                          " | Flax 0.6.0: Removed deprecated optimizers in `flax.optim` package."),
    Deprecation("flax.nn", "`flax.linen` (`from flax import linen as nn`)", "0.3.6", "0.4.0", None,
                "Linen modules are dataclasses applied with `model.apply(variables, x)`, not `nn.Model`"
                " objects; layer arguments and parameter layout changed", kind="module", library="Flax",
                changelog="Flax 0.3.6: Move `flax.nn` to `flax.deprecated.nn`."
                          " | Flax 0.4.0: flax.deprecated.nn is removed. Please pin to flax==0.3.6 if you are"),
    Deprecation("flax.deprecated.nn", "`flax.linen` (`from flax import linen as nn`)", None, "0.4.0", None,
                "Linen modules are dataclasses applied with `model.apply(variables, x)`", kind="module",
                library="Flax",
                changelog="Flax 0.4.0: flax.deprecated.nn is removed. Please pin to flax==0.3.6 if you are"),
    Deprecation("flax.optim.dynamic_scale", "`flax.training.dynamic_scale`", None, "0.6.0", "safe", kind="module",
                new_qualname="flax.training.dynamic_scale", library="Flax",
                changelog="Flax 0.6.0: Moved `flax.optim.dynamic_scale` to `flax.training.dynamic_scale`."),
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
    Deprecation("backend", "`jax.device_put` on the inputs (or `jax.default_device`)", "0.4.2", None, None,
                "still runs with a DeprecationWarning", kind="kwarg", function="jax.jit"),
    Deprecation("device", "`jax.device_put` on the inputs (or `jax.default_device`)", "0.4.2", None, None,
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
    *(
        Deprecation(name, new, "0.4.5", "0.4.14", None, kind="method",
                    changelog="0.4.5: The following `jax.Array` methods are deprecated and will be removed 3 months from"
                              f" | 0.4.14: * `jax.Array.{name}`: use {{func}}`{new_q}` instead.")
        for name, new, new_q in (
            ("split", "`jnp.split(x, ...)`", "jax.numpy.split"),
            ("broadcast", "`jax.lax.broadcast(x, sizes)`", "jax.lax.broadcast"),
            ("broadcast_in_dim", "`jax.lax.broadcast_in_dim(x, shape, broadcast_dimensions)`", "jax.lax.broadcast_in_dim"),
        )
    ),
    Deprecation("tile", "`jnp.tile(x, reps)`", "0.3.7", "0.3.17", None, kind="method",
                changelog="0.3.7: The `DeviceArray.tile()` method is deprecated, because numpy arrays do not have a"
                          " | 0.3.17: The deprecated `DeviceArray.tile()` method has been removed. Use {func}`jax.numpy.tile`"),
    # --- configuration options (JAX901): `jax.config.update("jax_array", True)` raises
    # AttributeError "Unrecognized config option" (checked on JAX 0.10.2) -----------------
    *(
        Deprecation(flag, new, deprecated, removed, None, kind="flag", function="jax.config.update",
                    changelog=cite)
        for flag, new, deprecated, removed, cite in (
            ("jax_experimental_name_stack", "nothing (the option is gone: name stacks are always on)", None,
             "0.3.25", "0.3.25: Deleted the `jax_experimental_name_stack` config option."),
            *((f, "nothing (the option is gone: `jax.Array` and the merged jit are always on)", "0.4.7", "0.4.14",
               "0.4.7: `jax.config.jax_array` cannot be disabled anymore. | "
               "0.4.14: The deprecated config options `jax_array` and `jax_jit_pjit_api_merge`,")
              for f in ("jax_array", "jax_jit_pjit_api_merge")),
            ("jax_coordination_service", "nothing (the option is gone: the coordination service is always on)",
             None, "0.4.16", "0.4.16: The option `--jax_coordination_service` has been removed. It is now always"),
            ("jax_host_callback_ad_transforms", "nothing (the option is gone)", None, "0.4.16",
             "0.4.16: The backwards compatibility flag `--jax_host_callback_ad_transforms`"),
            ("jax_parallel_functions_output_gda", "nothing (the option is gone: outputs are `jax.Array`s)", None,
             "0.4.26", "0.4.26: The deprecated flag `jax_parallel_functions_output_gda` has been removed."),
            ("jax_enable_memories", "nothing (the option is gone: memories are always on)", "0.4.32", "0.5.0",
             "0.4.32: `jax_enable_memories` flag is set to `True` by default. | "
             "0.5.0: `jax_enable_memories` flag has been deleted and the behavior of that flag"),
            ("jax_data_dependent_tracing_fallback", "nothing (the option is gone)", None, "0.6.0",
             "0.6.0: Removed the `config.jax_data_dependent_tracing_fallback` config option,"),
            ("jax_eager_pmap", "nothing (the option is gone)", None, "0.6.0",
             "0.6.0: Removed the `config.jax_eager_pmap` config option."),
            ("jax_cpu_enable_gloo_collectives",
             "`jax.config.update(\"jax_cpu_collectives_implementation\", \"gloo\")`", "0.4.27", "0.8.0",
             "0.4.27: The config option `jax_cpu_enable_gloo_collectives` is deprecated. | "
             "0.8.0: The option `jax_cpu_enable_gloo_collectives` has been removed. Use"),
            ("jax_collectives_common_channel_id", "nothing (the option is gone)", None, "0.9.0",
             "0.9.0: The flag `jax_collectives_common_channel_id` was removed."),
            ("jax_pmap_no_rank_reduction", "nothing (the option is gone: pmap no longer reduces the rank)", "0.7.2",
             "0.9.0", "0.7.2: Setting the config state `jax_pmap_no_rank_reduction` to `False` is | "
             "0.9.0: The `jax_pmap_no_rank_reduction` config state has been removed. The"),
            ("jax_pmap_shmap_merge", "nothing (the option is gone)", "0.9.0", "0.10.0",
             "0.9.0: Setting the `jax_pmap_shmap_merge` config state is deprecated in JAX v0.9.0 | "
             "0.10.0: The config state `jax_pmap_shmap_merge` has been removed. `jax.pmap`"),
        )
    ),
)


# Where each row above that gives no ``changelog`` comes from (keys: the old name; a
# keyword argument as ``function(keyword=)``; an array method as ``x.method``).
_TREE_06 = "0.6.0: From `jax`: `jax.treedef_is_leaf`, `jax.tree_flatten`, `jax.tree_map`,"
_CORE_082 = "0.8.2: From {mod}`jax.core` a number of symbols are newly deprecated including:"
_CORE_010 = "0.10.0: A number of internal APIs in `jax.core` have been newly deprecated and"
_PXLA_082 = "0.8.2: All symbols in {mod}`jax.interpreters.pxla` are deprecated."
_XLA_0429 = "0.4.29: from {mod}`jax.interpreters.xla`: `backend_specific_translations`,"
_SOURCES: dict[str, str] = {
    "jax.tree_map": "0.4.26: {func}`jax.tree_map` is deprecated; use `jax.tree.map` instead | " + _TREE_06,
    **{f"jax.tree_{n}": f"0.3.15: {{func}}`jax.tree_{n}` is deprecated in favor of {{func}}`jax.tree_util.tree_{n}` | "
       + _TREE_06 for n in ("leaves", "flatten", "unflatten", "structure", "transpose")},
    "jax.treedef_is_leaf": "0.3.15: {func}`jax.treedef_is_leaf` is deprecated in favor of {func}`jax.tree_util.treedef_is_leaf` | "
                           + _TREE_06,
    "jax.tree_util.tree_multimap": "0.3.5: {func}`jax.tree_util.tree_multimap` is deprecated. | "
                                   "0.3.16: {func}`jax.tree_util.tree_multimap` has been removed.",
    "jax.random.KeyArray": "0.4.16: `jax.random.PRNGKeyArray` and `jax.random.KeyArray` are deprecated. | "
                           "0.4.24: From {mod}`jax.random`: `PRNGKeyArray`, `KeyArray`, `default_prng_impl`,",
    "jax.random.PRNGKeyArray": "0.4.16: `jax.random.PRNGKeyArray` and `jax.random.KeyArray` are deprecated. | "
                               "0.4.24: From {mod}`jax.random`: `PRNGKeyArray`, `KeyArray`, `default_prng_impl`,",
    "jax.random.shuffle": "0.4.31: The previously-deprecated function `jax.random.shuffle` has been removed;",
    **{f"jax.random.{n}": "0.4.17: Named key constructors in {mod}`jax.random` are deprecated. | "
       "0.4.24: `threefry_2x32`, `threefry2x32_key`, `threefry2x32_p`, `rbg_key`, and"
       for n in ("threefry2x32_key", "rbg_key", "unsafe_rbg_key")},
    "jax.random.PRNGKey": "0.4.17: Pass the `impl` argument to {func}`jax.random.PRNGKey` or {func}`jax.random.key` instead",
    **{f"jax.ops.{n}": "0.2.22: The functions `jax.ops.index_update`, `jax.ops.index_add` etc. are | "
       "0.3.2: The functions `jax.ops.index_update`, `jax.ops.index_add`, which were"
       for n in ("index_update", "index_add", "index_mul", "index_min", "index_max", "index")},
    "jax.lib.xla_bridge": "0.4.32: `jax.lib.xla_bridge.get_backend`: use {func}`jax.extend.backend.get_backend`. | "
                          "0.8.0: The deprecated functions in {mod} `jax.dlpack`, {mod} `jax.errors`, {mod}",
    "jax.lib.xla_client": "0.6.0: The following exports in `jax.lib.xla_client` are deprecated: | "
                          "0.8.0: The deprecated functions in {mod} `jax.dlpack`, {mod} `jax.errors`, {mod}",
    "jax.lib.xla_extension": "0.6.0: All APIs in `jax.lib.xla_extension` are now deprecated. | "
                             "0.8.0: `jax.lib.xla_extension` were removed.",
    "jaxlib.xla_extension": "0.4.36: `xc = jax.lib.xla_client`, and `xe = jax.lib.xla_extension`.",
    "jax.xla_computation": "0.4.30: `jax.xla_computation` is deprecated and will be removed in a future release. | "
                           "0.4.34: `jax.xla_computation` is deleted.",
    "jax.clear_backends": "0.4.36: `jax.clear_backends` was removed after being deprecated in v0.4.26.",
    "jax.experimental.compilation_cache.compilation_cache.initialize_cache":
        "0.8.0: `is_initialized` and `initialize_cache` were removed.",
    "jax.dlpack.to_dlpack": "0.6.0: `jax.dlpack.to_dlpack` has been deprecated. | "
                            "0.8.0: The deprecated functions in {mod} `jax.dlpack`, {mod} `jax.errors`, {mod}",
    "jax.experimental.maps.Mesh": "0.4.1: `jax.experimental.maps.Mesh` and `jax.experimental.PartitionSpec` are | "
                                  "0.4.11: `jax.experimental.maps.Mesh`: use `jax.sharding.Mesh`",
    "jax.experimental.maps.xmap": "0.4.26: The `jax.experimental.maps` module and `jax.experimental.maps.xmap` are | "
                                  "0.4.31: xmap has been deleted. Please use {func}`shard_map` as the replacement.",
    "jax.experimental.maps.thread_resources":
        "0.4.26: The `jax.experimental.maps` module and `jax.experimental.maps.xmap` are | "
        "0.4.31: xmap has been deleted. Please use {func}`shard_map` as the replacement.",
    "jax.experimental.maps": "0.4.26: The `jax.experimental.maps` module and `jax.experimental.maps.xmap` are | "
                             "0.4.34: The argument was only used by `xmap` which was removed in 0.4.31.",
    "jax.experimental.PartitionSpec": "0.4.1: `jax.experimental.maps.Mesh` and `jax.experimental.PartitionSpec` are | "
                                      "0.4.11: `jax.experimental.PartitionSpec`: use `jax.sharding.PartitionSpec`.",
    "jax.experimental.pjit.pjit": "0.8.0: {func}`jax.experimental.pjit.pjit` is deprecated; going forward use",
    "jax.experimental.pjit.with_sharding_constraint":
        "0.4.16: `jax.experimental.pjit.with_sharding_constraint` is deprecated. Use",
    "jax.experimental.shard_map.shard_map": "0.8.0: {func}`jax.experimental.shard_map.shard_map` is deprecated; going forward use",
    "jax.device_put_replicated": "0.8.1: `jx.device_put_replicated` is now deprecated. | "
                                 "0.10.0: `jax.device_put_sharded` and `jax.device_put_replicated` have been removed",
    "jax.device_put_sharded": "0.8.1: `jax.device_put_sharded` is now deprecated. | "
                              "0.10.0: `jax.device_put_sharded` and `jax.device_put_replicated` have been removed",
    "jax.sharding.PmapSharding": "0.8.1: `jax.sharding.PmapSharding` is now deprecated. | "
                                 "0.10.0: The C++ pmap infrastructure has been removed.",
    "jax.interpreters.pxla.ShardedDeviceArray": "0.4.7: The type `jax.interpreters.pxla.ShardedDeviceArray` is deprecated. | "
                                                "0.4.14: `jax.interpreters.pxla.ShardedDeviceArray`: use {class}`jax.Array`.",
    "jax.lax.pvary": "0.8.2: `jax.lax.pvary` has been deprecated.",
    **{f"jax.{n}": f"0.2.13: `{n}` --> {{func}}`~jax.{m}`" for n, m in (("host_id", "process_index"),
                                                                       ("host_count", "process_count"))},
    "jax.host_ids": "0.2.13: `host_ids` --> `range(jax.process_count())` | "
                    "0.4.32: `jax.process_indexs()` function that was deprecated in JAX v0.2.13.",
    "jax.numpy.DeviceArray": "0.4.7: The type `jax.numpy.DeviceArray` is deprecated. | "
                             "0.4.14: `jax.numpy.DeviceArray`: use {class}`jax.Array`.",
    "jax.interpreters.xla.DeviceArray": "0.4.11: `jax.interpreters.xla.DeviceArray`: use `jax.Array`.",
    "jax.abstract_arrays": "0.4.12: `jax.abstract_arrays` and its contents are now deprecated. | "
                           "0.4.17: Removed the deprecated module `jax.abstract_arrays` and all its contents.",
    "jax.core.ConcreteArray": "0.4.24: `axis_groups`, `ShapedArray`, `ConcreteArray`, `AxisEnv`, `backend_compile`,",
    "jax.core.Primitive": "0.6.0: `Primitive`, `Token`, `TRACER_LEAK_DEBUGGER_WARNING`, `Var`, `concrete_aval`,",
    "jax.util": "0.6.0: The following internal APIs in `jax.util` are deprecated: | "
                "0.8.0: The `jax.util`, `jax.extend.ffi`, and `jax.experimental.host_callback`",
    "jax.linear_util": "0.4.16: The internal submodule path `jax.linear_util` has been deprecated. | "
                       "0.4.24: The `jax.linear_util` submodule and all its contents.",
    "jax.api": "0.2.21: `jax.api` has been removed.",
    "jax.experimental.array_api": "0.4.32: The `jax.experimental.array_api` module is deprecated | "
                                  "0.5.0: The `jax.experimental.array_api` module has been removed after being",
    "jax.cloud_tpu_init": "0.8.1: {mod}`jax.cloud_tpu_init` and its contents were deprecated. | "
                          "0.11.0: The deprecated module jax.cloud_tpu_init was removed.",
    "jax.experimental.host_callback": "0.4.26: The `jax.experimental.host_callback` module is deprecated. | "
                                      "0.8.0: The `jax.util`, `jax.extend.ffi`, and `jax.experimental.host_callback`",
    "jax.experimental.optimizers": "0.2.25: Moved `jax.experimental.optimizers` to `jax.example_libraries.optimizers` | "
                                   "0.3.16: Removed `jax.experimental.optimizers`; it has long been a deprecated alias of",
    "jax.experimental.stax": "0.2.25: Moved `jax.experimental.stax` to `jax.example_libraries.stax` | "
                             "0.3.16: Removed `jax.experimental.stax`; it has long been a deprecated alias of",
    **{f"jax.experimental.{n}": "0.8.0: {func}`jax.experimental.enable_x64` and {func}`jax.experimental.disable_x64`"
       for n in ("enable_x64", "disable_x64")},
    "jax.lax.tie_in": "0.4.24: {func}`jax.lax.tie_in` is deprecated: it has been a no-op since JAX v0.2.0. | "
                      "0.4.29: from {mod}`jax.lax`: `tie_in`",
    "jax.lax.prod": "0.4.16: `jax.lax.prod` has been removed after being deprecated in JAX v0.4.11.",
    "jax.lax.zeros_like_array": "0.7.1: {func}`jax.lax.zeros_like_array` is deprecated.",
    "jax.nn.normalize": "0.3.5: {func}`jax.nn.normalize` is being deprecated. | 0.4.29: from {mod}`jax.nn`: `normalize`",
    **{f"jax.scipy.linalg.{n}": "0.4.16: `jax.scipy.linalg.tril` and `jax.scipy.linalg.triu` have been deprecated, | "
       "0.4.24: from {mod}`jax.scipy.linalg`: `tril` and `triu`." for n in ("tril", "triu")},
    "jax.numpy.round_": "0.4.32: `jax.numpy.round_` has been deprecated | 0.4.38: from {mod}`jax.numpy`: `round_`.",
    **{f"jax.numpy.{n}": f"0.4.12: `jax.numpy.{n}`: use `jax.numpy.{m}`. | 0.4.16: `jax.numpy.{n}`: use `jax.numpy.{m}`."
       for n, m in (("product", "prod"), ("cumproduct", "cumprod"), ("sometrue", "any"), ("alltrue", "all"))},
    **{f"jax.numpy.{n}": f"0.4.16: `jax.numpy.{n}` has been deprecated. | "
       "0.4.24: from {mod}`jax.numpy`: `NINF`, `NZERO`, `PZERO`, `row_stack`, `issubsctype`,"
       for n in ("NINF", "PZERO", "NZERO", "row_stack", "trapz", "in1d")},
    "jax.numpy.PINF": "0.4.16: Several `jax.numpy` APIs have been deprecated following | registry 0.10.2",
    "jax.numpy.issubsctype": "0.4.16: `jax.numpy.issubsctype(x, t)` has been deprecated. | "
                             "0.4.24: from {mod}`jax.numpy`: `NINF`, `NZERO`, `PZERO`, `row_stack`, `issubsctype`,",
    "jax.numpy.msort": "0.4.1: `jnp.msort` is now deprecated | 0.4.9: The function `jax.numpy.msort` has been removed.",
    "jax.numpy.asfarray": "not JAX's: a NumPy name jax.numpy never had",
    "jax.numpy.find_common_type": "not JAX's: a NumPy name jax.numpy never had",
    "jax.numpy.random": "not JAX's: jax.numpy never had a random module",
    "jax.numpy.fix": "0.9.0: {func}`jax.numpy.fix` is deprecated, anticipating the deprecation of",
    "jax.scipy.special.sph_harm": "0.7.0: {func}`jax.scipy.special.sph_harm` has been deprecated following a similar",
    **{f"jax.scipy.special.{n}": "0.5.0: {func}`jax.scipy.special.lpmn` and {func}`jax.scipy.special.lpmn_values`"
       for n in ("lpmn", "lpmn_values")},
    "jax.ad_checkpoint.checkpoint": "registry 0.10.2",
    "jax.ad_checkpoint.remat": "registry 0.10.2",
    "jax.cloud_tpu_init.cloud_tpu_init": "0.8.1: {mod}`jax.cloud_tpu_init` and its contents were deprecated.",
    **{f"jax.core.{n}": _CORE_082 for n in ("get_aval", "mapped_aval", "unmapped_aval", "set_current_trace",
                                            "take_current_trace", "TraceTag", "call_impl", "subjaxprs",
                                            "AbstractToken", "traverse_jaxpr_params")},
    **{f"jax.core.{n}": _CORE_010 for n in (
        "CallPrimitive", "DebugInfo", "DropVar", "Effect", "Effects", "check_jaxpr", "concrete_or_error",
        "find_top_trace", "gensym", "get_opaque_trace_state", "jaxprs_in_params", "new_jaxpr_eqn", "no_effects",
        "primal_dtype_to_tangent_dtype", "valid_jaxtype", "InconclusiveDimensionOperation", "JaxprTypeError",
        "JaxprPpContext", "JaxprPpSettings", "OutputType", "abstract_token", "aval_mapping_handlers", "call",
        "concretization_function_error", "custom_typechecks", "is_concrete", "is_constant_dim", "is_constant_shape",
        "literalable_types", "no_axis_name", "nonempty_axis_env_DO_NOT_USE", "pytype_aval_mappings", "trace_ctx",
        "unsafe_am_i_under_a_jit_DO_NOT_USE", "unsafe_am_i_under_a_vmap_DO_NOT_USE",
        "unsafe_get_axis_names_DO_NOT_USE")},
    **{f"jax.core.{n}": "0.6.0: From `jax.core`: `AxisSize`, `ClosedJaxpr`, `EvalTrace`, `InDBIdx`, `InputType`,"
       for n in ("Jaxpr", "ClosedJaxpr", "Literal", "Var", "jaxpr_as_fun")},
    **{f"jax.core.{n}": "0.4.29: from {mod}`jax.core`: `non_negative_dim`, `DimSize`, `Shape`"
       for n in ("non_negative_dim", "DimSize", "Shape")},
    **{f"jax.core.{n}": "0.4.30: Internal pretty-printing tools `jax.core.pp_*` are deprecated | "
       "0.4.34: Internal pretty-printing tools `jax.core.pp_*` have been removed"
       for n in ("pp_eqn", "pp_eqns", "pp_jaxpr", "pp_vars", "pp_aval")},
    **{f"jax.interpreters.xla.{n}": _XLA_0429 for n in ("backend_specific_translations", "translations",
                                                         "register_translation", "xla_destructure",
                                                         "TranslationRule", "TranslationContext", "XlaOp")},
    "jax.interpreters.xla.pytype_aval_mappings": "0.7.0: From {mod}`jax.interpreters.xla`, the previously deprecated symbols",
    "jax.interpreters.ad.reducing_transposes": "registry 0.10.2",
    "jax.interpreters.batching.NotMapped": "0.7.1: Several dozen internal APIs have been deprecated from {mod}`jax.interpreters.ad`,",
    **{f"jax.interpreters.pxla.{n}": _PXLA_082 + " | 0.10.0: From `jax.interpreters.pxla`: `MapTracer`, `PmapExecutable`,"
       for n in ("Chunked", "NoSharding", "Replicated", "ShardedAxis", "ShardingSpec", "Unstacked", "spec_to_indices",
                 "MapTracer", "PmapExecutable", "parallel_callable", "shard_args")},
    **{f"jax.interpreters.pxla.{n}": _PXLA_082 for n in (
        "thread_resources", "MeshAxisName", "ArrayMapping", "Index", "MeshComputation", "MeshExecutable", "_UNSPECIFIED",
        "are_hlo_shardings_equal", "array_mapping_to_axis_resources", "global_aval_to_result_handler",
        "global_avals_to_results_handler", "global_result_handlers", "is_hlo_sharding_replicated",
        "op_sharding_to_indices")},
    **{f"jax.experimental.pallas.tpu.{n}": "registry 0.10.2" for n in (
        "DeviceIdType", "HOST", "semaphore", "semaphore_read", "semaphore_signal", "semaphore_wait")},
    "jax.experimental.pallas.dot": "registry 0.10.2",
    "jax.experimental.pallas.debug_checks_enabled": "registry 0.10.2",
    "jax.experimental.export": "0.4.30: `jax.experimental.export` is deprecated. Use {mod}`jax.export` instead. | "
                               "0.4.36: The deprecated module `jax.experimental.export` has been removed.",
    "jax.sharding.XLACompatibleSharding": "0.4.29: `jax.sharding.XLACompatibleSharding` is deprecated. | "
                                          "0.4.34: `jax.sharding.XLACompatibleSharding` has been removed.",
    "jax.tree_util.build_tree": "0.6.0: {func}`jax.tree_util.build_tree` is deprecated. Use {func}`jax.tree.unflatten`",
    "jax.config.config": "0.4.25: the `jax.config.config` object and | 0.4.29: The deprecated `jax.config` submodule has been removed.",
    **{f"jax.numpy.clip({k}=)": "0.4.27: {func}`jax.numpy.clip` has a new argument signature: `a`, `a_min`, and | "
       "0.10.0: The deprecated keyword arguments `a`, `a_min`, and `a_max` to" for k in ("a", "a_min", "a_max")},
    "jax.numpy.reshape(newshape=)": "0.4.28: The ``newshape`` argument to {func}`jax.numpy.reshape`is being deprecated",
    "jax.numpy.where(condition=)": "0.4.21: Passing the `condition`, `x`, and `y` parameters to `jax.numpy.where` by | "
                                   "0.4.27: The `condition`, `x`, and `y` parameters of `jax.numpy.where` are now",
    "jax.jit(backend=)": "registry 0.10.2 (a DeprecationWarning of jax.jit)",
    "jax.jit(device=)": "registry 0.10.2 (a DeprecationWarning of jax.jit)",
    **{f"jax.experimental.pjit.pjit({k}=)": "0.4.9: The `in_axis_resources` and `out_axis_resources` arguments of pjit have been | "
       "0.4.14: `in_axis_resources` and `out_axis_resources` have been deleted from pjit since"
       for k in ("in_axis_resources", "out_axis_resources")},
    **{f"x.{m}": "0.4.22: The `device_buffer` and `device_buffers` properties of JAX arrays are deprecated. | "
       "0.4.27: The `jax.Array.device_buffer` and `jax.Array.device_buffers` methods have"
       for m in ("device_buffer", "device_buffers")},
    "x.to_py": "0.3.17: `DeviceArray.to_py()` has been deprecated. Use `np.asarray(x)` instead.",
    "x.device": "0.4.21: The `device()` method of JAX arrays is deprecated. | "
                "0.4.27: The `device()` method of JAX arrays has been removed, after being deprecated",
}


def _key(row: Deprecation) -> str:
    if row.kind == "kwarg":
        return f"{row.function}({row.old}=)"
    if row.kind == "method":
        return f"x.{row.old}"
    if row.kind == "flag":
        return f'{row.function}("{row.old}")'
    return row.old


# Removed from `jax.core` with "nothing public" in the CHANGELOG, yet the same object is
# public in `jax.extend` (checked with `is` on JAX 0.10.2): the message names that home
# and the fix is the import rename.
_EXTEND_HOMES: dict[str, str] = {
    "jax.core.JaxprEqn": "jax.extend.core.JaxprEqn",
    "jax.core.Token": "jax.extend.core.Token",
    "jax.core.call_p": "jax.extend.core.primitives.call_p",
    "jax.core.closed_call_p": "jax.extend.core.primitives.closed_call_p",
    **{f"jax.core.{n}": f"jax.extend.core.{n}"
       for n in ("nonempty_axis_env_DO_NOT_USE", "unsafe_am_i_under_a_jit_DO_NOT_USE",
                 "unsafe_am_i_under_a_vmap_DO_NOT_USE", "unsafe_get_axis_names_DO_NOT_USE")},
}


def _public_home(r: Deprecation) -> Deprecation:
    home = _EXTEND_HOMES.get(r.old) if r.kind == "name" else None
    if home is None or not r.new.startswith("nothing public"):
        return r
    module, _, name = home.rpartition(".")
    return replace(r, new=f"`{home}`", fix="safe", new_qualname=home, import_from=(module, name))


TABLE: tuple[Deprecation, ...] = tuple(
    _public_home(r if r.changelog else replace(r, changelog=_SOURCES.get(_key(r), ""))) for r in _ROWS
)

BY_NAME: dict[str, Deprecation] = {d.old: d for d in TABLE if d.kind == "name"}
MODULES: tuple[Deprecation, ...] = tuple(d for d in TABLE if d.kind == "module")
METHODS: dict[str, Deprecation] = {d.old: d for d in TABLE if d.kind == "method"}
CALL_SHAPED: frozenset[str] = frozenset(d.old for d in TABLE if d.call is not None)
# removed configuration options: `jax.config.update("jax_array", ...)` raises
FLAGS: dict[str, Deprecation] = {d.old: d for d in TABLE if d.kind == "flag"}
KWARGS: dict[str, dict[str, Deprecation]] = {}
for _d in TABLE:
    if _d.kind == "kwarg":
        KWARGS.setdefault(_d.function or "", {})[_d.old] = _d


# The JAX every row was checked against (the installed one, JAX 0.10.2): a row removed
# by it raises there; the version checks of user code are judged on it.
CURRENT_JAX: tuple[int, ...] = (0, 10, 2)


def version_tuple(text: Optional[str]) -> Optional[tuple[int, ...]]:
    """``"0.4.24"`` / ``"by 0.10.2"`` -> (0, 4, 24) / (0, 10, 2); None for no version."""
    if not text:
        return None
    digits = text[3:] if text.startswith("by ") else text
    parts = digits.split(".")
    return tuple(int(p) for p in parts) if all(p.isdigit() for p in parts) else None


def removed_by(row: Deprecation, version: tuple[int, ...]) -> bool:
    """Does ``row``'s name fail on ``version`` of its library (JAX: JAX's version;
    another library's rows were removed from the releases one installs today)?"""
    if row.removed == "never existed":
        return True
    v = version_tuple(row.removed)
    if v is None:
        return False
    return row.library != "JAX" or v <= version


@lru_cache(maxsize=65536)
def lookup(qualname: str) -> Optional[Deprecation]:
    """The row for a qualified name: an exact name, else the deprecated module it is in."""
    d = BY_NAME.get(qualname)
    if d is not None:
        return d
    best: Optional[Deprecation] = None
    for m in MODULES:  # the longest module that holds it (`flax.optim.dynamic_scale` in `flax.optim`)
        if (qualname == m.old or qualname.startswith(m.old + ".")) and (best is None or len(m.old) > len(best.old)):
            best = m
    if best is not None:
        # an attribute of a removed member of that module has the member's row
        # (`maps.thread_resources.env`: `thread_resources`', not the module's)
        parts = qualname.split(".")
        for i in range(len(parts) - 1, best.old.count(".") + 1, -1):
            d = BY_NAME.get(".".join(parts[:i]))
            if d is not None and d.kind == "name":
                return d
    return best
