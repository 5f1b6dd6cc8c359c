"""The stateM variation matrix (issue 22): state across calls and modules.

Rows are the ways JAX code carries state from one call to the next (a `global` update
in traced code, a value a cached trace read and that is changed between calls, a key
used again each iteration, a compiled function made again, a static argument, timing
of asynchronous work, a functional update thrown away, x64); columns are where the
pieces sit (one function, a helper of the module, another module, a setter function,
`setattr`, a loop).  Each cell is an INVALID program and its VALID twin (the fix): the
program gives exactly the findings listed, the twin none.  The cells are in
``matrix_stateM_cells.py``; the JAX405 rows were run with JAX 0.10.2: the second call
prints the first call's numbers after the change (the twins print the new ones).

A cell the model does not find yet is listed in ``HOLES`` and marked ``xfail(strict)``:
it fails the day the model finds it, so the table is kept up to date.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import matrix_stateM_cells as C
from project_files import lint_files

SELECT = "JAX1,JAX2,JAX3,JAX4,JAX5"

_STALE_ATTR = ("`config.TEMPERATURE` is set again in main.py between two calls of `softmax_t`: under jit the "
               "attribute is read once, at trace time, and baked into the compiled function, so the later calls "
               "still use the old value until a retrace. Pass it as an argument")

# cell -> (row, column, expected findings of the INVALID program: (code, path, row, column, message))
CELLS: dict[str, tuple[str, str, list[tuple]]] = {
    "GW_SAME": ("global-write", "same function", [
        ("JAX402", "m.py", 9, 5, "`calls` is global: `calls += 1` inside `step` runs when jax.jit traces `step`, "
         "not on every call: calls served from the cache skip it. Return the new value (or carry it through the "
         "loop) instead")]),
    "GW_NONLOCAL": ("global-write", "nonlocal, factory", [
        ("JAX402", "m.py", 10, 9, "`calls` is nonlocal: `calls += 1` inside `step` runs when jax.jit traces `step`, "
         "not on every call: calls served from the cache skip it. Return the new value (or carry it through the "
         "loop) instead")]),
    "GW_HELPER": ("global-write", "helper, same module", [
        ("JAX402", "m.py", 8, 5, "`calls` is global: `calls += 1` inside `bump` (called from `step`) runs when jax.jit "
         "traces `step`, not on every call: calls served from the cache skip it. Return the new value (or carry "
         "it through the loop) instead")]),
    "GW_OTHER": ("global-write", "helper, another module (relative import)", [
        ("JAX402", "pkg/counters.py", 6, 5, "`calls` is global: `calls += 1` inside `bump` (called from `step`) runs when jax.jit "
         "traces `step`, not on every call: calls served from the cache skip it. Return the new value (or carry "
         "it through the loop) instead")]),
    "GW_ITEM_OTHER": ("global-write", "dict item, helper of another module, eqx.filter_jit", [
        ("JAX402", "pkg/stats.py", 5, 5, "`STATS` is global: `STATS[\"calls\"] += 1` inside `record` (called from `step`) runs when eqx.filter_jit "
         "traces `step`, not on every call: calls served from the cache skip it. Return the new value (or carry "
         "it through the loop) instead")]),
    "SG_SAME": ("stale-global", "same module, rebound at top level", [
        ("JAX405", "m.py", 8, 16, "`SCALE` is a module global that is reassigned (line 13) after `scaled` is "
         "defined: under jit its value is read once, at trace time, and baked into the compiled function, so later "
         "assignments are ignored until a retrace. Pass it as an argument")]),
    "SG_SETTER_SAME": ("stale-global", "`global` setter, same module", [
        ("JAX405", "m.py", 13, 16, "`SCALE` is a module global that `set_scale` reassigns (`global SCALE`) when it "
         "is called (line 18) between two calls of `scaled`: under jit its value is read once, at trace time, and "
         "baked into the compiled function, so the later calls still use the old value until a retrace. Pass it "
         "as an argument")]),
    "SG_SETTER_OTHER": ("stale-global", "`global` setter in another module, called through the module", [
        ("JAX405", "pkg/sampling.py", 9, 36, _STALE_ATTR)]),
    "SG_SETTER_FROM": ("stale-global", "`global` setter in another module, imported by name", [
        ("JAX405", "pkg/sampling.py", 9, 36, _STALE_ATTR)]),
    "SG_SETTER_LIB": ("stale-global", "setter and reader in a library module, driver in another", [
        ("JAX405", "pkg/sampling.py", 13, 36, "`TEMPERATURE` is a module global that main.py sets again between "
         "two calls of `softmax_t`: under jit its value is read once, at trace time, and baked into the compiled "
         "function, so the later calls still use the old value until a retrace. Pass it as an argument")]),
    "SG_ATTR_OTHER": ("stale-global", "`config.X = v` in another module", [
        ("JAX405", "pkg/sampling.py", 9, 36, _STALE_ATTR)]),
    "SG_SETATTR_OTHER": ("stale-global", "`setattr(config, 'X', v)` in another module", [
        ("JAX405", "pkg/sampling.py", 9, 36, _STALE_ATTR)]),
    "SG_OBJ_ATTR": ("stale-global", "attribute of a captured object", [
        ("JAX405", "m.py", 13, 16, "`c.mul` is set again (line 18) after `f` has been called: under jit the "
         "attribute is read once, at trace time, and baked into the compiled function, so the later calls still use "
         "the old value until a retrace. Pass it as an argument")]),
    "SG_LIST": ("stale-global", "captured list appended to, same module", [
        ("JAX405", "m.py", 8, 20, "`WEIGHTS` is a module global that changes in place (`WEIGHTS.append(...)`) "
         "(line 13) between two calls of `total`: under jit its value is read once, at trace time, and baked into "
         "the compiled function, so the later calls still use the old value until a retrace. Pass it as an "
         "argument")]),
    "SG_LIST_OTHER": ("stale-global", "captured list appended to, another module", [
        ("JAX405", "pkg/model.py", 8, 20, "`WEIGHTS` (`pkg.config.WEIGHTS`) is changed in main.py between two "
         "calls of `total`: under jit its value is read once, at trace time, and baked into the compiled "
         "function, so the later calls still use the old value until a retrace. Pass it as an argument")]),
    "KEY_IN_LOOP": ("key-reuse", "key made again inside the loop", [
        ("JAX301", "m.py", 5, 13, '`key` is made from the same seed (`jax.random.PRNGKey(0)`, line 4) in every iteration of the loop and `random.normal` draws with the same arguments, so every iteration gets the same random numbers. Create the key once before the loop and split it each iteration, or use `jax.random.fold_in(key, i)`')]),
    "KEY_JIT_STEP": ("key-reuse", "same key to a jitted step each iteration", [
        ("JAX301", "m.py", 12, 14, '`key` is consumed by `random.normal` via `step` inside a loop but never replaced, so every iteration draws the same random numbers. Split a new key each iteration (`key, sub = jax.random.split(key)`) or use `jax.random.fold_in(key, i)`')]),
    "KEY_JIT_STEP_OTHER": ("key-reuse", "same key to a jitted step of another module", [
        ("JAX301", "train.py", 8, 14, '`key` is consumed by `random.normal` via `step` inside a loop but never replaced, so every iteration draws the same random numbers. Split a new key each iteration (`key, sub = jax.random.split(key)`) or use `jax.random.fold_in(key, i)`')]),
    "KEY_CLOSURE": ("key-reuse", "key captured by a function called twice", [
        ("JAX301", "m.py", 7, 12, '`key` comes from the enclosing scope and is consumed by `random.normal` in `noise`, which is called 2 times (first on line 10): every call draws the same random numbers. Give `noise` a key parameter and pass a fresh key to each call')]),
    "JIT_LAMBDA_LOOP": ("recompile", "jit of a lambda in a loop", [
        ("JAX501", "m.py", 6, 9, '`jit` of a `lambda` compiles again on every iteration of the loop: jit caches per function object and this one is new each time. Create the jitted function once (outside the loop or at module level) and pass the varying values as arguments')]),
    "JIT_PARTIAL_LOOP": ("recompile", "jit of a partial in a loop", [
        ("JAX501", "m.py", 13, 9, '`jit` of a `functools.partial(...)` object compiles again on every iteration of the loop: jit caches per function object and this one is new each time. Create the jitted function once (outside the loop or at module level) and pass the varying values as arguments')]),
    "JIT_FACTORY_SAME": ("recompile", "factory of a fresh jit, same module, called in a loop", [
        ("JAX501", "m.py", 13, 14, "`make_update(...)` returns a new jitted function on every call, with a "
         "compile cache of its own: called in the loop, it traces and compiles again on every iteration, for the "
         "same arguments. Make the jitted function once, before the loop")]),
    "JIT_FACTORY_OTHER": ("recompile", "factory of a fresh jit, another module, called in a loop", [
        ("JAX501", "train.py", 7, 14, "`steps.make_update(...)` returns a new jitted function on every call, with a "
         "compile cache of its own: called in the loop, it traces and compiles again on every iteration, for the "
         "same arguments. Make the jitted function once, before the loop")]),
    "JIT_FACTORY_DIRECT": ("recompile", "factory returning jax.jit(inner), called at once in a while loop", [
        ("JAX501", "m.py", 13, 13, "`make_update(...)` returns a new jitted function on every call, with a "
         "compile cache of its own: called in the loop, it traces and compiles again on every iteration, for the "
         "same arguments. Make the jitted function once, before the loop")]),
    "STATIC_COUNTER": ("recompile", "loop counter as a static argument", [
        ("JAX504", "m.py", 14, 17, 'the loop counter `i` is passed as the static argument `i` (position 1): every new value traces and compiles the function again. Pass it as a traced argument instead (remove it from static_argnums/static_argnames)')]),
    "UNHASHABLE_SAME": ("static-arg-unhashable", "list given at the call, same module", [
        ("JAX207", "m.py", 12, 34, "A list is passed to `forward` in a static position (parameter `sizes`; static_argnames='sizes'): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass a tuple")]),
    "UNHASHABLE_OTHER": ("static-arg-unhashable", "list given at the call, jit in another module", [
        ("JAX207", "main.py", 5, 34, "A list is passed to `forward` in a static position (parameter `sizes`; static_argnames='sizes'): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass a tuple")]),
    "TIMING_SAME": ("timing", "same module", [
        ("JAX505", "m.py", 14, 7, '`time.perf_counter()` is read while the JAX computation started on line 13 may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`')]),
    "TIMING_OTHER": ("timing", "jitted function of another module", [
        ("JAX505", "bench.py", 10, 7, '`time.perf_counter()` is read while the JAX computation started on line 9 may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`')]),
    "DISCARD_SAME": ("discarded-update", "in a jitted function", [
        ("JAX102", "m.py", 7, 5, '`x.at[...].set(...)` returns a new array and leaves `x` unchanged; the result is discarded, so this line does nothing. Assign it: `x = x.at[...].set(...)`')]),
    "DISCARD_LOOP": ("discarded-update", "in a loop", [
        ("JAX102", "m.py", 5, 5, '`x.at[...].add(...)` returns a new array and leaves `x` unchanged; the result is discarded, so this line does nothing. Assign it: `x = x.at[...].add(...)`')]),
    "X64_OTHER_ENTRY": ("x64", "x64 enabled by another entry point only", []),
}

# the cells the model misses (an empty expectation above): what it would need
HOLES = {
    "X64_OTHER_ENTRY": "x64 per entry point: one script's `jax_enable_x64` silences JAX110 project-wide",
}


@pytest.mark.parametrize("cell", [
    pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=HOLES[name])) if name in HOLES else name
    for name in CELLS])
def test_matrix_cell(cell: str, tmp_path: Path, monkeypatch) -> None:
    row, column, spec = CELLS[cell]
    bad = lint_files(tmp_path, monkeypatch, getattr(C, cell), select=SELECT)
    assert bad == spec and bad, f"{row} / {column}: {bad}"


@pytest.mark.parametrize("cell", list(CELLS))
def test_matrix_twin_silent(cell: str, tmp_path: Path, monkeypatch) -> None:
    assert lint_files(tmp_path, monkeypatch, getattr(C, cell + "_OK"), select=SELECT) == []


def test_every_cell_has_a_twin_and_a_row() -> None:
    cells = {n for n in dir(C) if n.isupper() and not n.startswith("_") and not n.endswith("_OK")}
    assert cells == set(CELLS)
    assert {n[:-3] for n in dir(C) if n.endswith("_OK") and not n.startswith("_")} == cells
    assert set(HOLES) <= set(CELLS)
