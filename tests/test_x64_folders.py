"""x64 switched on for a folder: a conftest.py (run by pytest before the tests
beside and below it) or a package __init__.py (run at import, before its
submodules) that enables x64 makes the project driver lint the files of that
folder tree with x64 on."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from jaxlint.cli import cli

F64 = "import jax.numpy as jnp\n\n\ndef test_steps():\n    return jnp.zeros(3, dtype=jnp.float64)\n"
ENABLE = 'import jax\n\njax.config.update("jax_enable_x64", True)\n'
MSG = ("JAX110 `float64` requested in `jnp.zeros` is truncated to 32-bit because "
       "jax_enable_x64 is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), "
       "or use `float32`")


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def _check(root: Path, monkeypatch) -> list[str]:
    monkeypatch.chdir(root)
    result = CliRunner().invoke(cli, ["check", "--no-cache", "--output-format", "concise", "."])
    return [line for line in result.stdout.splitlines() if "JAX110" in line]


@pytest.mark.parametrize("enabler", [
    ENABLE,
    # in a hook or an autouse fixture: pytest runs it before the tests too
    'import jax\nimport pytest\n\n\n@pytest.fixture(autouse=True, scope="session")\n'
    'def _x64():\n    jax.config.update("jax_enable_x64", True)\n',
    # a fixture that switches it on for the tests that ask for it
    'import jax\nimport pytest\n\n\n@pytest.fixture\ndef double():\n    with jax.enable_x64(True):\n        yield\n',
])
def test_conftest_enables_x64_for_its_folder_tree(tmp_path, monkeypatch, enabler):
    _write(tmp_path, {
        "pyproject.toml": "[project]\nname = 'demo'\n",
        "tests/conftest.py": enabler,
        "tests/test_solver.py": F64,
        "tests/deep/test_more.py": F64,
        "scripts/run.py": F64,  # not below the conftest.py: x64 is off there
    })
    assert _check(tmp_path, monkeypatch) == [f"scripts/run.py:5:31: {MSG}"]


def test_conftest_setting_another_flag_leaves_x64_off(tmp_path, monkeypatch):
    _write(tmp_path, {
        "pyproject.toml": "[project]\nname = 'demo'\n",
        "tests/conftest.py": 'import jax\n\njax.config.update("jax_numpy_rank_promotion", "raise")\n',
        "tests/test_solver.py": F64,
    })
    assert _check(tmp_path, monkeypatch) == [f"tests/test_solver.py:5:31: {MSG}"]


def test_package_init_at_import(tmp_path, monkeypatch):
    _write(tmp_path, {
        "pyproject.toml": "[project]\nname = 'demo'\n",
        "dbl/__init__.py": ENABLE,
        "dbl/core.py": F64,
        "tests/test_core.py": F64,
    })
    assert _check(tmp_path, monkeypatch) == [f"tests/test_core.py:5:31: {MSG}"]


# a project whose own code (not a test) may switch x64 on when it runs: where its
# library code runs with x64 is unknown, so JAX110 stays silent there; its tests,
# which run without that set-up, are still checked
@pytest.mark.parametrize("switch", [
    # a precision config object whose method a driver calls
    {"solver/precision.py": (
        'import jax\n\n\nclass PrecisionConfig:\n    def enable_double(self):\n'
        '        jax.config.update("jax_enable_x64", True)\n\n'
        '    def enable_single(self):\n        jax.config.update("jax_enable_x64", False)\n')},
    # a package __init__ helper the user is told to call
    {"solver/__init__.py": 'import jax\n\n\ndef use_double():\n    jax.config.update("jax_enable_x64", True)\n'},
    # an entry script that sets it from a command-line flag
    {"scripts/train.py": (
        'import argparse\nimport jax\nfrom jax import config\n\nfrom solver import core\n\n\ndef main():\n'
        '    args = argparse.ArgumentParser().parse_args()\n'
        '    config.update("jax_enable_x64", args.double)\n')},
    # a launcher that sets the environment variable before it imports JAX
    {"service/server.py": (
        'import os\n\nimport solver.core\n\n\nclass Server:\n    def __init__(self):\n'
        '        os.environ["JAX_ENABLE_X64"] = "1"\n        import jax\n\n'
        '        self.devices = jax.devices()\n')},
])
def test_project_that_switches_x64_at_run_time_leaves_its_library_code_unknown(tmp_path, monkeypatch, switch):
    _write(tmp_path, {
        "pyproject.toml": "[project]\nname = 'demo'\n",
        "solver/core.py": F64,
        "solver/deep/kernels.py": F64,
        "tests/test_core.py": F64,
        **switch,
    })
    assert _check(tmp_path, monkeypatch) == [f"tests/test_core.py:5:31: {MSG}"]


@pytest.mark.parametrize("switch", [
    # switched off, never on
    {"solver/precision.py": 'import jax\n\n\ndef single():\n    jax.config.update("jax_enable_x64", False)\n'},
    {"service/server.py": 'import os\n\n\ndef start():\n    os.environ["JAX_ENABLE_X64"] = "0"\n'},
    # switched on only by a test (for its own tests): the library's users never get it
    {"tests/test_double.py": (
        'import jax\n\n\ndef test_double():\n    jax.config.update("jax_enable_x64", True)\n')},
    # another flag
    {"solver/precision.py": 'import jax\n\n\ndef strict(v):\n    jax.config.update("jax_numpy_rank_promotion", v)\n'},
    # switched on by a script that imports nothing of the library (another process)
    {"scripts/bench.py": 'import jax\n\n\ndef main(double):\n    jax.config.update("jax_enable_x64", double)\n'},
])
def test_project_that_never_switches_x64_on_outside_tests_is_checked(tmp_path, monkeypatch, switch):
    _write(tmp_path, {
        "pyproject.toml": "[project]\nname = 'demo'\n",
        "solver/core.py": F64,
        **switch,
    })
    assert _check(tmp_path, monkeypatch) == [f"solver/core.py:5:31: {MSG}"]


def test_library_functions_reached_from_a_folder_with_x64_on_run_with_it(tmp_path, monkeypatch):
    """The tests below a conftest.py that enables x64 call `solve`: it may run with x64
    on, so it is not reported; `unused` is reached from nowhere that enables it."""
    _write(tmp_path, {
        "pyproject.toml": "[project]\nname = 'lib'\n",
        "lib/__init__.py": "",
        "lib/solve.py": (
            "import jax.numpy as jnp\n\n\ndef solve(a):\n"
            "    return jnp.linalg.solve(a, jnp.ones(a.shape[0], dtype=jnp.float64))\n\n\n"
            "def unused():\n    return jnp.zeros(3, dtype=jnp.float64)\n"
        ),
        "tests/conftest.py": ENABLE,
        "tests/test_solve.py": (
            "import jax.numpy as jnp\nfrom lib.solve import solve\n\n\n"
            "def test_solve():\n    assert solve(jnp.eye(2)).shape == (2,)\n"
        ),
    })
    assert _check(tmp_path, monkeypatch) == [f"lib/solve.py:9:31: {MSG}"]
