"""A script's absolute import of a module beside it (``python lib/run.py`` puts
``lib/`` first on ``sys.path``, so ``from util import f`` is ``lib/util.py``)
resolves to that module, whatever folder jaxlint runs from and whatever else
lies there (a loose ``tool.py`` in the folder above made the project root that
folder, and the import resolved nowhere)."""

from __future__ import annotations

from project_files import lint_files

UTIL = """\
import jax.numpy as jnp


def norm_if(x):
    if jnp.sum(x) > 0:
        return x / jnp.sum(x)
    return x
"""

MESSAGE = ("Python `if` on a traced value: it depends on the traced argument `x` of `norm_if` "
           "({why}); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`")


def test_from_import_of_a_module_beside_the_script(tmp_path, monkeypatch) -> None:
    files = {
        "tool.py": "print('unrelated')\n",
        "lib/util.py": UTIL,
        "lib/run.py": "import jax\nfrom util import norm_if\n\nfast = jax.jit(norm_if)\n",
    }
    assert lint_files(tmp_path, monkeypatch, files, select="JAX201") == [
        ("JAX201", "lib/util.py", 5, 8, MESSAGE.format(why="wrapped by jax.jit in lib/run.py:4")),
    ]


def test_module_import_of_a_module_beside_the_script(tmp_path, monkeypatch) -> None:
    files = {
        "notes.py": "x = 1\n",
        "scripts/helpers.py": UTIL,
        "scripts/train.py": ("import jax\nimport helpers as H\n\n\n@jax.jit\ndef step(x):\n"
                             "    return H.norm_if(x) * 2\n"),
    }
    assert lint_files(tmp_path, monkeypatch, files, select="JAX201") == [
        ("JAX201", "scripts/helpers.py", 5, 8,
         MESSAGE.format(why="called from `step` (scripts/train.py:7), which is decorated with @jax.jit")),
    ]


def test_a_module_of_the_project_root_wins_over_one_beside_a_package_module(tmp_path, monkeypatch) -> None:
    # a package's module is imported, not run: its `from util import` is the top-level `util`
    files = {
        "util.py": "import jax.numpy as jnp\n\n\ndef norm_if(x):\n    return jnp.where(jnp.sum(x) > 0, x / jnp.sum(x), x)\n",
        "pkg/__init__.py": "",
        "pkg/util.py": UTIL,
        "pkg/model.py": "import jax\nfrom util import norm_if\n\nfast = jax.jit(norm_if)\n",
    }
    assert lint_files(tmp_path, monkeypatch, files, select="JAX201") == []


def test_a_package_module_imports_the_standard_library_not_its_sibling(tmp_path, monkeypatch) -> None:
    # `import random` in a package's module is the standard library's, whatever the
    # package holds (the folder is first on sys.path only for a script run from it)
    files = {
        "pkg/__init__.py": "",
        "pkg/random.py": "import jax\n\n\ndef choice(key, options):\n    return jax.random.choice(key, options)\n",
        "pkg/augment.py": ("import random\n\nimport jax.numpy as jnp\n\n\ndef pick_two(key, crops):\n"
                           "    first = random.choice(crops)\n    second = random.choice(crops)\n"
                           "    return jnp.stack([first, second]), key\n"),
    }
    assert lint_files(tmp_path, monkeypatch, files) == []
