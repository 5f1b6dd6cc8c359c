"""Batch 11's misses by mechanism (issue 22, branch statC).

JAX207 across modules: a jitted function declares parameters static, and a function of
another module hands it, unchanged, a parameter that every call of that function fills
with a JAX array, a NumPy array or a PRNG key.  The call raises ValueError
("Non-hashable static arguments are not supported", observed with JAX 0.10.2); it is
reported at the call and, in the module that declares the jit, at the declaration.

Each INVALID program's error was observed with JAX 0.10.2; the VALID twins run and stay
silent."""

from __future__ import annotations

from pathlib import Path

from project_files import lint_files


def _lint(root: Path, monkeypatch, files: dict[str, str], select: str) -> list[tuple]:
    return lint_files(root, monkeypatch, files, select=select, dedent=True)


_RAISES = ("static arguments must be hashable, so the call raises ValueError: Non-hashable static "
           "arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a "
           "hashable value (tuple, int, str)")


def _at_call(what: str, caller: str, param: str, callee: str, jit_param: str, label: str) -> str:
    return (f"{what} (every call of `{caller}` passes one for `{param}`) is passed to `{callee}` in a "
            f"static position (parameter `{jit_param}`; {label}): {_RAISES}")


# 1. Case 1118 (https://github.com/rlouf/mcx/issues/58): `is_u_turn` is jitted with
# static_argnums=(0, 2) in one module; the integrator of another module passes on the
# arrays its caller (main.py) gives it.  The fix (commit c015da9 of rlouf/mcx, 'Bump jax
# version (#61)', dropped the arrays from static_argnums) stays silent.

MCX_TURN = """\
from functools import partial

import jax
from jax import numpy as np


@partial(jax.jit, static_argnums=(0, 2))
def is_u_turn(initial_position, position, inverse_mass_matrix, momentum):
    v = np.multiply(inverse_mass_matrix, momentum)
    projection = np.multiply(position - initial_position, v)
    return np.where(projection < 0, True, False)
"""

MCX_INTEGRATORS = """\
from jax import numpy as np

from mcx_lite.inference.warmup.num_steps_adaptation import is_u_turn


def steps_before_u_turn(step, initial_position, initial_momentum, inverse_mass_matrix, step_size, max_steps):
    position, momentum = initial_position, initial_momentum
    for n in range(1, max_steps + 1):
        position, momentum = step(position, momentum, step_size)
        if is_u_turn(initial_position, position, inverse_mass_matrix, momentum).any():
            return n
    return max_steps
"""

MCX_MAIN = """\
from jax import numpy as np

from mcx_lite.inference.integrators import steps_before_u_turn


def step(position, momentum, step_size):
    return position + step_size * momentum, momentum


if __name__ == "__main__":
    inverse_mass_matrix = np.ones(2)
    n = steps_before_u_turn(step, np.array([1.0, 0.5]), np.array([0.3, -0.2]), inverse_mass_matrix, 0.1, 100)
"""


def _mcx(turn: str) -> dict[str, str]:
    return {
        "mcx_lite/__init__.py": "",
        "mcx_lite/inference/__init__.py": "",
        "mcx_lite/inference/warmup/__init__.py": "",
        "mcx_lite/inference/warmup/num_steps_adaptation.py": turn,
        "mcx_lite/inference/integrators.py": MCX_INTEGRATORS,
        "main.py": MCX_MAIN,
    }


def test_arrays_passed_on_to_static_parameters_of_another_modules_jit(tmp_path, monkeypatch):
    label = "static_argnums=(0, 2)"
    assert _lint(tmp_path, monkeypatch, _mcx(MCX_TURN), "JAX207") == [
        ("JAX207", "mcx_lite/inference/integrators.py", 10, 22, _at_call(
            "A JAX array", "steps_before_u_turn", "initial_position", "is_u_turn", "initial_position", label)),
        ("JAX207", "mcx_lite/inference/integrators.py", 10, 50, _at_call(
            "A JAX array", "steps_before_u_turn", "inverse_mass_matrix", "is_u_turn", "inverse_mass_matrix",
            label)),
        ("JAX207", "mcx_lite/inference/warmup/num_steps_adaptation.py", 7, 2,
         "`is_u_turn` declares `initial_position`, `inverse_mass_matrix` static (static_argnums=(0, 2)), but "
         "other modules pass a JAX array for `initial_position` (a call in mcx_lite/inference/integrators.py); "
         "a JAX array for `inverse_mass_matrix` (a call in mcx_lite/inference/integrators.py): static "
         "arguments must be hashable, so those calls raise ValueError: Non-hashable static arguments are not "
         "supported. Instead, leave them out of the static arguments (traced), or pass a hashable value "
         "(tuple, int, str)"),
    ]


