"""A loop primitive's carry started from a Python number holds a 0-d tracer.

``lax.fori_loop(0, 5, body, 3.)``, ``lax.scan(step, (0., 2), xs)``,
``lax.while_loop(cond_fn, body_fn, (0, 0.0))``: JAX converts each Python number of the
initial carry to a 0-d array, so the body receives a tracer there and ``bool(c)`` /
``if n:`` raise TracerBoolConversionError (checked with jax 0.10.2 on CPU: the three
INVALID loops below raise it, the VALID one runs).  An empty tuple item stays a Python
tuple (no leaves): ``if xs:`` is its ordinary truthiness.  (Unseen batch 17, case 1725:
``def body(_, c): return bool(c)`` given to ``fori_loop`` with ``3.``.)
"""

from tests.project_files import lint_files

LOOPS = 'import jax\nimport jax.numpy as jnp\n\n\ndef body(_, c):\n    return bool(c)\n\n\ndef step(carry, x):\n    total, n = carry\n    if n:\n        n = n - 1\n    return (total + x, n), x\n\n\ndef cond_fn(state):\n    i, acc = state\n    return i < 3\n\n\ndef body_fn(state):\n    i, acc = state\n    if not acc:\n        acc = acc + 1.0\n    return i + 1, acc\n\n\ndef keep(i, carry):\n    xs, m = carry\n    if xs:\n        return carry\n    return xs, m + i\n\n\nif __name__ == "__main__":\n    for run in (lambda: jax.lax.fori_loop(0, 5, body, 3.),\n                lambda: jax.lax.scan(step, (0., 2), jnp.arange(3.)),\n                lambda: jax.lax.while_loop(cond_fn, body_fn, (0, 0.0)),\n                lambda: jax.lax.fori_loop(0, 5, keep, ((), 2))):\n        try:\n            run()\n            print("ran")\n        except Exception as e:\n            print(type(e).__name__)\n'

IF_MSG = (
    "Python `if` on a traced value: it depends on the traced argument `{p}` of `{fn}` ({how}); this raises "
    "TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"
)


def test_number_carry_is_a_tracer_in_every_loop_primitive(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"loops.py": LOOPS}, select="JAX201") == [
        ("JAX201", "loops.py", 6, 12,
         "`bool()` of a traced value: it depends on the traced argument `c` of `body` (a body passed to "
         "lax.fori_loop); this raises TracerBoolConversionError. Keep it as an array and use `jnp.where` / "
         "`jax.lax.cond`"),
        ("JAX201", "loops.py", 11, 8, IF_MSG.format(p="carry", fn="step", how="a body passed to lax.scan")),
        ("JAX201", "loops.py", 23, 12, IF_MSG.format(p="state", fn="body_fn", how="a body passed to lax.while_loop")),
    ]


def test_carry_of_containers_and_unknowns_stays_silent(tmp_path, monkeypatch):
    # a tuple or None carry item keeps Python truthiness; a carry from a call the model
    # cannot place is unknown
    assert lint_files(tmp_path, monkeypatch, {"valid.py": """\
import jax

from helpers import start


def keep(i, carry):
    xs, m, opt = carry
    if xs:
        return carry
    if opt is None:
        return xs, m + i, opt
    return carry


def other(i, c):
    if c:
        return c
    return c


jax.lax.fori_loop(0, 5, keep, ((), 2, None))
jax.lax.fori_loop(0, 5, other, start())
"""}, select="JAX201") == []
