"""`# jaxlint: ignore[...]` takes rule names as `--select` does; a name that is no rule's
suppresses nothing and is JAX002."""

from tests.project_files import lint_files

PROGRAM = """\
import jax


@jax.jit
def f(x):
    if x > 0:  # jaxlint: ignore[traced-control-flow]
        x = x + 1
    if x > 1:  # jaxlint: ignore[traced-control-flw]
        x = x + 1
    return x
"""


def test_rule_names_in_ignore_directives(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"m.py": PROGRAM}, select="JAX002,JAX201") == [
        ("JAX002", "m.py", 8, 34,
         "`traced-control-flw` in `# jaxlint: ignore[...]` is not a jaxlint rule name, so it "
         "suppresses nothing: did you mean `traced-control-flow`?"),
        ("JAX201", "m.py", 8, 8,
         "Python `if` on a traced value: it depends on the traced argument `x` of `f` (decorated "
         "with @jax.jit); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`; "
         "or, if `x` is a Python value, mark it static (static_argnums=0)"),
    ]
