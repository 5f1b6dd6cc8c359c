"""JAX's API history (issue 22, class 7): the table's rows from JAX's CHANGELOG, checked
against the installed JAX; uses reported through aliases and ``from`` imports; code
under a version check judged on the branch current JAX takes
(``jaxlint/model/version_guards.py``)."""

from __future__ import annotations

import importlib
import re
import textwrap
import warnings

import libcst as cst
import pytest

from jaxlint.lint.linter import lint_source
from jaxlint.model import deprecations as D
from jaxlint.model.imports import ImportTable
from jaxlint.model.version_guards import Guards
from jaxlint.settings import LintSettings


def lint(code: str, select=("JAX901", "JAX902", "JAX903", "JAX904", "JAX905")):
    res = lint_source(textwrap.dedent(code), "t.py", LintSettings(select=frozenset(select)))
    return [(f.code, f.line, f.col, f.message) for f in res.findings]


def _exists(qualname: str) -> bool:
    parts = qualname.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except Exception:
            continue
        try:
            for p in parts[i:]:
                obj = getattr(obj, p)
        except Exception:
            return False
        return True
    return False


# -- the table -----------------------------------------------------------------------------

def test_every_row_cites_where_it_comes_from():
    pattern = re.compile(r"(Flax )?\d+\.\d+\.\d+: \S|registry 0\.10\.2|not JAX's: |git jax-v\d+\.\d+\.\d+: \S")
    for row in D.TABLE:
        assert row.changelog, D._key(row)
        for part in row.changelog.split(" | "):
            assert pattern.match(part), (D._key(row), part)


def test_rows_agree_with_the_installed_jax():
    """A row removed by JAX ``CURRENT_JAX`` is absent from it; every fix's replacement
    (and the module a ``from`` import is rewritten to) is present."""
    jax = pytest.importorskip("jax")
    if tuple(int(p) for p in jax.__version__.split(".")[:3]) != D.CURRENT_JAX:
        pytest.skip(f"the table was checked against JAX {D.CURRENT_JAX}")
    pytest.importorskip("flax")
    wrong = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for row in D.TABLE:
            if row.kind in ("kwarg", "method"):
                continue
            if D.removed_by(row, D.CURRENT_JAX) and _exists(row.old):
                wrong.append(f"{row.old} still exists")
            if not D.removed_by(row, D.CURRENT_JAX) and not _exists(row.old):
                wrong.append(f"{row.old} is gone but not marked removed")
            if row.fix and row.new_qualname and not _exists(row.new_qualname):
                wrong.append(f"{row.old}: {row.new_qualname} missing")
            if row.fix and row.import_from and not _exists(".".join(row.import_from)):
                wrong.append(f"{row.old}: {row.import_from} missing")
    assert wrong == []


def test_a_module_inside_a_removed_module_is_its_own_row():
    assert D.lookup("flax.optim.Adam").old == "flax.optim"
    assert D.lookup("flax.optim.dynamic_scale.DynamicScale").old == "flax.optim.dynamic_scale"
    assert D.lookup("jax.experimental.host_callback.id_print").old == "jax.experimental.host_callback.id_print"
    assert D.lookup("jax.experimental.host_callback.id_tap_p").old == "jax.experimental.host_callback"


