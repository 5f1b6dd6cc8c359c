"""False findings the reviewers found on fresh set 18, by mechanism: each VALID shape
written several ways, with INVALID twins that must still be reported.

* A. JAX120 in a test module whose only "derivative" is a decorator around a test
  (axlearn `axlearn/audio/decoder_asr_test.py:1048`: `@set_threefry_partitionable(False)
  def test_forward(self, ...)`, a decorator of another module of the project).  A decorator
  may differentiate the function it takes, but a function that returns nothing (a test)
  has no output to differentiate: `jax.grad` of it raises, `vjp`/`jvp` carry nothing
  back through its body.  Such a function is no root of the file's derivative reach.
* B. JAX120 in a project that takes no derivative, linted whole, whose root is itself a
  package (sofima `flow_field.py:141`: the root's `__init__.py` has no module name, so the
  project did not count as linted whole).  A file of the project that no module name
  places, and a `.py` file under the root the run left out, are read as text: one that
  names no derivative takes none.
* C. JAX123 through an import that importing the module does not run (jax-sph
  `tests/test_cf2d.py:79`: `from main import load_embedded_configs`, where `main.py`
  imports `jax_sph.simulate` only in its `if __name__ == "__main__":` block).  Imports in
  a function or in the `__main__` block are not run when the module is imported.
* D. JAX301 on a key alias rebound every iteration (axlearn
  `axlearn/common/utils_test.py:649`: `key = original_key`, then `key, child_key =
  jax.random.split(key)` in the loop): the loop reads `key`, rebound by a statement of its
  body each time; `original_key` still holds the first key but is not read there.
"""

from __future__ import annotations

from project_files import lint_files


def _lint(tmp_path, monkeypatch, files, select=""):
    tmp_path.mkdir(parents=True, exist_ok=True)
    return lint_files(tmp_path, monkeypatch, files, select=select, dedent=True)


# ---------------------------------------------------------------- A: a decorated test is no derivative root

_DECO = '''
    import functools

    import jax


    def with_flag(on=False):
        def deco(fn):
            @functools.wraps(fn)
            def wrapper(*args, **kwargs):
                with jax.threefry_partitionable(on):
                    return fn(*args, **kwargs)
            return wrapper
        return deco


    def differentiated(fn):
        return jax.grad(fn)
'''

# VALID: a TestCase method decorated by a decorator of another module of the project, a
# method of a cell class of the test file that the test builds, nothing differentiated
_CELL_TEST = '''
    import jax.numpy as jnp
    from absl.testing import absltest

    from helpers import with_flag


    class Cell:
        def extend_step(self, memory):
            prob = jnp.exp(memory)
            return jnp.where(prob > 0, jnp.log(prob), -1e9)


    class DecodeTest(absltest.TestCase):
        @with_flag(False)
        def test_decode(self):
            out = Cell().extend_step(jnp.zeros(3))
            self.assertEqual(out.shape, (3,))
'''

# VALID: a pytest test function decorated by a library's decorator (`mock.patch`), and one
# decorated by a decorator of the file, calling a helper of the file
_PATCHED_TEST = '''
    import functools
    from unittest import mock

    import jax.numpy as jnp


    def logged(fn):
        @functools.wraps(fn)
        def wrapper(*args):
            print("running", fn.__name__)
            return fn(*args)
        return wrapper


    def safe_log(p):
        return jnp.where(p > 0, jnp.log(p), 0.0)


    @mock.patch("os.getcwd", return_value="/")
    def test_entropy(getcwd):
        assert safe_log(jnp.ones(3)).shape == (3,)


    @logged
    def test_entropy_again():
        assert safe_log(jnp.ones(2)).shape == (2,)
'''

# INVALID: the decorated function returns the value a `where` made: the decorator (not
# known here) may differentiate it
_RETURNING_TEST = '''
    import jax.numpy as jnp

    from helpers import differentiated


    def safe_log(p):
        return jnp.where(p > 0, jnp.log(p), 0.0)


    @differentiated
    def entropy(p):
        return jnp.sum(safe_log(p))


    def test_entropy():
        assert entropy(jnp.ones(3)) == 0.0
'''