def test_arrays_traced_after_the_fix_stay_silent(tmp_path, monkeypatch):
    fixed = MCX_TURN.replace("@partial(jax.jit, static_argnums=(0, 2))", "@jax.jit")
    assert _lint(tmp_path, monkeypatch, _mcx(fixed), "JAX207") == []


# 2. The same mechanism written another way: the jit is reached through the imported
# module (`grids.resample(...)`), declared with static_argnames, and the helper's callers
# give it a NumPy array (np.linspace) and a PRNG key; the helper is called from two
# places, both with the same kinds.

GRIDS = """\
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("knots", "seed"))
def resample(x, knots, seed):
    return jnp.interp(x, jnp.asarray(knots), jnp.sin(jnp.asarray(knots)))
"""

FIT = """\
import jax
import numpy as np

from pkg import grids


def fit(x, knots, seed):
    return grids.resample(x, knots=knots, seed=seed)


def run(x):
    return fit(x, np.linspace(0.0, 1.0, 5), jax.random.PRNGKey(0))


def run_twice(x):
    return fit(x, np.linspace(0.0, 2.0, 9), jax.random.PRNGKey(1))
"""


def test_numpy_array_and_key_passed_on_by_keyword_through_a_module(tmp_path, monkeypatch):
    files = {"pkg/__init__.py": "", "pkg/grids.py": GRIDS, "pkg/fit.py": FIT}
    label = "static_argnames=('knots', 'seed')"
    assert _lint(tmp_path, monkeypatch, files, "JAX207") == [
        ("JAX207", "pkg/fit.py", 8, 36, _at_call("A NumPy array", "fit", "knots", "grids.resample", "knots",
                                                 label)),
        ("JAX207", "pkg/fit.py", 8, 48, _at_call("A PRNG key", "fit", "seed", "grids.resample",
                                                 "seed", label)),
        ("JAX207", "pkg/grids.py", 7, 2,
         "`resample` declares `knots`, `seed` static (static_argnames=('knots', 'seed')), but other modules "
         "pass a NumPy array for `knots` (a call in pkg/fit.py); a PRNG key for `seed` (a call "
         "in pkg/fit.py): static arguments must be hashable, so those calls raise ValueError: Non-hashable "
         "static arguments are not supported. Instead, leave them out of the static arguments (traced), or "
         "pass a hashable value (tuple, int, str)"),
    ]


def test_hashable_values_or_mixed_callers_stay_silent(tmp_path, monkeypatch):
    # the callers pass a tuple and an int (hashable), or one caller an array and the other a
    # tuple (what the parameter holds is not known: nothing is reported)
    hashable = FIT.replace("np.linspace(0.0, 1.0, 5), jax.random.PRNGKey(0)", "(0.0, 0.5, 1.0), 0") \
        .replace("np.linspace(0.0, 2.0, 9), jax.random.PRNGKey(1)", "(0.0, 2.0), 1")
    mixed = FIT.replace("np.linspace(0.0, 2.0, 9), jax.random.PRNGKey(1)", "(0.0, 2.0), 1")
    for fit in (hashable, mixed):
        files = {"pkg/__init__.py": "", "pkg/grids.py": GRIDS, "pkg/fit.py": fit}
        assert _lint(tmp_path, monkeypatch, files, "JAX207") == []


# 3. JAX403, case 1128 (https://github.com/google/flax/issues/4539): an NNX module that
# draws from an RNG stream it holds (`nnx.Dropout(0.5, rngs=nnx.Rngs(0))`), called inside
# a function jitted with plain `jax.jit`: the count the draw advances in the trace is not
# written back, so every call draws the same mask (flax 0.12.8: `same mask: True`);
# `nnx.jit` (the reporter's working code) carries it out and stays silent.

DROPOUT = """\
import jax
from flax import nnx
from jax import numpy as jnp


@jax.jit
def forward(model, x):
    return model(x)


if __name__ == "__main__":
    module = nnx.Dropout(0.5, rngs=nnx.Rngs(0))
    first = forward(module, jnp.ones((3, 5)))
    second = forward(module, jnp.ones((3, 5)))
"""


def _lost(fn: str, how: str, given: str, param: str, stmt: str) -> str:
    return (f"`{fn}` is jitted with `{how}`, which does not carry changes to the flax NNX objects it is "
            f"given out of the trace: every call passes {given}, for `{param}`, and `{stmt}` (line "
            f"{{line}}) draws from its RNG stream inside the trace only: the stream's count is not advanced "
            f"after the call, so every call draws the same random numbers. Use `nnx.jit` (or split the "
            f"objects with `nnx.split` and return the new state)")