@pytest.mark.parametrize("code,expected", [
    ("import jax\njax.tree_multimap(abs, [1])\n",
     [("JAX901", 2, 1, "`jax.tree_multimap` was removed in JAX 0.3.16 (deprecated in 0.3.5)")]),
    ("from jax.experimental import loops\n",
     [("JAX901", 1, 30, "`from jax.experimental import loops` was removed in JAX 0.3.16 (deprecated in 0.3.6)")]),
    ("from jax.experimental import minmax\n",
     [("JAX901", 1, 30, "`from jax.experimental import minmax` was removed in JAX 0.1.49")]),
    ("import jax.lax\nf = jax.lax.partial(abs)\n",
     [("JAX901", 2, 5, "`jax.lax.partial` was removed in JAX 0.2.21")]),
    ("import jax\nx = jax.ShapedArray((2,), 'f')\n",
     [("JAX901", 2, 5, "`jax.ShapedArray` was removed in JAX 0.4.14")]),
    ("from jax.experimental.pjit import PartitionSpec\n",
     [("JAX901", 1, 35, "`from jax.experimental.pjit import PartitionSpec` was removed in JAX 0.4.11 (deprecated in 0.4.4)")]),
    # Flax's pre-Linen API (flax.nn, moved to flax.deprecated.nn in 0.3.6, removed in 0.4.0)
    ("from flax import nn\n\nclass Block(nn.Module):\n    pass\n",
     [("JAX901", 1, 18, "`from flax import nn` was removed in Flax 0.4.0 (deprecated in 0.3.6)"),
      ("JAX901", 3, 13, "`nn.Module` (`flax.nn.Module`) was removed in Flax 0.4.0 (deprecated in 0.3.6)")]),
    ("import flax\nlayer = flax.deprecated.nn.Dense\n",
     [("JAX901", 2, 9, "`flax.deprecated.nn.Dense` was removed in Flax 0.4.0")]),
    # Linen and NNX, spelled `nn`, and the import fallback current Flax takes, are silent
    ("from flax import linen as nn\nimport flax.nnx as nnx\nlayer = nn.Dense(3), nnx.Linear\n", []),
    ("try:\n    from flax import linen as nn\nexcept ImportError:\n    from flax import nn\n"
     "\nclass Block(nn.Module):\n    pass\n", []),
    ("import jax.numpy as jnp\ny = jnp.sort(jnp.ones(3), kind='stable')\n",
     [("JAX903", 2, 27, "`jnp.sort(kind=...)` was removed in JAX 0.4.28")]),
    # `jax.jax`: the package bound inside itself by jax/__init__.py's `import jax.lib` until
    # 0.10.0 (jax 0.10.2: AttributeError: module 'jax' has no attribute 'jax'), reached
    # through the module, an alias of it, or imported from it
    ("import jax\nf = jax.jax.tree_util.tree_map\n",
     [("JAX901", 2, 5, "`jax.jax.tree_util.tree_map` was removed in JAX 0.10.1")]),
    ("import jax as J\nfrom jax import jax as jx\ns = jx.numpy.sum, J.jax.random.split\n",
     [("JAX901", 2, 17, "`from jax import jax` was removed in JAX 0.10.1"),
      ("JAX901", 3, 5, "`jx.numpy.sum` (`jax.jax.numpy.sum`) was removed in JAX 0.10.1"),
      ("JAX901", 3, 19, "`J.jax.random.split` was removed in JAX 0.10.1")]),
    ("import jax\nfrom jax import tree_util, lib\nf = jax.tree_util.tree_map, tree_util.tree_map, jax.lib\n", []),
    # jax.test_util's helpers deprecated in 0.3.8 and removed in 0.3.22, through an alias
    ("from jax import test_util as jtu\njtu.check_close(1.0, 1.0)\nok = jtu.check_grads\n",
     [("JAX901", 2, 1, "`jtu.check_close` was removed in JAX 0.3.22 (deprecated in 0.3.8)")]),
    ("import jax.test_util\n\nclass T(jax.test_util.BufferDonationTestCase):\n    pass\n",
     [("JAX901", 3, 9, "`jax.test_util.BufferDonationTestCase` was removed in JAX 0.3.22 (deprecated in 0.3.8)")]),
    ("import jax.lax_linalg as lax_linalg\n",
     [("JAX901", 1, 8, "`import jax.lax_linalg` was removed in JAX 0.2.6")]),
    # `jax.ops.index[...]` on a line of its own inside a removed index_update/index_add
    # call is reported there too; on the call's line the call's finding (and fix) covers it
    ("import jax\ny = jax.ops.index_update(\n    x, jax.ops.index[1:3], 2.)\n",
     [("JAX901", 2, 5, "`jax.ops.index_update` was removed in JAX 0.3.2 (deprecated in 0.2.22)"),
      ("JAX901", 3, 8, "`jax.ops.index` was removed in JAX 0.3.2 (deprecated in 0.2.22)")]),
    ("from jax import ops\ny = ops.index_add(x,\n                  ops.index[0], 1.)\n",
     [("JAX901", 2, 5, "`ops.index_add` was removed in JAX 0.3.2 (deprecated in 0.2.22)"),
      ("JAX901", 3, 19, "`ops.index` was removed in JAX 0.3.2 (deprecated in 0.2.22)")]),
    ("import jax\ny = jax.ops.index_update(x, jax.ops.index[1:3], 2.)\n",
     [("JAX901", 2, 5, "`jax.ops.index_update` was removed in JAX 0.3.2 (deprecated in 0.2.22)")]),
    # eig's `use_magma` (deprecated in 0.8.0), set to a literal through a module alias; None
    # does not warn (jax 0.10.2: DeprecationWarning for True and False alike)
    ("from jax.lax import linalg as lax_linalg\nw = lax_linalg.eig(x, use_magma=False)\nv = lax_linalg.eig(x, use_magma=None)\n",
     [("JAX902", 2, 23, "`jax.lax.linalg.eig(use_magma=...)` is deprecated since JAX 0.8.0")]),
    ("import jax.core\nb = jax.core.is_opaque_dtype\n",
     [("JAX901", 2, 5, "`jax.core.is_opaque_dtype` was removed in JAX 0.4.16")]),
])
def test_changelog_rows_are_reported(code, expected):
    found = [(c, line, col, msg.split(":")[0]) for c, line, col, msg in lint(code)]
    assert found == [(c, line, col, msg.split(":")[0]) for c, line, col, msg in expected]


def test_percentile_interpolation_is_renamed_method():
    from jaxlint.fix.fixer import fix_text

    code = "import jax.numpy as jnp\nq = jnp.percentile(jnp.ones(3), 50, interpolation='nearest')\n"
    fixed = fix_text(code, "t.py", LintSettings(select=frozenset({"JAX903"}))).text
    assert fixed == "import jax.numpy as jnp\nq = jnp.percentile(jnp.ones(3), 50, method='nearest')\n"
    cst.parse_module(fixed)


