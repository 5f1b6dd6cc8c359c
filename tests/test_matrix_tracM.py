"""The traced-context matrix (tracM, session 20): every way a function becomes traced
(rows: jit in each spelling, vmap/pmap, the autodiff transforms under jit,
checkpoint/remat, the loop and branch primitives' bodies, custom_vjp/jvp and their
rules, shard_map, pjit, equinox's filter transforms, flax linen modules under a jitted
apply and `nn.jit`, haiku's `transform(...).apply` under jit, an optax
`GradientTransformation`'s update in a jitted step, a project's own jit decorators and
factories, jits stored in a dict or an attribute, haliax's `named_jit`, `nnx.jit`)
crossed with where the sharp bit sits (columns: the function itself; a helper in the same
module; in another module by absolute import, by relative import, re-exported by the
package's `__init__.py`; a method reached through `self`; a base class's method in
another module; through `functools.partial`; through a lambda).  The cells are built by
tests/matrix_tracM_cells.py; each INVALID cell is one finding (exact code, path, line,
column; its message names the rule's error and the function the sink is in), each VALID
twin (the fix) is silent.

Figures (cells found of 447; VALID twins flagged): on main before tracM 281/447, 0
flagged; with tracM's mechanisms 442/447, 0 flagged.  The cells the model still misses are
listed in KNOWN_MISSES and asserted silent (the hole map: a mechanism that fills one must
move it out of the list): a same-module helper of a module that `nn.jit` lifts; `print` in
another module's helper of a shard_map body jitted by its caller (JAX401 takes a reason
naming shard_map for an eager shard_map, which runs the body with concrete values).

Checked with JAX 0.10.2 (`python -m tests.matrix_tracM_cells DIR --jax`, and `--valid`;
flax, equinox, dm-haiku and optax installed; haliax is not, so its 18 cells are not run):
each of the other 429 INVALID cells raises TracerBoolConversionError or
ConcretizationTypeError, prints a tracer, or counts one `self.count += 1` for two calls;
each VALID twin runs.
"""

import json
import os

import pytest
from click.testing import CliRunner

from jaxlint.cli import cli
from tests.matrix_tracM_cells import SINKS, cells, write

KNOWN_MISSES = frozenset({
    'shard_map__module_abs',
    'shard_map__base_method',
    'flax_nn_jit__helper',
    'flax_nn_jit__partial',
    'flax_nn_jit__lambda',
})

CELLS = cells()
PREFIX = {
    "if": "Python `if` on a traced value: it depends on the traced argument `v` of ",
    "assert": "Python `assert` on a traced value: it depends on the traced argument `v` of ",
    "float": "`float()` needs a concrete value, but its argument is traced: it depends on the traced argument `v` of ",
    "print": "`print` in ",
    "mutate": "`self.count` is assigned inside traced method ",
}
# the full message of a cell of each new mechanism
EXACT = {
    "user_decorator_wraps_other_module__itself": (
        "`float()` needs a concrete value, but its argument is traced: it depends on the traced argument `v` of "
        "`step` (wrapped by jax.jit); this raises ConcretizationTypeError. Instead, keep it as an array "
        "(`x.astype(jnp.float32)`), or return it and convert outside the traced function; or, if `v` is a Python "
        "value, mark it static (static_argnums=0)"),
    "user_decorator__module_rel": (
        "Python `if` on a traced value: it depends on the traced argument `v` of `check` (called from `step` "
        "(user_decorator__module_rel/main.py:16), which is wrapped by jax.jit); this raises "
        "TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
    "jit_decorator__partial": (
        "Python `assert` on a traced value: it depends on the traced argument `v` of `check` (called from traced "
        "`step`); this raises TracerBoolConversionError. Use `jax.experimental.checkify.check`, or assert on "
        "shapes/dtypes only"),
    "eqx_filter_vmap__itself": (
        "`float()` needs a concrete value, but its argument is traced: it depends on the traced argument `v` of "
        "`step` (wrapped by eqx.filter_vmap); this raises ConcretizationTypeError. Instead, keep it as an array "
        "(`x.astype(jnp.float32)`), or return it and convert outside the traced function"),
}


def _lint(root) -> dict[str, list[tuple]]:
    old = os.getcwd()
    os.chdir(root)
    try:
        result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--output-format", "json",
                                          "--select", "JAX201,JAX202,JAX401,JAX403"])
    finally:
        os.chdir(old)
    assert result.exit_code in (0, 1), result.output
    out: dict[str, list[tuple]] = {}
    for f in json.loads(result.stdout):
        out.setdefault(f["filename"].split("/")[0], []).append(
            (f["code"], f["filename"], f["location"]["row"], f["location"]["column"], f["message"]))
    return out


@pytest.fixture(scope="module")
def linted(tmp_path_factory):
    base = tmp_path_factory.mktemp("matrix_tracM")
    write(base / "invalid", "invalid")
    write(base / "valid", "valid")
    return _lint(base / "invalid"), _lint(base / "valid")


def test_matrix_shape():
    names = [f"{c.row}__{c.col}" for c in CELLS]
    assert len(names) == len(set(names)) == 447
    assert KNOWN_MISSES <= set(names)
    assert {c.sink for c in CELLS} == set(SINKS)


@pytest.mark.parametrize("cell", CELLS, ids=lambda c: f"{c.row}__{c.col}")
def test_cell(linted, cell):
    invalid, valid = linted
    name = f"{cell.row}__{cell.col}"
    assert valid.get(name, []) == []  # the fix is silent
    found = invalid.get(name, [])
    if name in KNOWN_MISSES:
        assert found == []
        return
    assert [f[:4] for f in found] == [cell.expected]
    message = found[0][4]
    assert message.startswith(PREFIX[cell.sink])
    fn = cell.sink_fn if cell.sink_fn != "step" else None
    if fn is not None:
        assert f"`{fn}`" in message
    if name in EXACT:
        assert message == EXACT[name]