_LOG_MSG = "`jnp.log(p)` is computed for every element, also where `p > 0` is false and masks it out; its derivative is infinite/NaN where `p` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `p` with the same condition too (double where: `jnp.where(cond, p, 1.0)` inside)"


def test_decorated_test_method_is_no_derivative_root(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"helpers.py": _DECO, "decode_test.py": _CELL_TEST}, "JAX120") == []


def test_decorated_test_functions_are_no_derivative_roots(tmp_path, monkeypatch):
    # (the project takes derivatives elsewhere: not a derivative-free project)
    assert _lint(tmp_path, monkeypatch, {"helpers.py": _DECO, "test_entropy.py": _PATCHED_TEST}, "JAX120") == []


def test_decorated_function_returning_a_value_is_a_derivative_root(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"helpers.py": _DECO, "test_entropy.py": _RETURNING_TEST}, "JAX120") == [
        ("JAX120", "test_entropy.py", 8, 29, _LOG_MSG)]


# ---------------------------------------------------------------- B: a derivative-free project whose root is a package

_XCORR = '''
    import jax.numpy as jnp


    def masked_xcorr(a, b):
        xcorr = jnp.fft.ifft(jnp.fft.fft(a) * jnp.fft.fft(b)).real
        denom = jnp.sum(a * a) * jnp.sum(b * b)
        return jnp.where(denom > 1e-6, xcorr / denom, 0.0)


    def peak(a, b):
        return jnp.argmax(masked_xcorr(a, b))
'''

_XCORR_MSG = "`xcorr / denom` is computed for every element, also where `denom > 1e-6` is false and masks it out; its derivative is infinite/NaN where `denom` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `denom` with the same condition too (double where: `jnp.where(cond, denom, 1.0)` inside)"


def test_grad_free_project_whose_root_is_a_package_is_silent(tmp_path, monkeypatch):
    files = {"__init__.py": "# flow fields\n", "flow.py": _XCORR,
             "stitch.py": "from flow import peak\n\n\ndef align(a, b):\n    return peak(a, b)\n"}
    assert _lint(tmp_path, monkeypatch, files, "JAX120") == []


def test_grad_free_project_with_an_excluded_file_naming_no_derivative_is_silent(tmp_path, monkeypatch):
    files = {"pyproject.toml": '[tool.jaxlint]\nexclude = ["scripts/"]\n', "flow.py": _XCORR,
             "scripts/plot.py": "import flow\n\nprint(flow.peak([1.0], [2.0]))\n"}
    assert _lint(tmp_path, monkeypatch, files, "JAX120") == []


def test_root_package_init_naming_an_optimizer_is_reported(tmp_path, monkeypatch):
    files = {"__init__.py": "import optax\n\nOPT = optax.adam(1e-3)\n", "flow.py": _XCORR,
             "stitch.py": "from flow import peak\n\n\ndef align(a, b):\n    return peak(a, b)\n"}
    assert _lint(tmp_path, monkeypatch, files, "JAX120") == [("JAX120", "flow.py", 8, 36, _XCORR_MSG)]


def test_excluded_file_taking_a_gradient_is_reported(tmp_path, monkeypatch):
    files = {"pyproject.toml": '[tool.jaxlint]\nexclude = ["scripts/"]\n', "flow.py": _XCORR,
             "scripts/fit.py": "import jax\nimport flow\n\ng = jax.grad(lambda a: flow.masked_xcorr(a, a).sum())\n"}
    assert _lint(tmp_path, monkeypatch, files, "JAX120") == [("JAX120", "flow.py", 8, 36, _XCORR_MSG)]


# ---------------------------------------------------------------- C: imports that importing a module does not run