# -- uses through aliases and from imports ---------------------------------------------------

def test_each_call_site_of_a_removed_module_is_reported():
    found = lint("""
        import jax
        import numpy as np
        from jax.experimental import host_callback as hcb

        @jax.jit
        def f(x):
            x = hcb.id_tap(lambda v, t: None, x)
            return hcb.call(np.sin, x, result_shape=x)
    """)
    assert [(c, line, col) for c, line, col, _ in found] == [("JAX901", 4, 30), ("JAX901", 8, 9), ("JAX901", 9, 12)]
    assert found[2][3].startswith(
        "`hcb.call` (`jax.experimental.host_callback.call`) was removed in JAX 0.8.0 (deprecated in 0.4.26): "
        "use `jax.pure_callback(fn, result_shape, x)` (or `jax.experimental.io_callback`) instead")


def test_an_alias_bound_twice_or_in_a_shim_is_not_followed():
    assert lint("""
        import jax
        if hasattr(jax, "tree"):
            from jax.example_libraries import optimizers as opt
        else:
            from jax.experimental import optimizers as opt
        opt.adam(0.1)
    """) == []
    # the name is rebound by a second import in live code: which one a use means is unknown
    found = lint("""
        from jax.experimental import optimizers as opt
        from jax.example_libraries import optimizers as opt
        opt.adam(0.1)
    """)
    assert [(c, line) for c, line, _, _ in found] == [("JAX901", 2)]


# -- version checks ------------------------------------------------------------------------------

def _evaluate(source: str) -> object:
    module = cst.parse_module(textwrap.dedent(source))
    imports = ImportTable()
    for stmt in module.body:
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Import):
                imports.add_import(small)
            elif isinstance(small, cst.ImportFrom):
                imports.add_import_from(small)
    guards = Guards(module, imports.resolve_dotted)
    test = module.body[-1].test  # type: ignore[attr-defined]
    return guards.evaluate(test)


@pytest.mark.parametrize("test,value", [
    ('jax.__version__ >= "0.4.26"', False),  # strings: "0.10.2" < "0.4.26"
    ('jax.__version__ < "0.4.26"', True),
    ('version.parse(jax.__version__) >= version.parse("0.4.26")', True),
    ('Version(jax.__version__) < Version("0.3.16")', False),
    ("jax.__version_info__ >= (0, 4, 26)", True),
    ("JAX_VERSION < version.parse('0.10.0')", False),
    ('hasattr(jax, "tree")', True),
    ('hasattr(jax, "tree_multimap")', False),
    ('not hasattr(jax, "tree_map")', True),
    ('hasattr(jax, "tree") and jax.__version_info__ < (0, 3)', False),
    ('hasattr(jax, "no_such_name")', None),
    ('hasattr(np, "product")', None),
    ("jax_version() > 3", None),
])
def test_version_checks_are_decided_on_current_jax(test, value):
    source = f"""
        import jax
        import numpy as np
        from packaging import version
        from packaging.version import Version
        JAX_VERSION = version.parse(jax.__version__)
        if {test}:
            pass
    """
    assert _evaluate(source) is value


def test_a_branch_current_jax_runs_is_reported_and_the_other_is_not():
    found = lint("""
        import jax
        if jax.__version_info__ < (0, 4, 26):
            f = jax.tree_multimap
        elif hasattr(jax, "tree_map"):
            f = jax.tree_map
        else:
            f = jax.tree.map
        g = jax.tree_util.tree_multimap if not hasattr(jax, "tree") else jax.tree.map
        if hasattr(jax, "unknown_feature"):
            h = jax.tree_multimap
        else:
            h = jax.tree_map
        if jax.__version__ > "0.4":
            k = jax.tree.map
        else:
            k = jax.tree_multimap
    """)
    assert [(c, line) for c, line, _, _ in found] == [("JAX901", 17)]


def test_a_try_whose_body_works_today_skips_its_handler():
    assert lint("""
        try:
            from jax.tree_util import tree_map
        except ImportError:
            from jax import tree_multimap as tree_map
    """) == []
    found = lint("""
        try:
            import jax.experimental.stax as stax
        except ModuleNotFoundError:
            from jax.experimental import stax
    """)
    assert [(c, line) for c, line, _, _ in found] == [("JAX901", 5)]


def test_the_right_side_of_a_short_circuit_check_is_judged_too():
    found = lint("""
        import jax

        def sharded(x):
            return (hasattr(jax, "pxla") and hasattr(jax.pxla, "ShardedDeviceArray")
                    and isinstance(x, jax.pxla.ShardedDeviceArray))

        def runs(x):
            return hasattr(jax, "tree") and jax.tree_multimap(abs, x)

        def skipped(x):
            return hasattr(jax, "tree") or jax.tree_multimap(abs, x)
    """)
    assert [(c, line, col) for c, line, col, _ in found] == [("JAX901", 9, 37)]