def test_dropout_module_called_under_plain_jit(tmp_path, monkeypatch):
    msg = _lost("forward", "@jax.jit", "`module`, an `nnx.Dropout` given `rngs=` (`nnx.Dropout(0.5, "
                "rngs=nnx.Rngs(0))`)", "model", "return model(x)").replace("{line}", "8")
    assert _lint(tmp_path, monkeypatch, {"main.py": DROPOUT}, "JAX403") == [("JAX403", "main.py", 6, 1, msg)]


# 4. The same mechanism written two other ways (flax 0.12.8, both print `True`): a module
# class of the file whose `__init__` builds a dropout, through `jax.jit(apply)`; and an
# `nnx.Rngs` handed to a jitted sampler that draws `rngs.noise()`.

BLOCK = """\
import jax
import jax.numpy as jnp
from flax import nnx


class Block(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(4, 4, rngs=rngs)
        self.dropout = nnx.Dropout(0.3, rngs=rngs)

    def __call__(self, x):
        return self.dropout(self.linear(x))


def apply(block, x):
    return block(x)


apply_jit = jax.jit(apply)
blk = Block(nnx.Rngs(1))
a = apply_jit(blk, jnp.ones((2, 4)))
b = apply_jit(blk, jnp.ones((2, 4)))
"""

NOISE = """\
import jax
import jax.numpy as jnp
from flax import nnx


@jax.jit
def noisy(rngs, x):
    return x + jax.random.normal(rngs.noise(), x.shape)


rngs = nnx.Rngs(noise=0)
a = noisy(rngs, jnp.zeros(3))
b = noisy(rngs, jnp.zeros(3))
"""


def test_module_holding_a_dropout_and_rngs_under_plain_jit(tmp_path, monkeypatch):
    block = _lost("apply", "jax.jit", "`blk`, an instance of `Block`, whose `dropout` is an `nnx.Dropout` given "
                  "`rngs=` (`Block(nnx.Rngs(1))`)", "block", "return block(x)").replace("{line}", "16")
    noise = _lost("noisy", "@jax.jit", "`rngs`, an `nnx.Rngs` (`nnx.Rngs(noise=0)`)", "rngs",
                  "return x + jax.random.normal(rngs.noise(), x.shape)").replace("{line}", "8")
    assert _lint(tmp_path, monkeypatch, {"block.py": BLOCK, "noise.py": NOISE}, "JAX403") == [
        ("JAX403", "block.py", 19, 13, block),
        ("JAX403", "noise.py", 6, 1, noise),
    ]


def test_rng_state_carried_or_not_drawn_stays_silent(tmp_path, monkeypatch):
    files = {
        # nnx.jit carries the advanced count out (the reporter's working code)
        "nnx_jit.py": DROPOUT.replace("@jax.jit", "@nnx.jit"),
        # a deterministic dropout, or a module switched to eval mode, draws nothing
        "deterministic.py": DROPOUT.replace("nnx.Dropout(0.5, rngs=", "nnx.Dropout(0.5, deterministic=True, rngs="),
        "eval_mode.py": BLOCK.replace("blk = Block(nnx.Rngs(1))\n", "blk = Block(nnx.Rngs(1))\nblk.eval()\n"),
        # the sampler returns the Rngs and the caller rebinds it: the advanced stream comes
        # back (flax 0.12.8: two different draws)
        "returned.py": NOISE.replace("return x + jax.random.normal(rngs.noise(), x.shape)",
                                     "return x + jax.random.normal(rngs.noise(), x.shape), rngs")
        .replace("a = noisy(", "a, rngs = noisy(").replace("b = noisy(", "b, rngs = noisy("),
    }
    assert _lint(tmp_path, monkeypatch, files, "JAX403") == []


# 5. JAX401 through a helper's closure (the loop of case 1126,
# https://github.com/google/jaxopt/pull/503: jaxopt's `_while_loop_lax(cond_fun, ...)`
# hands `lax.while_loop` a function of its own that calls `cond_fun`): the function a call
# of the helper passes for that parameter (a bound method `self._cond_fun`, a function of
# another module) runs traced, so its `print` prints a tracer once (JAX 0.10.2:
# `JitTracer(float32[])`, one line for several iterations).  `jax.debug.print` stays
# silent, and so does the helper's eager variant (a Python loop).