_CONSTS = '''
    import jax.numpy as jnp

    TABLE = jnp.array([0.5, 1.5, 2.5])
'''

# `main.py`: the import of `pkg.consts` in its `__main__` block, in a function, in a method
_MAIN_GUARDED = '''
    from jax import config


    def load_configs(args):
        return dict(args)


    if __name__ == "__main__":
        config.update("jax_enable_x64", True)
        from pkg.consts import TABLE

        print(TABLE)
'''

_MAIN_IN_FUNCTION = '''
    from jax import config


    def load_configs(args):
        return dict(args)


    def run(args):
        config.update("jax_enable_x64", True)
        from pkg.consts import TABLE

        return TABLE


    class Runner:
        def start(self):
            import pkg.consts

            return pkg.consts.TABLE
'''

_MAIN_AT_TOP = '''
    from jax import config

    from pkg.consts import TABLE


    def load_configs(args):
        return dict(args)
'''

_RUN_TEST = '''
    from jax import config

    from main import load_configs


    def run_simulation(args):
        cfg = load_configs(args)
        config.update("jax_enable_x64", True)
        from pkg.consts import TABLE

        return TABLE * cfg["scale"]


    def test_run():
        assert run_simulation({"scale": 2.0}).shape == (3,)
'''


def test_import_in_main_block_runs_no_arrays_at_import(tmp_path, monkeypatch):
    files = {"pkg/__init__.py": "", "pkg/consts.py": _CONSTS, "main.py": _MAIN_GUARDED, "test_run.py": _RUN_TEST}
    assert _lint(tmp_path, monkeypatch, files, "JAX123") == []


def test_import_in_a_function_runs_no_arrays_at_import(tmp_path, monkeypatch):
    files = {"pkg/__init__.py": "", "pkg/consts.py": _CONSTS, "main.py": _MAIN_IN_FUNCTION, "test_run.py": _RUN_TEST}
    assert _lint(tmp_path, monkeypatch, files, "JAX123") == []


def test_import_at_module_level_makes_arrays_at_import(tmp_path, monkeypatch):
    files = {"pkg/__init__.py": "", "pkg/consts.py": _CONSTS, "main.py": _MAIN_AT_TOP, "test_run.py": _RUN_TEST}
    assert _lint(tmp_path, monkeypatch, files, "JAX123") == [
        ("JAX123", "test_run.py", 9, 5, "`run_simulation` enables x64 after `from main import load_configs` (line 4) already created JAX arrays while x64 was off, at import (pkg/consts.py: TABLE = jnp.array([0.5, 1.5, 2.5])): they stay 32-bit while arrays made after the switch are 64-bit. Enable x64 before importing it (right after importing jax)")]


# ---------------------------------------------------------------- D: a key alias rebound every iteration

_ALIAS = '''
    import jax
    import jax.random as jr


    def draws(fn):
        original_key = jax.random.PRNGKey(1234)
        out = []
        key = original_key
        for _ in range(10):
            key, child_key = jax.random.split(key)
            out.append(fn(child_key))
        return out


    def draws_while(fn, n):
        seed_key = jr.PRNGKey(0)
        rng = seed_key
        out = []
        while len(out) < n:
            rng, sub = jr.split(rng)
            out.append(fn(sub))
        return out


    def draws_in_block(fn, impl):
        with impl:
            base = jax.random.key(7)
            k = base
            for _ in range(3):
                k, sub = jax.random.split(k, num=2)
                fn(sub)
        return base
'''

# INVALID: the loop reads the alias but never rebinds it, or reads the name that still
# holds the first key
_ALIAS_REUSED = '''
    import jax


    def draws(fn):
        original_key = jax.random.PRNGKey(1234)
        out = []
        key = original_key
        for _ in range(10):
            _, child_key = jax.random.split(key)
            out.append(fn(child_key))
        return out


    def draws_realiased(fn):
        original_key = jax.random.PRNGKey(1234)
        out = []
        key = original_key
        for _ in range(10):
            key = original_key
            key, child_key = jax.random.split(key)
            out.append(fn(child_key))
        return out


    def draws_original(fn):
        original_key = jax.random.PRNGKey(1234)
        out = []
        key = original_key
        for _ in range(10):
            key, child_key = jax.random.split(original_key)
            out.append(fn(child_key))
        return out
'''

