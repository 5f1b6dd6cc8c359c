"""What the round's diff review found (issue 22): a one-element loop whose list grows
still draws more than once; JAX's own test helpers (`jax._src.test_util.check_grads`)
differentiate; an import in a class body binds a class attribute, not the module's
name; a function mapped by shard_map that reads the shard's index derives per-shard
keys from the replicated one."""

from project_files import lint_files

LOOP_MSG = ("`key` is consumed by `random.normal` inside a {kind} but never replaced, so every iteration "
            "draws the same random numbers. Split a new key each iteration (`key, sub = jax.random.split(key)`) "
            "or use `jax.random.fold_in(key, i)`")


def test_a_list_bound_to_one_element_that_grows_draws_more_than_once(tmp_path, monkeypatch):
    src = (
        "import jax\n\n\n"
        "def grown(key):\n    sizes = [1024]\n    sizes.append(2048)\n"
        "    return [jax.random.normal(key, (n,)) for n in sizes]\n\n\n"
        "def added(key):\n    sizes = (1024,)\n    sizes += (2048,)\n    out = []\n    for n in sizes:\n"
        "        out.append(jax.random.normal(key, (n,)))\n    return out\n\n\n"
        "def once(key):\n    sizes = [1024]\n    return [jax.random.normal(key, (n,)) for n in sizes]\n"
    )
    assert lint_files(tmp_path, monkeypatch, {"k.py": src}) == [
        ("JAX301", "k.py", 7, 13, LOOP_MSG.format(kind="comprehension")),
        ("JAX301", "k.py", 15, 20, LOOP_MSG.format(kind="loop")),
    ]


WHERE_MSG = ("`a / b` is computed for every element, also where `b == 0` is true and masks it out; its "
             "derivative is infinite/NaN where `b` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `b` "
             "with the same condition too (double where: `jnp.where(cond, b, 1.0)` inside)")


def test_jaxs_own_test_helpers_differentiate(tmp_path, monkeypatch):
    test = (
        "import unittest\n\nimport jax.numpy as jnp\nfrom jax._src import {mod} as jtu\n\n\n"
        "class DivTest(unittest.TestCase):\n    def test_grad(self):\n        def safe_div(a, b):\n"
        "            return jnp.where(b == 0, 0.0, a / b)\n\n"
        "        jtu.check_grads(lambda b: safe_div(1.0, b), (0.0,), order=1)\n\n"
        "    def test_values(self):\n        def safe_div(a, b):\n"
        "            return jnp.where(b == 0, 0.0, a / b)\n\n"
        "        self.assertEqual(float(safe_div(1.0, 0.0)), 0.0)\n"
    )
    assert lint_files(tmp_path, monkeypatch, {
        "ops_test.py": test.format(mod="test_util"),
        "pub_test.py": test.format(mod="public_test_util"),
    }) == [("JAX120", "ops_test.py", 10, 43, WHERE_MSG), ("JAX120", "pub_test.py", 10, 43, WHERE_MSG)]


def test_an_import_in_a_class_body_binds_no_module_name(tmp_path, monkeypatch):
    numpy_module = (
        "import numpy as np\n\n\nclass Backend:\n    import jax.numpy as np\n\n"
        "    def zeros(self, n):\n        return self.np.zeros(n)\n\n\n"
        "x = np.zeros(3)\nx[0] = 1.0\n"
    )
    jax_module = (
        "import jax.numpy as np\n\n\nclass Host:\n    import numpy as np\n\n\n"
        "x = np.zeros(3)\nx[0] = 1.0\n"
    )
    found = lint_files(tmp_path, monkeypatch, {"host.py": numpy_module, "dev.py": jax_module})
    assert [f[:4] for f in found] == [("JAX101", "dev.py", 9, 1)]


SHARD = (
    "from functools import partial\n\nimport jax\nfrom jax.sharding import Mesh, PartitionSpec as P\n\n\n"
    "def noisy(x, key):\n    mesh = Mesh(jax.devices(), (\"data\",))\n\n"
    "    @partial(jax.shard_map, mesh=mesh, in_specs=(P(\"data\"), P()), out_specs=P(\"data\"))\n"
    "    def body(x, key):\n{body}\n\n    return body(x, key)\n"
)


def test_a_shard_map_body_that_reads_the_shards_index(tmp_path, monkeypatch):
    indexed = ("        keys = jax.random.split(key, jax.lax.psum(1, \"data\"))\n"
               "        k = keys[jax.lax.axis_index(\"data\")]\n"
               "        return x + jax.random.normal(k, x.shape)")
    from_lax = ("        from jax import lax\n        i = lax.axis_index(\"data\")\n"
                "        return x + jax.random.normal(jax.random.split(key, 8)[i], x.shape)")
    same = "        keys = jax.random.split(key, x.shape[0])\n        return x + jax.vmap(jax.random.normal)(keys)"
    found = lint_files(tmp_path, monkeypatch, {"a.py": SHARD.format(body=indexed), "b.py": SHARD.format(body=from_lax),
                                                "c.py": SHARD.format(body=same)})
    assert found == [(
        "JAX301", "c.py", 12, 16,
        "`key` is the same key on every shard: `jax.shard_map` replicates it (`P()` in `in_specs`) while it "
        "splits another argument, and `random.split` consumes it here, so every shard draws the same random "
        "numbers. Fold the shard's index in first: `jax.random.fold_in(key, jax.lax.axis_index(axis_name))`")]
