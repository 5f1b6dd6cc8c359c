"""JAX110 float64-without-x64: A 64-bit dtype is requested but x64 is off, so JAX uses 32 bits (it only warns)."""

from __future__ import annotations

import re

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Replacement, Rule, Valid, fix
from jaxlint.findings import Applicability, Severity
from jaxlint.model import apis
from jaxlint.model import values as V
from jaxlint.model.walk import positional_args, string_value


# positional index of ``dtype`` in jax functions that take it positionally
_DTYPE_POSITION = {
    "jax.numpy.zeros": 1,
    "jax.numpy.ones": 1,
    "jax.numpy.empty": 1,
    "jax.numpy.full": 2,
    "jax.numpy.array": 1,
    "jax.numpy.asarray": 1,
    "jax.numpy.zeros_like": 1,
    "jax.numpy.ones_like": 1,
    "jax.numpy.full_like": 2,
    "jax.numpy.eye": 3,
    "jax.numpy.identity": 1,
    "jax.random.normal": 2,
    "jax.random.uniform": 2,
    "jax.random.truncated_normal": 4,
    "jax.random.randint": 4,
    "jax.lax.convert_element_type": 1,
}
# the rest of the jax.numpy, jax.random and jax.lax functions whose signature takes `dtype`
# by position (read with `inspect.signature` on JAX 0.10.2; a 64-bit dtype there warns as
# a keyword does: `jnp.sum(x, 0, jnp.float64)`, `jax.lax.iota(jnp.int64, 3)`)
_DTYPE_POSITION.update({f"jax.numpy.{n}": i for n, i in (
    ("arange", 3), ("astype", 1), ("concatenate", 2), ("corrcoef", 3), ("cov", 7), ("cumprod", 2),
    ("cumsum", 2), ("dstack", 1), ("empty_like", 1), ("frombuffer", 1), ("fromstring", 1), ("geomspace", 4),
    ("hstack", 1), ("indices", 1), ("linspace", 5), ("logspace", 5), ("mean", 2), ("nancumprod", 2),
    ("nancumsum", 2), ("nanmean", 2), ("nanprod", 2), ("nanstd", 2), ("nansum", 2), ("nanvar", 2), ("prod", 2),
    ("stack", 3), ("std", 2), ("sum", 2), ("trace", 4), ("tri", 3), ("var", 2), ("vstack", 1))})
_DTYPE_POSITION.update({f"jax.random.{n}": i for n, i in (
    ("ball", 4), ("beta", 4), ("binomial", 4), ("bits", 2), ("cauchy", 2), ("chisquare", 3), ("dirichlet", 3),
    ("double_sided_maxwell", 4), ("exponential", 2), ("f", 4), ("gamma", 3), ("generalized_normal", 3),
    ("geometric", 3), ("gumbel", 2), ("laplace", 2), ("loggamma", 3), ("logistic", 2), ("lognormal", 3),
    ("maxwell", 2), ("multivariate_normal", 4), ("orthogonal", 3), ("pareto", 3), ("poisson", 3),
    ("rademacher", 2), ("rayleigh", 3), ("t", 3), ("triangular", 5), ("wald", 3), ("weibull_min", 4))})
_DTYPE_POSITION.update({"jax.lax.broadcasted_iota": 0, "jax.lax.empty": 1, "jax.lax.full": 2,
                        "jax.lax.full_like": 2, "jax.lax.iota": 0, "jax.lax.rng_bit_generator": 2})
_JAX_DTYPE_PREFIXES = ("jax.numpy.", "jax.random.", "jax.lax.", "jax.nn.", "jax.scipy.")
# NumPy's aliases that name a 64-bit type (jax.numpy keeps them: `jnp.float_` is
# `jnp.float64`, `jnp.int_` `jnp.int64`, `jnp.uint` `jnp.uint64`; checked on JAX 0.10.2)
_X64_ALIASES = {"float_": "float64", "complex_": "complex128", "int_": "int64", "uint": "uint64"}
_INT32_MAX = 2 ** 31 - 1
# jax.numpy functions that read a dtype or a shape, converting no array
_NO_CONVERSION = frozenset({"shape", "ndim", "size", "result_type", "dtype", "finfo", "iinfo", "issubdtype",
                            "can_cast", "isdtype", "promote_types", "isscalar", "iscomplexobj", "isrealobj"})
_X64_ATTRS = frozenset({"float64", "int64", "uint64", "complex128", "double", "cdouble", "longlong", "ulonglong"}) | frozenset(_X64_ALIASES)



# a docstring sentence that states x64 as a need: names it (or double precision) and a
# requirement, and negates neither (`x64 is not needed` states nothing)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n")
_X64_TOPIC = re.compile(r"x64|double[ -]precision|float64")
_X64_NEED = re.compile(r"\b(?:requires?|required|assumes?|assumed|needs?|needed|must|turned on|switched on|enabled?|run with|run it with)\b")
_NEGATED = re.compile(r"\bnot\b|n't\b|\bwithout\b|\bno\b")