_REUSE_MSG = "`original_key` is consumed by `random.split` inside a loop but never replaced, so every iteration draws the same random numbers. Split a new key each iteration (`original_key, sub = jax.random.split(original_key)`) or use `jax.random.fold_in(original_key, i)`"


def test_key_alias_rebound_every_iteration_is_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"draws.py": _ALIAS}, "JAX301") == []


def test_key_alias_not_rebound_or_original_read_is_reported(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"draws.py": _ALIAS_REUSED}, "JAX301") == [
        ("JAX301", "draws.py", 10, 24, _REUSE_MSG), ("JAX301", "draws.py", 21, 26, _REUSE_MSG),
        ("JAX301", "draws.py", 31, 26, _REUSE_MSG)]


# ---------------------------------------------------------------- E: a test that its Bazel target runs with x64

# axlearn `axlearn/audio/frontend_utils_test.py:131`: `py_test(srcs = ["frontend_utils_test.py"],
# env = {"JAX_ENABLE_X64": "1"})` in `axlearn/audio/BUILD`
_F64_TEST = '''
    import jax.numpy as jnp


    def test_window():
        x = jnp.ones(4, dtype=jnp.float64)
        assert x.sum() == 4
'''

_F64_MSG = "`float64` requested in `jnp.ones` is truncated to 32-bit because jax_enable_x64 is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `float32`"

# VALID: a `py_test` in `BUILD`; a macro (`pytest_test`) in `BUILD.bazel` with `"true"` and two
# sources; a target listing the file among others in a tuple
_BUILD = '''
    py_test(
        name = "window_test",
        srcs = ["window_test.py"],
        env = {"JAX_ENABLE_X64": "1"},
        deps = [":window"],
    )
'''

_BUILD_MACRO = '''
    load("//tools:pytest.bzl", "pytest_test")

    pytest_test(
        name = "window_tests",
        srcs = ["window_test.py", "fft_test.py"],
        env = {"XLA_FLAGS": "--xla_force_host_platform_device_count=8", "JAX_ENABLE_X64": "true"},
    )
'''

# INVALID: the target of another file sets it; the variable set to "0"; a BUILD that does not parse
_BUILD_OTHER = '''
    py_test(
        name = "fft_test",
        srcs = ["fft_test.py"],
        env = {"JAX_ENABLE_X64": "1"},
    )

    py_test(
        name = "window_test",
        srcs = ["window_test.py"],
        env = {"JAX_ENABLE_X64": "0"},
    )
'''


def test_bazel_target_with_x64_env_is_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"audio/window_test.py": _F64_TEST, "audio/BUILD": _BUILD}, "JAX110") == []


def test_bazel_macro_with_x64_env_is_silent(tmp_path, monkeypatch):
    files = {"audio/window_test.py": _F64_TEST, "audio/fft_test.py": _F64_TEST, "audio/BUILD.bazel": _BUILD_MACRO}
    assert _lint(tmp_path, monkeypatch, files, "JAX110") == []


def test_bazel_target_of_another_file_or_x64_off_is_reported(tmp_path, monkeypatch):
    files = {"audio/window_test.py": _F64_TEST, "audio/fft_test.py": _F64_TEST, "audio/BUILD": _BUILD_OTHER,
             "vision/window_test.py": _F64_TEST, "vision/BUILD": "py_test(name = 'window_test', srcs = [\n"}
    assert _lint(tmp_path, monkeypatch, files, "JAX110") == [
        ("JAX110", "audio/window_test.py", 6, 27, _F64_MSG), ("JAX110", "vision/window_test.py", 6, 27, _F64_MSG)]