LOOP = """\
import jax
import jax.numpy as jnp


def _while_loop_lax(cond_fun, body_fun, init_val, maxiter):
    def _cond_fun(_val):
        it, val = _val
        return jnp.logical_and(cond_fun(val), it <= maxiter - 1)

    def _body_fun(_val):
        it, val = _val
        return it + 1, body_fun(val)

    return jax.lax.while_loop(_cond_fun, _body_fun, (0, init_val))[1]


def _while_loop_python(cond_fun, body_fun, init_val, maxiter):
    val = init_val
    for _ in range(maxiter):
        if not cond_fun(val):
            break
        val = body_fun(val)
    return val
"""

SOLVER = """\
import jax.numpy as jnp

from loop import _while_loop_lax


class Solver:
    def __init__(self, tol):
        self.tol = tol

    def _cond_fun(self, error):
        print(self.__class__.__name__ + " error:", error)
        return error > self.tol

    def _body_fun(self, error):
        return error / 2

    def run(self, error):
        return _while_loop_lax(cond_fun=self._cond_fun, body_fun=self._body_fun, init_val=error, maxiter=4)


Solver(1e-3).run(jnp.asarray(1.0))
"""

SCAN = """\
import jax
import jax.numpy as jnp


def accumulate(step_fn, xs):
    def body(carry, x):
        new = step_fn(carry, x)
        return new, new

    return jax.lax.scan(body, 0.0, xs)


def noisy_step(carry, x):
    print("carry", carry)
    return carry + x


total, trace = accumulate(noisy_step, jnp.arange(3.0))
"""

def _print(fn: str) -> str:
    return (f"`print` in traced `{fn}` runs once, at trace time, and prints a tracer (e.g. "
            f"`JitTracer(float32[])`), not the values; later calls print nothing. Use "
            f"`jax.debug.print(\"{{}}\", x)` to print runtime values")


def _print_in_body(fn: str, loop: str) -> str:
    return (f"`print` in `{fn}`, a body passed to {loop}, runs only while JAX traces it (once for "
            f"all its iterations) and prints a tracer (e.g. `JitTracer(float32[])`), not each "
            f"iteration's values. Use `jax.debug.print(\"{{}}\", x)` to print runtime values")


def test_print_in_a_function_a_helpers_traced_closure_calls(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"loop.py": LOOP, "solver.py": SOLVER, "scan.py": SCAN}, "JAX401") == [
        ("JAX401", "scan.py", 14, 5, _print_in_body("noisy_step", "lax.scan")),
        ("JAX401", "solver.py", 11, 9, _print_in_body("_cond_fun", "lax.while_loop")),
    ]


def test_debug_print_or_eager_helper_stays_silent(tmp_path, monkeypatch):
    files = {
        "loop.py": LOOP,
        "solver.py": SOLVER.replace('print(self.__class__.__name__ + " error:", error)',
                                    'jax.debug.print("error: {}", error)').replace(
            "import jax.numpy as jnp\n", "import jax\nimport jax.numpy as jnp\n", 1),
        # the Python loop calls the functions eagerly: print shows the values
        "eager.py": SOLVER.replace("_while_loop_lax", "_while_loop_python"),
    }
    assert _lint(tmp_path, monkeypatch, files, "JAX401") == []


# 6. Precision (fresh set 15's t5x decoding_test.py, read at this change): the helper's
# closure runs the function it is given under `lax.while_loop`, but a call of the helper
# written inside `with jax.disable_jit():` runs the loop in Python over concrete values;
# recording them in a list is fine there (JAX 0.10.2: the recorded states are arrays).

DECODING = """\
import jax
import jax.numpy as jnp


def greedy(tokens_to_logits, init, steps):
    def body(state):
        i, tok = state
        logits = tokens_to_logits(tok)
        return i + 1, jnp.argmax(logits)

    return jax.lax.while_loop(lambda s: s[0] < steps, body, (0, init))[1]
"""

RECORD = """\
import jax
import jax.numpy as jnp

from decoding import greedy

recorded = []


def tokens_to_logits(tok):
    recorded.append(tok)
    return jnp.arange(4.0) * tok


with jax.disable_jit():
    out = greedy(tokens_to_logits, jnp.asarray(1), 3)
"""


def test_helper_called_under_disable_jit_runs_eagerly(tmp_path, monkeypatch):
    traced = RECORD.replace("with jax.disable_jit():\n    out =", "out =")
    assert _lint(tmp_path, monkeypatch, {"decoding.py": DECODING, "record.py": RECORD}, "JAX404") == []
    found = _lint(tmp_path, monkeypatch, {"decoding.py": DECODING, "record.py": traced}, "JAX404")
    assert [f[:4] for f in found] == [("JAX404", "record.py", 10, 5)]