class Float64WithoutX64(Rule):
    code = "JAX110"
    name = "float64-without-x64"
    runtime_check = "traced under `warnings.catch_warnings`: confirmed when JAX's dtype `UserWarning` is raised at the flagged line; the report gives the dtypes actually produced."
    summary = "A 64-bit dtype is requested but x64 is off, so JAX uses 32 bits (it only warns)"
    severity = Severity.WARNING
    seed = "The Sharp Bits § Double (64bit) precision (seed 000); study notes § type promotion (seed 003)"
    what_it_does = (
        "Flags 64-bit dtypes given to JAX: `jnp.float64(...)`, `dtype=jnp.float64` / "
        "`dtype=np.float64` / `dtype='float64'` (also int64, uint64, complex128, and NumPy's aliases of them: `float_`, `int_`, `uint`, `complex_`; "
        "and every string NumPy reads as one: `'f8'`, `'<i8'`, `'d'`, `'q'`, `'intp'`, and Python's type names "
        "as strings, `dtype='int'` (int64), `'float'`, `'complex'`, unlike the types `dtype=int`, `float`, "
        "which are JAX's default types and warn of nothing) in "
        "`jax.numpy`, `jax.random` and `jax.lax` calls, and `.astype(...)` of a JAX array to "
        "such a dtype, in a module that does not enable x64. It also flags a NumPy array built "
        "with a 64-bit dtype (`np.ones(3, dtype=np.float64)`, `dtype=\"float64\"`, or a loop's "
        "dtype over a list that holds one: `for dtype in [jnp.float32, jnp.float64]:`) given to a "
        "`jax.numpy` function that names no dtype (`jnp.where(mask, a, b)` returns float32, with no "
        "warning), and an integer power whose elements the model knows reaching beyond int32 "
        "(`256 ** jnp.arange(1, 5)`, `jnp.power(10, jnp.arange(12))`), which wraps.\n\n"
        "It is silent when the module enables x64 (`jax.config.update('jax_enable_x64', True)`, "
        "`os.environ['JAX_ENABLE_X64'] = '1'`), inside `with jax.enable_x64():`, in code that "
        "runs only with x64 on (a test or class under `skipUnless(jax.config.jax_enable_x64, ...)` "
        "or `pytest.mark.skipif(not jax.config.jax_enable_x64, ...)`, the rest of a block after "
        "`if not jax.config.jax_enable_x64: self.skipTest(...)` / `pytest.skip(...)` / `return`, "
        "the body of `if jax.config.jax_enable_x64:` and the first branch of `... if X64 else ...`; "
        "a branch taken only when a JAX array's dtype is already 64-bit: `if x.dtype == jnp.float64:` "
        "(an `elif` too), `x.dtype in (jnp.float64, jnp.complex128)`, `jnp.issubdtype(x.dtype, "
        "jnp.float64)`, `str(x.dtype) == 'float64'`, a local bound to `x.dtype`, the rest of a block "
        "after `if x.dtype != jnp.float64: return ...`, since with x64 off no JAX array has such a "
        "dtype; not a NumPy array's dtype, nor a `dtype` parameter, which is a request), the same written through the project's own "
        "helpers (`with _x64():` where `_x64` returns `jax.enable_x64()`, `if not "
        "util.x64_enabled():`, `@requires_x64`, a pytest fixture or a `setUp` that switches x64 "
        "on; after a call of a helper, of the file or another module, that switches it on, also under an `if` "
        "of its body, a function a package re-exports, `bp.math.enable_x64(True)`, or a method called on an "
        "instance of its class, `Precision().apply()`), in functions that code running with x64 on calls, below a folder whose "
        "`conftest.py` or package `__init__.py` enables x64, in tests of a class deriving from one whose `setUp` switches it on, in modules importing one that "
        "enables it when imported (when linting the project), in the library code (every file but tests) "
        "of a top-level package one of whose own non-test files, or a non-test file importing it, may "
        "switch x64 on when it runs (`jax.config.update('jax_enable_x64', v)` in a function with `v` not "
        "literally `False`, in a precision config's method, a service's set-up or an entry script, or at "
        "import with a value from a flag; `os.environ['JAX_ENABLE_X64'] = ...` in a function): whether x64 "
        "is on where that code runs is unknown, and when the "
        "project says it enables x64 at start-up (`[tool.jaxlint] x64 = true`), or in a test that the "
        "project's Bazel target runs with x64 on (a target of the `BUILD`/`BUILD.bazel` file beside it "
        "whose `srcs` list the file and whose `env` sets `\"JAX_ENABLE_X64\": \"1\"`). Dtype checks "
        "(`x.dtype == jnp.float64`, `jnp.finfo(jnp.float64)`) and NumPy calls are not flagged, nor a "
        "module dtype constant whose comment (on its line or just above) speaks of x64 (`# needs "
        "jax_enable_x64, float32 otherwise` over `ROOT_DTYPE = jnp.float64`): the 32-bit fallback is "
        "documented there. Nor is a module whose docstring states x64 as a need, in a sentence that names x64, double "
        "precision or float64 and a requirement (requires, assumes, needs, must, turned on, enabled, run with) "
        "without a negation (`This library assumes that double precision is turned on ... "
        "config.update(\"jax_enable_x64\", True)`; not `x64 is not needed`): x64 is its "
        "documented precondition, which its users meet."
    )
    why_bad = (
        "JAX defaults to 32-bit types. Without `jax_enable_x64`, a requested float64 becomes "
        "float32 (int64 becomes int32), with at most a `UserWarning: Explicitly requested dtype "
        "float64 is not available, and will be truncated to dtype float32` that is easy to "
        "miss, and none at all when a float64 NumPy array is converted. Code that relies on "
        "double precision (numerics, accumulations, large integers) silently computes in single "
        "precision; integers above 2**31 overflow."
    )
    use_instead = (
        "Enable x64 at start-up (before any array is created):\n\n```python\nimport jax\n"
        "jax.config.update(\"jax_enable_x64\", True)\n```\n\nor say float32 explicitly. If the "
        "project enables x64 elsewhere (an entry point, `JAX_ENABLE_X64=1`), set `x64 = true` in "
        "`[tool.jaxlint]`."
    )
    fix_safety = (
        "The fix replaces the 64-bit dtype with its 32-bit counterpart (`float64` -> `float32`, "
        "`int64` -> `int32`, `complex128` -> `complex64`). With x64 off this is exactly what JAX "
        "already computes, but it is **unsafe**: it records a choice of precision that may not "
        "be what the author intended (often x64 should be enabled instead).\n\n"
        "No file tells for certain that x64 is off where it runs (`JAX_ENABLE_X64=1` in the "
        "environment, an entry point or a test configuration elsewhere may turn it on), so the "
        "fix is offered only where nothing suggests it may be on, and the finding comes without "
        "a fix in:\n\n"
        "* a test file (`test_*.py`, `*_test.py`, `conftest.py`, or a file under a `test/` or "
        "`tests/` folder): a test that asks for float64 tests float64, and suites often run "
        "with x64 on;\n"
        "* a file that mentions x64 anywhere, in any case: a read or an update of the flag with "
        "any value (`jax.config.update('jax_enable_x64', FLAGS.x64)`), `JAX_ENABLE_X64`, "
        "`jax.experimental.enable_x64` / `jax.enable_x64` used elsewhere in the file, a helper, "
        "fixture or marker whose name says x64 (`requires_x64`, `skip_unless_x64`), a comment;\n"
        "* a file that checks for a 64-bit dtype (`x.dtype == jnp.float64`, "
        "`jnp.finfo(jnp.float64)`): the code expects 64-bit values.\n\n"
        "Where x64 is certainly on for the flagged code (enabled in the file, a `with "
        "jax.enable_x64():`, an x64-only test, a folder's `conftest.py`, `[tool.jaxlint] x64 = "
        "true`) there is no finding at all."
    )
    VALID = [
        # 32-bit NumPy data, a call that names its dtype, a float power, a power within int32
        Valid(
            """
            import numpy as np
            import jax.numpy as jnp

            for dtype in [jnp.float16, jnp.float32]:
                a = np.ones((2, 2), dtype=dtype)
                print(jnp.where(a > 0, a, 0.0).dtype)

            b = jnp.asarray(np.ones(3, dtype=np.float64), dtype=jnp.float32)
            scales = 1 / 256.0 ** jnp.arange(1, 5), 2 ** jnp.arange(31)
            """
        ),
        # x64 switched on at import by a configuration helper with a value it reads
        # (an environment flag): it may be on, so nothing is reported
        Valid(
            """
            import os
            import jax
            import jax.numpy as jnp

            def _update_x64(val):
                from jax import config as jax_config
                jax_config.update("jax_enable_x64", val)

            FLAGS.define("ENABLE_X64", bool, default=os.environ.get("ENABLE_X64", "1") == "1",
                         callback=_update_x64)

            x = jnp.zeros(3, dtype=jnp.float64)
            """
        ),
        Valid(
            """
            import os
            import jax
            import jax.numpy as jnp

            def set_precision(double):
                jax.config.update("jax_enable_x64", double)

            set_precision(os.environ.get("DOUBLE") is not None)
            y = jnp.ones(2).astype(jnp.complex128)
            """
        ),
        Valid(
            """
            import jax
            jax.config.update('jax_enable_x64', True)
            import jax.numpy as jnp
            x = jnp.zeros(3, dtype=jnp.float64)
            """
        ),
        Valid(
            """
            import jax.numpy as jnp
            x = jnp.zeros(3, dtype=jnp.float64)
            """,
            x64=True,
        ),
        Valid(
            """
            import jax
            import jax.numpy as jnp

            with jax.enable_x64():
                x = jnp.zeros(3, dtype=jnp.float64)
            """
        ),
        Valid(
            """
            import numpy as np
            import jax.numpy as jnp
            x = np.zeros(3, dtype=np.float64)
            y = jnp.asarray(x, dtype=jnp.float32)
            """
        ),
        Valid(
            """
            import jax.numpy as jnp

            def is_double(x):
                return x.dtype == jnp.float64 or jnp.finfo(jnp.float64).eps > 0
            """
        ),
        Valid(
            """
            import jax.numpy as jnp
            import numpy as np
            host = np.ones(3).astype(np.float64)
            """
        ),
        Valid(
            """
            import jax
            import jax.numpy as jnp
            from absl.testing import absltest


            @absltest.skipUnless(jax.config.jax_enable_x64, "float64 needs x64")
            class DoubleTest(absltest.TestCase):
                def test_cumsum(self):
                    x = jnp.arange(4, dtype=jnp.float64)
                    self.assertEqual(x.cumsum()[-1], 6.0)
            """
        ),
        Valid(
            """
            import jax
            import jax.numpy as jnp
            import pytest

            pytestmark = pytest.mark.skipif(not jax.config.read("jax_enable_x64"), reason="x64")


            @pytest.mark.skipif(not jax.config.x64_enabled, reason="needs x64")
            def test_tolerance():
                assert jnp.asarray(1e-12, dtype=jnp.float64) > 0


            def test_int64():
                assert jnp.zeros(2, dtype=jnp.int64).sum() == 0
            """
        ),
        Valid(
            """
            import jax
            import jax.numpy as jnp
            import pytest


            def test_solve(self=None):
                if not jax.config.jax_enable_x64:
                    pytest.skip("needs x64")
                a = jnp.eye(3, dtype=jnp.float64)
                assert jnp.linalg.solve(a, a[0]).dtype == jnp.float64


            def residual(x):
                if not jax.config.jax_enable_x64:
                    return None
                return x.astype(jnp.float64) - 1


            def accumulate(x):
                if jax.config.jax_enable_x64:
                    return jnp.sum(x, dtype=jnp.float64)
                return jnp.sum(x)


            def test_inverse():
                if not jax.config.jax_enable_x64: return
                assert jnp.linalg.inv(jnp.eye(2, dtype=jnp.float64)).dtype == jnp.float64
            """
        ),
        Valid(
            """
            import jax
            import jax.numpy as jnp
            from jax.experimental import enable_x64

            with enable_x64():
                big = jnp.arange(3, dtype=jnp.int64) * 2**40
            """
        ),
        # a helper returning `jax.enable_x64()`; functions reached only from its block
        Valid(
            """
            import jax
            import jax.numpy as jnp

            def _x64():
                return jax.enable_x64()

            def make_table(n):
                return jnp.arange(n, dtype=jnp.int64) * 2**40

            def check_table():
                assert make_table(3)[-1] > 2**31

            def test_table():
                with _x64():
                    check_table()
            """
        ),
        # a @contextmanager around it, `self.enter_context` in setUp, a helper reading the
        # flag, a constant bound to it and a skip decorator bound to a name
        Valid(
            """
            import contextlib
            import jax
            import jax.numpy as jnp
            from absl.testing import absltest

            @contextlib.contextmanager
            def double_precision():
                with jax.enable_x64(True):
                    yield

            def read_flag():
                return jax.config.read("jax_enable_x64")

            DOUBLE = read_flag()
            needs_double = absltest.skipUnless(DOUBLE, "needs 64-bit floats")

            class SolverTest(absltest.TestCase):
                def setUp(self):
                    super().setUp()
                    self.enter_context(jax.enable_x64())

                def test_solve(self):
                    self.assertEqual(jnp.eye(2, dtype=jnp.float64).dtype, jnp.float64)

            @needs_double
            def test_cumsum():
                return jnp.cumsum(jnp.ones(3, dtype=jnp.float64))

            def test_norm():
                with double_precision():
                    return jnp.linalg.norm(jnp.ones(3, dtype=jnp.float64))

            def test_guarded():
                if not read_flag():
                    return
                return jnp.zeros(2, dtype=jnp.complex128)
            """
        ),
        # a pytest fixture switching it on (as a parameter or through usefixtures), JAX's
        # own `with_config(jax_enable_x64=True)`
        Valid(
            """
            import jax
            import jax.numpy as jnp
            import pytest
            from jax._src import test_util as jtu

            @pytest.fixture
            def wide():
                with jax.enable_x64():
                    yield

            def test_sum(wide):
                assert jnp.sum(jnp.ones(2), dtype=jnp.float64) == 2

            @pytest.mark.usefixtures("wide")
            def test_eye():
                assert jnp.eye(2, dtype=jnp.float64)[0, 0] == 1

            @jtu.with_config(jax_enable_x64=True)
            class DtypesTest(jtu.JaxTestCase):
                def test_int64(self):
                    self.assertEqual(jnp.zeros(1, dtype=jnp.int64).dtype, jnp.int64)
            """
        ),
        # a test case base class whose setUp switches x64 on
        Valid(
            """
            import jax
            import jax.numpy as jnp
            from absl.testing import parameterized


            class DoubleTestCase(parameterized.TestCase):
                def setUp(self):
                    super().setUp()
                    self.enter_context(jax.enable_x64(True))


            class SolverTest(DoubleTestCase):
                @parameterized.parameters(2, 3)
                def test_eye(self, n):
                    self.assertEqual(jnp.eye(n, dtype=jnp.float64).dtype, jnp.float64)
            """
        ),
        # module-level helpers used only by a class that runs only with x64; a def
        # under `if X64:`
        Valid(
            """
            import unittest

            import jax
            import jax.numpy as jnp

            X64 = jax.config.read("jax_enable_x64")


            def _reference(n):
                return jnp.linspace(0.0, 1.0, n, dtype=jnp.float64)


            def _check(testcase, x):
                testcase.assertEqual(x.dtype, _reference(2).dtype)


            @unittest.skipUnless(X64, "double precision")
            class GridTest(unittest.TestCase):
                def test_grid(self):
                    _check(self, jnp.ones(2))


            if X64:
                def test_double():
                    return jnp.ones(2, dtype=jnp.float64)
            """
        ),
        # a conditional expression on the flag
        Valid(
            """
            import jax
            import jax.numpy as jnp

            X64 = jax.config.read("jax_enable_x64")


            def table(n):
                return jnp.zeros(n, dtype=jnp.float64 if jax.config.jax_enable_x64 else jnp.float32)


            def table2(n):
                return jnp.zeros(n, dtype=jnp.float32 if not X64 else jnp.float64)


            def table3(n):
                return jnp.arange(n).astype(jnp.int64) if X64 else jnp.arange(n)
            """
        ),
        # NumPy's 64-bit aliases with x64 on
        Valid(
            """
            import jax
            import jax.numpy as jnp

            jax.config.update("jax_enable_x64", True)
            temperature = jnp.zeros((8, 16), dtype=jnp.float_)
            counts = jnp.arange(4, dtype=jnp.int_)
            """
        ),
        # a module dtype constant whose comment says it needs x64 and falls back to
        # float32 otherwise: the author's documented choice
        Valid(
            """
            import jax.numpy as jnp

            # Accumulate in double precision where the jax_enable_x64 flag is set;
            # otherwise this is float32.
            ACC_DTYPE = jnp.float64
            ROOT_DTYPE = jnp.float64  # float32 unless x64 is enabled


            def total(x):
                return jnp.sum(x.astype(ACC_DTYPE)) + jnp.eye(2, dtype=ROOT_DTYPE).sum()
            """
        ),
        # a module whose docstring states x64 as its precondition (its users switch it on)
        Valid(
            '''
            """WENO weights.

            This library assumes that double precision is turned on: set the flag
            jax_enable_x64 to true at the beginning of the code.
            """
            import jax.numpy as jnp


            def upwind_weights():
                return jnp.array([2.0, 1.0], dtype=jnp.float64) / 3.0
            '''
        ),
    ]

    INVALID = [
        # 64-bit NumPy data narrowed without a warning, and an int32 power that wraps
        Invalid(
            """
            import numpy as np
            import jax.numpy as jnp

            for dtype in [jnp.float32, jnp.float64]:
                a = np.ones((2, 2), dtype=dtype)
                print(jnp.where(a > 0, a, 0.0).dtype)

            scales = 1 / 256 ** jnp.arange(1, 5)
            """,
            expected=[(6, 11), (8, 14)],
            messages=[
                "`a` is a float64 NumPy array: `jnp.where` converts it to float32 because jax_enable_x64 is off, without a warning (the 64-bit request is NumPy's). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or make the array float32",
                "`256 ** jnp.arange(1, 5)` reaches 4294967296, beyond int32 (2147483647): with jax_enable_x64 off JAX computes this integer power in int32, where it silently wraps (no warning). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or compute it in floating point",
            ],
        ),
        Invalid(
            """
            import jax.numpy as jnp
            from jax import random
            x = random.uniform(random.key(0), (1000,), dtype=jnp.float64)
            """,
            expected=[(3, 50)],
            messages=[
                "`float64` requested in `jax.random.uniform` is truncated to 32-bit because jax_enable_x64 is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `float32`",
            ],
            fixed="""
            import jax.numpy as jnp
            from jax import random
            x = random.uniform(random.key(0), (1000,), dtype=jnp.float32)
            """,
            unsafe=True,
        ),
        Invalid(
            """
            import jax.numpy as jnp
            import numpy as np
            a = jnp.array([1, 2], dtype='int64')
            b = jnp.ones(3).astype(np.float64)
            c = jnp.float64(1.5)
            d = jnp.zeros(2, jnp.complex128)
            """,
            expected=[(3, 29), (4, 24), (5, 5), (6, 18)],
            messages=[
                "`int64` requested in `jnp.array` is truncated to 32-bit because jax_enable_x64 is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `int32`",
                "`float64` in `.astype()` of a JAX array is truncated to 32-bit because jax_enable_x64 is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `float32`",
                "`float64` requested as a JAX scalar is truncated to 32-bit because jax_enable_x64 is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `float32`",
                "`complex128` requested in `jnp.zeros` is truncated to 32-bit because jax_enable_x64 is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `complex64`",
            ],
            fixed="""
            import jax.numpy as jnp
            import numpy as np
            a = jnp.array([1, 2], dtype='int32')
            b = jnp.ones(3).astype(np.float32)
            c = jnp.float32(1.5)
            d = jnp.zeros(2, jnp.complex64)
            """,
            unsafe=True,
        ),
        # a dtype imported by name: reported without a fix (the fix edits a string or an
        # attribute; a bare `float32` might not be imported)
        Invalid(
            """
            import jax.numpy as jnp
            from jax.numpy import float64
            x = jnp.ones(3, dtype=float64)
            """,
            expected=[(3, 23)],
            messages=[
                "`float64` requested in `jnp.ones` is truncated to 32-bit because jax_enable_x64 is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `float32`",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            import pytest


            @pytest.mark.skipif(jax.config.jax_enable_x64, reason="32-bit only")
            def test_single():
                assert jnp.ones(2, dtype=jnp.float64).dtype == jnp.float32


            def test_solve():
                if jax.default_backend() == "tpu":
                    pytest.skip("no TPU")
                if not jax.config.jax_enable_x64:
                    print("x64 is off")
                return jnp.eye(3, dtype=jnp.float64)


            def accumulate(x):
                if jax.config.jax_enable_x64:
                    return jnp.sum(x, dtype=jnp.float64)
                return jnp.sum(x, dtype=jnp.float64)
            """,
            expected=[(8, 30), (16, 29), (22, 29)],
            messages=[
                "`float64` requested in `jnp.ones` is truncated to 32-bit because jax_enable_x64 is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `float32`",
                "`float64` requested in `jnp.eye` is truncated to 32-bit because jax_enable_x64 is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `float32`",
                "`float64` requested in `jnp.sum` is truncated to 32-bit because jax_enable_x64 is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `float32`",
            ],
        ),
        # `enable_x64(False)` through a helper, a fixture that does not switch x64 on, and a
        # helper called with x64 off: still reported
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            import pytest

            def _x64():
                return jax.enable_x64(False)

            @pytest.fixture
            def wide():
                yield jnp.ones(2)

            def helper():
                return jnp.zeros(2, dtype=jnp.float64)

            def test_off():
                with _x64():
                    return jnp.ones(2, dtype=jnp.float64)

            def test_fixture(wide):
                return jnp.asarray(wide, dtype=jnp.float64) + helper()
            """,
            expected=[(13, 31), (17, 34), (20, 36)],
            messages=[
                "`float64` requested in `jnp.zeros` is truncated to 32-bit because jax_enable_x64 is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `float32`",
                "`float64` requested in `jnp.ones` is truncated to 32-bit because jax_enable_x64 is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `float32`",
                "`float64` requested in `jnp.asarray` is truncated to 32-bit because jax_enable_x64 is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `float32`",
            ],
        ),
        # a conditional expression on something else, or the branch taken with x64 off
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            X64 = jax.config.read("jax_enable_x64")


            def table(n):
                return jnp.arange(n).astype(jnp.int64) if n > 2 else jnp.arange(n)


            def table2(n):
                return jnp.arange(n) if X64 else jnp.arange(n).astype(jnp.int64)
            """,
            expected=[(8, 33), (12, 59)],
            messages=[
                "`int64` in `.astype()` of a JAX array is truncated to 32-bit because jax_enable_x64 is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `int32`",
                "`int64` in `.astype()` of a JAX array is truncated to 32-bit because jax_enable_x64 is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `int32`",
            ],
        ),
        # absl's flagsaver with the flag on (decorator, context) is x64; with it off, not
        Invalid(
            """
            import jax.numpy as jnp
            from absl.testing import absltest, flagsaver


            class PrecisionTest(absltest.TestCase):
                @flagsaver.flagsaver(jax_enable_x64=True)
                def test_cumsum(self):
                    self.assertEqual(jnp.cumsum(jnp.ones(3, dtype=jnp.float64)).dtype, jnp.float64)

                def test_eye(self):
                    with flagsaver.flagsaver(jax_enable_x64=True):
                        self.assertEqual(jnp.eye(2, dtype=jnp.int64).dtype, jnp.int64)

                def test_off(self):
                    with flagsaver.flagsaver(jax_enable_x64=False):
                        self.assertEqual(jnp.eye(2, dtype=jnp.int64).dtype, jnp.int32)
            """,
            expected=[(16, 47)],
            messages=[
                "`int64` requested in `jnp.eye` is truncated to 32-bit because jax_enable_x64 is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `int32`",
            ],
        ),
        # switched off explicitly: a literal False is known
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            def _update_x64(val):
                jax.config.update("jax_enable_x64", False)

            register(callback=_update_x64)
            x = jnp.zeros(3, dtype=jnp.float64)
            """,
            expected=[(8, 24)],
            messages=[
                "`float64` requested in `jnp.zeros` is truncated to 32-bit because jax_enable_x64 is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `float32`",
            ],
        ),
        # NumPy's aliases of the 64-bit types (`jnp.float_` is `jnp.float64`)
        Invalid(
            """
            import jax.numpy as jnp

            temperature = jnp.zeros((8, 16), dtype=jnp.float_)
            counts = jnp.arange(4, dtype=jnp.int_)
            """,
            expected=[(3, 40), (4, 30)],
            messages=[
                "`float_` (`float64`) requested in `jnp.zeros` is truncated to 32-bit because jax_enable_x64 is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `float32`",
                "`int_` (`int64`) requested in `jnp.arange` is truncated to 32-bit because jax_enable_x64 is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `int32`",
            ],
            fixed="""
            import jax.numpy as jnp

            temperature = jnp.zeros((8, 16), dtype=jnp.float32)
            counts = jnp.arange(4, dtype=jnp.int32)
            """,
            unsafe=True,
        ),
        # the twin: a dtype constant whose comment says nothing of x64
        Invalid(
            """
            import jax.numpy as jnp

            # Dtype of the accumulator.
            ACC_DTYPE = jnp.float64


            def total(x):
                return jnp.sum(jnp.asarray(x, dtype=ACC_DTYPE))
            """,
            expected=[(8, 41)],
            messages=[
                "`float64` requested in `jnp.asarray` is truncated to 32-bit because jax_enable_x64 is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `float32`",
            ],
        ),
        # the twin: a module docstring that says nothing of x64
        Invalid(
            '''
            """WENO weights in double precision."""
            import jax.numpy as jnp


            def upwind_weights():
                return jnp.array([2.0, 1.0], dtype=jnp.float64) / 3.0
            ''',
            expected=[(6, 40)],
            messages=[
                "`float64` requested in `jnp.array` is truncated to 32-bit because jax_enable_x64 is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `float32`",
            ],
        ),
    ]

    def _dtype_64(self, expr: cst.BaseExpression, jax_context: bool) -> Optional[str]:
        """The 64-bit dtype name ``expr`` spells, if any."""
        s = string_value(expr)
        if s is not None:
            return s if s in apis.X64_DTYPE_STRINGS else None
        q = self.ctx.qualname(expr)
        if q is None:
            return None
        head, _, attr = q.rpartition(".")
        if attr in _X64_ATTRS and head in ("jax.numpy", "numpy"):
            return attr
        return None

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # the reports with a fix: a dtype check further down the file withdraws their fixes
        self._fixed: list = []
        self._wants_64 = False  # the file checks for a 64-bit dtype
        self._documented: dict[str, bool] = {}  # module constant -> its comment asks for x64
        self._doc_x64: Optional[bool] = None  # the module's docstring speaks of x64
        self._text_x64: Optional[bool] = None  # the file's text mentions x64 anywhere

    def _fix_in_doubt(self) -> bool:
        """May x64 be on where this file runs, for all the file shows?  Then the
        32-bit fix is not offered: a test file (a test asking for float64 tests
        float64), a file that mentions x64 anywhere (a flag read or update with any
        value, ``JAX_ENABLE_X64``, ``enable_x64``, an x64 helper, fixture or marker,
        a comment), or one that checks for a 64-bit dtype."""
        if self._wants_64:
            return True
        if self._text_x64 is None:  # once per file, not once per finding
            self._text_x64 = "x64" in self.ctx.text.lower()
        if self._text_x64:
            return True
        parts = self.ctx.path.replace("\\", "/").split("/")
        name = parts[-1]
        if name == "conftest.py" or name.startswith("test_") or name.endswith("_test.py"):
            return True
        return any(p in ("test", "tests") for p in parts[:-1])

    def visit_Comparison(self, node: cst.Comparison) -> None:
        # `x.dtype == jnp.float64`: the code expects 64-bit values
        if not self._wants_64:
            for e in (node.left, *(c.comparator for c in node.comparisons)):
                if self._dtype_64(e, True):
                    self._wants_64 = True
                    return

    def finish(self) -> None:
        if self._fixed and self._fix_in_doubt():
            for report in self._fixed:
                report.fix = None
        self._fixed = []

    def _documented_fallback(self, node: cst.BaseExpression) -> bool:
        """Is ``node`` a module-level dtype constant whose definition says, in the comment
        on it or just above it, that it needs x64 (``# Enable the jax flag jax_enable_x64
        for this to work, otherwise it will default to float32.`` then ``_ROOT_DTYPE =
        jnp.float64``)?  The 32-bit fallback is the author's documented choice."""
        if not isinstance(node, cst.Name):
            return False
        memo = self._documented
        if node.value not in memo:
            found = False
            for line in self.ctx.module.body:
                if not isinstance(line, cst.SimpleStatementLine):
                    continue
                if not any(isinstance(small, cst.Assign) and any(
                        isinstance(t.target, cst.Name) and t.target.value == node.value for t in small.targets)
                        for small in line.body):
                    continue
                comments = [e.comment.value for e in line.leading_lines if e.comment is not None]
                if line.trailing_whitespace.comment is not None:
                    comments.append(line.trailing_whitespace.comment.value)
                found = any("x64" in c.lower() for c in comments)
                break
            memo[node.value] = found
        return memo[node.value]

    def _documented_module(self) -> bool:
        """Does the module's docstring state x64 as a need (``This library assumes that
        the double precision is turned on ... config.update("jax_enable_x64", True)``;
        not ``x64 is not needed``)?  x64 is then the module's documented precondition,
        as for a dtype constant whose comment asks for it."""
        if self._doc_x64 is None:
            doc = self.ctx.module.get_docstring(clean=False)
            self._doc_x64 = bool(doc) and any(
                _X64_TOPIC.search(s) and _X64_NEED.search(s) and not _NEGATED.search(s)
                for s in _SENTENCE_END.split(doc.lower()))
        return self._doc_x64

    def _report(self, node: cst.BaseExpression, dtype: str, where: str) -> None:
        if self.ctx.x64_enabled or self._documented_fallback(node) or self._documented_module():
            return
        replacement_name = apis.X64_REPLACEMENT.get(dtype)
        the_fix = None
        if replacement_name is not None:
            if isinstance(node, cst.SimpleString):
                quote = node.quote
                new: object = f"{node.prefix}{quote}{replacement_name}{quote}"
            elif isinstance(node, cst.Attribute):
                new = node.with_changes(attr=cst.Name(replacement_name))
            else:
                new = None
            if new is not None:
                the_fix = fix(
                    Applicability.UNSAFE,
                    f"Use `{replacement_name}` explicitly",
                    Replacement(node, new),  # type: ignore[arg-type]
                )
        bits = "32" if "float" in dtype or "f8" in dtype or dtype == "double" else "32"
        canonical = _X64_ALIASES.get(dtype) or (
            apis.X64_DTYPE_STRING_NAMES.get(dtype) if isinstance(node, cst.SimpleString) else None)
        shown = f"{dtype}` (`{canonical}`)" if canonical is not None and canonical != dtype else f"{dtype}`"
        report = self.report(
            node,
            f"`{shown} {where} is truncated to {bits}-bit because jax_enable_x64 is off (JAX only warns). "
            f"Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use "
            f"`{replacement_name or 'a 32-bit dtype'}`",
            the_fix,
        )
        if report is not None and the_fix is not None:
            self._fixed.append(report)

    def _int32_overflow(self, node: cst.CSTNode) -> None:
        """An integer power whose elements the model knows (``256 ** jnp.arange(1, 5)``)
        reaching beyond int32: with x64 off JAX computes it in int32, and it wraps."""
        ctx = self.ctx
        if ctx.x64_enabled or self._documented_module():
            return
        v = ctx.value(node)
        if v.kind != V.ARRAY or v.int_range is None or v.dtype_hint is not None:
            return
        top = max(abs(v.int_range[0]), abs(v.int_range[1]))
        if top <= _INT32_MAX:
            return
        shown = str(top) if top < 10 ** 15 else f"about 10**{len(str(top)) - 1}"
        self.report(
            node,
            f"`{ctx.code(node).strip()}` reaches {shown}, beyond int32 ({_INT32_MAX}): with jax_enable_x64 "
            f"off JAX computes this integer power in int32, where it silently wraps (no warning). Enable x64 "
            f"at start-up (`jax.config.update('jax_enable_x64', True)`), or compute it in floating point",
        )

    def _wide_host_input(self, node: cst.Call, q: str) -> None:
        """A NumPy array the model knows to be 64-bit (built with ``dtype=np.float64``,
        or a loop's dtype that is on one pass) given to a ``jax.numpy`` function: JAX
        converts it to 32 bits with x64 off, and says nothing (the request is NumPy's)."""
        ctx = self.ctx
        if ctx.x64_enabled or self._documented_module():
            return
        if any(a.keyword is not None and a.keyword.value == "dtype" for a in node.args):
            return  # the call says what it wants (a 64-bit `dtype=` is reported as such)
        for a in node.args:
            if a.keyword is not None or a.star:
                continue
            v = ctx.value(a.value)
            if v.kind not in (V.NPARRAY, V.STATIC) or v.dtype_hint is None:
                continue
            wide = _X64_ALIASES.get(v.dtype_hint) or apis.X64_DTYPE_STRING_NAMES.get(v.dtype_hint, v.dtype_hint)
            narrow = apis.X64_REPLACEMENT.get(wide) or apis.X64_REPLACEMENT.get(v.dtype_hint) or "a 32-bit dtype"
            self.report(
                node,
                f"`{ctx.code(a.value).strip()}` is a {wide} NumPy array: "
                f"`{q.replace('jax.numpy.', 'jnp.')}` converts it to {narrow} because jax_enable_x64 is off, "
                f"without a warning (the 64-bit request is NumPy's). Enable x64 at start-up "
                f"(`jax.config.update('jax_enable_x64', True)`), or make the array {narrow}",
            )
            return

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if isinstance(node.operator, cst.Power):
            self._int32_overflow(node)

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        if ctx.x64_enabled:
            return
        func = node.func
        q = ctx.qualname(func)
        if q == "jax.numpy.power":
            self._int32_overflow(node)
        if q is not None and q.startswith("jax.numpy.") and q.rpartition(".")[2] not in _NO_CONVERSION:
            self._wide_host_input(node, q)
        if q is not None:
            if q in ("jax.numpy.finfo", "jax.numpy.iinfo", "numpy.finfo", "numpy.iinfo"):
                if node.args and self._dtype_64(node.args[0].value, True):
                    self._wants_64 = True  # `jnp.finfo(jnp.float64)`: the code reasons about 64-bit values
                return
            head, _, attr = q.rpartition(".")
            if head == "jax.numpy" and attr in _X64_ATTRS:
                self._report(func, attr, "requested as a JAX scalar")
                return
            if not q.startswith(_JAX_DTYPE_PREFIXES):
                return
            for a in node.args:
                if a.keyword is not None and a.keyword.value == "dtype":
                    d = self._dtype_64(a.value, True)
                    if d:
                        self._report(a.value, d, f"requested in `{q.replace('jax.numpy.', 'jnp.')}`")
            pos = _DTYPE_POSITION.get(q)
            if pos is not None:
                args = positional_args(node)
                if pos < len(args):
                    d = self._dtype_64(args[pos].value, True)
                    if d:
                        self._report(args[pos].value, d, f"requested in `{q.replace('jax.numpy.', 'jnp.')}`")
            return
        if isinstance(func, cst.Attribute) and func.attr.value == "astype" and node.args:
            base = ctx.value(func.value)
            if base.kind != V.ARRAY and not base.traced:
                return
            arg = node.args[0].value
            d = self._dtype_64(arg, True)
            if d:
                self._report(arg, d, "in `.astype()` of a JAX array")
