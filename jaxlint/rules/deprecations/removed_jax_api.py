"""JAX901 removed-jax-api: A JAX API that no longer exists (AttributeError/ImportError at runtime)."""

from __future__ import annotations

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.rules.deprecations._check import SEED, DeprecationCheck, table_doc


class RemovedApi(Rule):
    code = "JAX901"
    name = "removed-jax-api"
    runtime_check = 'the installed JAX evaluates the name alone (its import, or the dotted name through the import that binds its head): confirmed when that raises `AttributeError`/`ImportError`, not reproduced when it works; also calls the function (or watches the --run at the line): confirmed when `AttributeError`/`ImportError` is raised at the flagged line.'
    summary = "A JAX API that no longer exists (AttributeError/ImportError at runtime)"
    severity = Severity.ERROR
    seed = SEED
    check = DeprecationCheck
    about_tracing = False

    what_it_does = (
        "Flags uses and imports of JAX names and modules that current JAX has removed, resolved "
        "through imports (so `numpy.product` or a local `tree_map` are not flagged, and "
        "`jax.tree_util.tree_map`, still supported, is not either). The import is reported, and "
        "so is each use of the name it binds: `hcb.id_print(x)` after `from jax.experimental "
        "import host_callback as hcb`, `id_tap(f, x)` after `from jax.experimental.host_callback "
        "import id_tap`, `opt.adam(...)` after `import jax.experimental.optimizers as opt`. A call "
        "of a name imported under the user's own alias whose replacement is the same callable "
        "(`P(\"data\")` after `from jax.experimental import PartitionSpec as P`) is not reported "
        "again: the import's fix keeps the alias and mends every call; where the replacement "
        "takes a call's arguments only in another form (`wsc(x, axis_resources=s)` after `from "
        "jax.experimental.pjit import with_sharding_constraint as wsc`: the keyword is gone), that "
        "call is reported, and a call the replacement takes as written (`wsc(x, s)`) is not. "
        "A configuration option JAX removed, set with `jax.config.update(\"jax_array\", True)` "
        "(also `config.update` after `from jax import config`), is reported at its name: the call "
        "raises `AttributeError: Unrecognized config option`.\n\n"
        "Code under a version check is judged on the branch JAX 0.10.2 takes "
        "(`jaxlint/model/version_guards.py`): `if hasattr(jax, \"tree\"): ... else: <old API>` "
        "and `if version.parse(jax.__version__) < version.parse(\"0.4.26\"): <old API>` are not "
        "reported, but `if jax.__version__ >= \"0.4.26\": ... else: <old API>` is: it compares "
        "strings, and `\"0.10.2\" >= \"0.4.26\"` is false, so the old API runs. In a `try` whose "
        "`except` catches `ImportError`/`AttributeError`, the body is a probe and is not reported "
        "(unless no handler falls back on JAX and the body goes on to enable JAX after a removed "
        "import: `use_jax = True`, more JAX imports; then that import is, as for JAX905); "
        "the handler is reported when the body imports something removed (so the handler is "
        "what runs), and a name bound there is not followed to its uses. A check the table "
        "cannot decide (`hasattr` of a name it does not know) leaves both branches alone. The "
        "same holds for JAX902-905.\n\n"
        "The table (from `jaxlint/model/deprecations.py`; each row cites the JAX CHANGELOG "
        "versions it comes from, or the library's changelog):\n\n" + table_doc("JAX901")
    )
    why_bad = (
        "These names raise at runtime on JAX 0.10.2 and 0.12, e.g. `AttributeError: module 'jax' "
        "has no attribute 'tree_map'`, `AttributeError: module 'jax.ops' has no attribute "
        "'index_update'`, `ImportError: cannot import name 'maps' from 'jax.experimental'`. Code "
        "copied from older tutorials and answers (the seeds use several) stops working."
    )
    use_instead = "```python\ny = jax.tree.map(f, tree)\nz = jnp.prod(x)\nx = x.at[0].set(1.)\n```"
    fix_safety = (
        "Renames keep the user's import alias (`jnp.product` -> `jnp.prod`) and are safe where the "
        "replacement has the same signature (the `fix` column). `jnp.in1d` -> `jnp.isin` is "
        "unsafe (the result keeps the input's shape); its `ar1=`/`ar2=` become `element=`/"
        "`test_elements=`. Where the replacement takes fewer arguments, the fix is offered only "
        "for a call whose arguments it takes (every use of the old name seen with its "
        "arguments): `jnp.fix(x, out=None)` (`jnp.trunc` has no `out`) and "
        "`pjit.with_sharding_constraint(x, axis_resources=...)` stay without a fix, as does the "
        "old name passed on as a value. Rows with no mechanical replacement "
        "(`xmap`, `host_callback`, `device_put_replicated`...) have no fix."
    )

    VALID = [
        # the replacements JAX 0.10.2 names
        Valid(
            """
            import jax
            import jax.numpy as jnp

            def remat_block(f, x, m, n, theta, phi):
                y = jax.checkpoint(f)(jnp.trunc(x))
                return y, jax.typeof(y), jax.scipy.special.sph_harm_y(n, m, theta, phi)
            """,
        ),
        Valid(
            """
            import jax

            y = jax.tree.map(lambda v: v + 1, {'a': 1})
            z = jax.tree_util.tree_map(lambda v: v, [1])
            """,
        ),
        Valid(
            """
            import numpy
            import jax

            p = numpy.product([1, 2])
            """,
        ),
        Valid(
            """
            import jax

            def tree_map(f, t):
                return [f(v) for v in t]

            x = tree_map(abs, [1])
            """,
        ),
        Valid(
            """
            try:
                from jax.experimental.maps import Mesh
            except ImportError:
                from jax.sharding import Mesh
            """,
        ),
        Valid(
            """
            import jax

            key = jax.random.PRNGKey(0)
            """,
        ),
        Valid(
            """
            import jax

            if hasattr(jax, 'enable_x64'):
                enable_x64 = jax.enable_x64
            else:
                enable_x64 = jax.experimental.enable_x64
            """,
        ),
        # version checks whose old branch current JAX does not take
        Valid(
            """
            import jax
            from packaging import version

            JAX_VERSION = version.parse(jax.__version__)
            if JAX_VERSION < version.parse("0.3.16"):
                tree_map = jax.tree_multimap
            elif hasattr(jax, "tree"):
                tree_map = jax.tree.map
            else:
                tree_map = jax.tree_util.tree_map
            """,
        ),
        Valid(
            """
            import jax

            tree_map = jax.tree_multimap if jax.__version_info__ < (0, 3, 16) else jax.tree.map
            if not hasattr(jax, "tree"):
                tree_map = jax.tree_multimap
            """,
        ),
        # a shim: the import is the probe, and its name's uses are not followed
        Valid(
            """
            try:
                from jax.experimental import host_callback as hcb
            except ImportError:
                hcb = None

            def show(x):
                if hcb is not None:
                    hcb.id_print(x)
                return x
            """,
        ),
        Valid(
            """
            from jax._src import api

            def put(xs, devices):
                return api.device_put_sharded(xs, devices)
            """,
        ),
    ]
    INVALID = [
        # a removed API bound to a local name: reported where it is bound, not again at
        # each use of the local (two ways: an object of a removed module, a removed function)
        Invalid(
            """
            import jax


            def global_mesh_defined():
                maps_env = jax.experimental.maps.thread_resources.env
                return maps_env.physical_mesh.devices.shape != ()


            def combine(a, b):
                tm = jax.tree_multimap
                return tm(lambda x, y: x + y, a, b)
            """,
            expected=[(5, 16), (10, 10)],
            messages=[
                "`jax.experimental.maps.thread_resources.env` was removed in JAX 0.4.31 (deprecated in 0.4.26): use `jax.sharding.get_abstract_mesh()` (the mesh `with jax.set_mesh(mesh)` sets) instead",
                "`jax.tree_multimap` was removed in JAX 0.3.16 (deprecated in 0.3.5): use `jax.tree.map` instead (tree_map takes several trees; the top-level alias went with tree_util's)",
            ],
        ),
        # NumPy 1.x aliases jax.numpy never had
        Invalid(
            """
            import jax.numpy as jnp

            x = jnp.full(3, jnp.NaN)
            y = jnp.where(x > 0, x, -jnp.Inf)
            """,
            expected=[(3, 17), (4, 26)],
            messages=[
                "`jnp.NaN` does not exist in JAX: use `jnp.nan` instead (a NumPy 1.x alias jax.numpy never had)",
                "`jnp.Inf` does not exist in JAX: use `jnp.inf` instead (a NumPy 1.x alias jax.numpy never had)",
            ],
            fixed="""
            import jax.numpy as jnp

            x = jnp.full(3, jnp.nan)
            y = jnp.where(x > 0, x, -jnp.inf)
            """,
        ),
        # host_callback: the import and each call site (each needs rewriting by hand)
        Invalid(
            """
            from jax.experimental import host_callback as hcb

            def show(x):
                hcb.id_print(x)
                return x
            """,
            expected=[(1, 30), (4, 5)],
            messages=[
                '`from jax.experimental import host_callback` was removed in JAX 0.8.0 (deprecated in 0.4.26): use `jax.debug.callback` / `jax.pure_callback` / `jax.experimental.io_callback` instead (the semantics of id_tap/call differ)',
                '`hcb.id_print` (`jax.experimental.host_callback.id_print`) was removed in JAX 0.8.0 (deprecated in 0.4.26): use `jax.debug.print("{}", x)` instead (id_print returned its argument; debug.print returns None)',
            ],
        ),
        Invalid(
            """
            from jax.experimental.host_callback import id_tap

            def show(x):
                return id_tap(print, x)
            """,
            expected=[(1, 44), (4, 12)],
            messages=[
                '`from jax.experimental.host_callback import id_tap` was removed in JAX 0.8.0 (deprecated in 0.4.26): use `jax.debug.callback(fn, x)` instead (id_tap returned its argument and passed `transforms`)',
                '`id_tap` (`jax.experimental.host_callback.id_tap`) was removed in JAX 0.8.0 (deprecated in 0.4.26): use `jax.debug.callback(fn, x)` instead (id_tap returned its argument and passed `transforms`)',
            ],
        ),
        # a removed module through its alias: the import's fix repairs the use
        Invalid(
            """
            import jax.experimental.optimizers as opt

            opt_init, opt_update, get_params = opt.adam(1e-3)
            """,
            expected=[(1, 8), (3, 36)],
            fixed="""
            import jax.example_libraries.optimizers as opt

            opt_init, opt_update, get_params = opt.adam(1e-3)
            """,
            messages=[
                '`import jax.experimental.optimizers` was removed in JAX 0.3.16: use `jax.example_libraries.optimizers` (or optax) instead',
                '`opt.adam` (`jax.experimental.optimizers.adam`) was removed in JAX 0.3.16: use `jax.example_libraries.optimizers` (or optax) instead',
            ],
        ),
        # names removed before the registry: jax.tree_multimap, jax.partial
        Invalid(
            """
            import jax
            from jax import partial

            def add(x, y):
                return x + y

            z = jax.tree_multimap(add, [1], [2])
            """,
            expected=[(2, 17), (7, 5)],
            fixed="""
            import jax
            from functools import partial

            def add(x, y):
                return x + y

            z = jax.tree.map(add, [1], [2])
            """,
            messages=[
                '`from jax import partial` was removed in JAX 0.2.21: use `functools.partial` instead (an accidental export of functools.partial)',
                "`jax.tree_multimap` was removed in JAX 0.3.16 (deprecated in 0.3.5): use `jax.tree.map` instead (tree_map takes several trees; the top-level alias went with tree_util's)",
            ],
        ),
        # the branch current JAX takes: a string comparison is false on "0.10.2"
        Invalid(
            """
            import jax

            if jax.__version__ >= "0.4.26":
                tree_map = jax.tree.map
            else:
                tree_map = jax.tree_multimap
            """,
            expected=[(6, 16)],
            fixed="""
            import jax

            if jax.__version__ >= "0.4.26":
                tree_map = jax.tree.map
            else:
                tree_map = jax.tree.map
            """,
            messages=[
                "`jax.tree_multimap` was removed in JAX 0.3.16 (deprecated in 0.3.5): use `jax.tree.map` instead (tree_map takes several trees; the top-level alias went with tree_util's)",
            ],
        ),
        # a try whose body fails today: its handler is what runs
        Invalid(
            """
            try:
                from jax.experimental import optimizers
            except ImportError:
                from jax.experimental import optix as optimizers
            """,
            expected=[(4, 34)],
            messages=[
                '`from jax.experimental import optix` was removed in JAX 0.2.7: use `optax` (the standalone package optix became) instead (optax renamed some transformations)',
            ],
        ),
        # another library's removed API (Flax 0.6.0)
        Invalid(
            """
            import flax

            def make(lr):
                return flax.optim.Adam(learning_rate=lr)
            """,
            expected=[(4, 12)],
            messages=[
                "`flax.optim.Adam` was removed in Flax 0.6.0 (deprecated in 0.4.1): use optax (`optax.adam(...)` with `flax.training.train_state.TrainState`) instead (optax's optimizers are gradient transformations, not optimizer objects)",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.ad_checkpoint
            import jax.numpy as jnp

            def remat_block(f, x):
                y = jax.ad_checkpoint.checkpoint(f)(jnp.fix(x))
                return y, jax.core.get_aval(y)
            """,
            expected=[(6, 9), (6, 41), (7, 15)],
            fixed="""
            import jax
            import jax.ad_checkpoint
            import jax.numpy as jnp

            def remat_block(f, x):
                y = jax.checkpoint(f)(jnp.trunc(x))
                return y, jax.typeof(y)
            """,
            messages=[
                '`jax.ad_checkpoint.checkpoint` was removed in JAX 0.10.0 (deprecated in 0.8.2): use `jax.checkpoint` instead',
                '`jnp.fix` was removed in JAX 0.10.0 (deprecated in 0.9.0): use `jnp.trunc` instead (drop-in replacement)',
                '`jax.core.get_aval` was removed in JAX 0.10.0 (deprecated in 0.8.2): use `jax.typeof` instead',
            ],
        ),
        # not a rename: the arguments swap places, so no fix
        Invalid(
            """
            import jax.scipy.special

            def harmonics(m, n, theta, phi):
                return jax.scipy.special.sph_harm(m, n, theta, phi)
            """,
            expected=[(4, 12)],
            messages=[
                '`jax.scipy.special.sph_harm` was removed in JAX 0.10.0 (deprecated in 0.7.0): use `jax.scipy.special.sph_harm_y(n, m, theta, phi)` instead (the degree and order arguments swap places)',
            ],
        ),
        Invalid(
            """
            import jax

            y = jax.tree_map(lambda v: v + 1, {'a': 1})
            """,
            expected=[(3, 5)],
            fixed="""
            import jax

            y = jax.tree.map(lambda v: v + 1, {'a': 1})
            """,
            messages=[
                '`jax.tree_map` was removed in JAX 0.6.0 (deprecated in 0.4.26): use `jax.tree.map` instead (identical signature)',
            ],
        ),
        Invalid(
            """
            import jax.numpy as np

            def f(x):
                return np.product(x) + np.cumproduct(x)
            """,
            expected=[(4, 12), (4, 28)],
            fixed="""
            import jax.numpy as np

            def f(x):
                return np.prod(x) + np.cumprod(x)
            """,
            messages=[
                '`np.product` was removed in JAX 0.4.16 (deprecated in 0.4.12): use `jnp.prod` instead',
                '`np.cumproduct` was removed in JAX 0.4.16 (deprecated in 0.4.12): use `jnp.cumprod` instead',
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            x = jnp.zeros(5)
            x = jax.ops.index_update(x, jax.ops.index[1:3], 2.)
            """,
            expected=[(5, 5)],
            fixed="""
            import jax
            import jax.numpy as jnp

            x = jnp.zeros(5)
            x = x.at[1:3].set(2.)
            """,
            messages=[
                '`jax.ops.index_update` was removed in JAX 0.3.2 (deprecated in 0.2.22): use `x.at[idx].set(v)` instead (mechanical rewrite to the .at[] property)',
            ],
        ),
        Invalid(
            """
            from jax.experimental import optimizers
            import jax.experimental.stax as stax
            """,
            expected=[(1, 30), (2, 8)],
            fixed="""
            from jax.example_libraries import optimizers
            import jax.example_libraries.stax as stax
            """,
            messages=[
                '`from jax.experimental import optimizers` was removed in JAX 0.3.16: use `jax.example_libraries.optimizers` (or optax) instead',
                '`import jax.experimental.stax` was removed in JAX 0.3.16: use `jax.example_libraries.stax` (or flax/equinox) instead',
            ],
        ),
        Invalid(
            """
            from jax import tree_map

            y = tree_map(abs, [1])
            """,
            expected=[(1, 17), (3, 5)],
            fixed="""
            from jax.tree_util import tree_map

            y = tree_map(abs, [1])
            """,
            messages=[
                '`from jax import tree_map` was removed in JAX 0.6.0 (deprecated in 0.4.26): use `jax.tree.map` instead (identical signature)',
                '`tree_map` (`jax.tree_map`) was removed in JAX 0.6.0 (deprecated in 0.4.26): use `jax.tree.map` instead (identical signature)',
            ],
        ),
        Invalid(
            """
            from jax.ops import index_update
            from jax.experimental.maps import xmap
            """,
            expected=[(1, 21), (2, 35)],
            messages=[
                '`from jax.ops import index_update` was removed in JAX 0.3.2 (deprecated in 0.2.22): use `x.at[idx].set(v)` instead (mechanical rewrite to the .at[] property)',
                '`from jax.experimental.maps import xmap` was removed in JAX 0.4.31 (deprecated in 0.4.26): use `jax.shard_map` (or `jax.vmap` with `spmd_axis_name`) instead (xmap has no mechanical replacement)',
            ],
        ),
        Invalid(
            """
            import jax

            def f(x: jax.numpy.DeviceArray) -> bool:
                return isinstance(x, jax.interpreters.xla.DeviceArray)
            """,
            expected=[(3, 10), (4, 26)],
            fixed="""
            import jax

            def f(x: jax.Array) -> bool:
                return isinstance(x, jax.Array)
            """,
            messages=[
                '`jax.numpy.DeviceArray` was removed in JAX 0.4.14 (deprecated in 0.4.7): use `jax.Array` instead',
                '`jax.interpreters.xla.DeviceArray` was removed in JAX 0.4.11 (deprecated in 0.4.7): use `jax.Array` instead',
            ],
        ),
        Invalid(
            """
            import jax.numpy as jnp

            lo = jnp.NINF * 2
            """,
            expected=[(3, 6)],
            fixed="""
            import jax.numpy as jnp

            lo = (-jnp.inf) * 2
            """,
            messages=[
                '`jnp.NINF` was removed in JAX 0.4.24 (deprecated in 0.4.16): use `-jnp.inf` instead',
            ],
        ),
        Invalid(
            """
            import jax.numpy as jnp

            m = jnp.in1d(jnp.arange(3), jnp.arange(2))
            """,
            expected=[(3, 5)],
            fixed="""
            import jax.numpy as jnp

            m = jnp.isin(jnp.arange(3), jnp.arange(2))
            """,
            unsafe=True,
            messages=[
                '`jnp.in1d` was removed in JAX 0.4.24 (deprecated in 0.4.16): use `jnp.isin` (same result for 1-D input; else `jnp.isin(a, b).ravel()`) instead (isin keeps the shape of its first argument)',
            ],
        ),
    ]
