"""Work that grows with the length of a file grows linearly (issue 20, item 7).

No timing: the analysis's own work is counted.  Where control-flow paths meet, the
interpreter joins the values of the names the paths wrote; it used to join every
name bound so far in the unit, so that a unit of n statements with a branch every few
lines did O(n²) joins (and as many dict copies).  bench/scaling.py --files measures
the time and memory."""

from __future__ import annotations

import pytest

from jaxlint.lint.linter import lint_source
from jaxlint.model import values
from jaxlint.model.journal import MISSING, JournalDict
from jaxlint.rules import default_codes
from jaxlint.settings import LintSettings


def _module(n: int) -> str:
    body = "".join(f"v{i} = x + {i}\nif n > {i}:\n    x = v{i} * 2\n" for i in range(n))
    return "import jax.numpy as jnp\n\nx = jnp.zeros(3)\nn = 3\n" + body


def _function(n: int) -> str:
    body = "".join(f"    v{i} = x + {i}\n    for k in range(n):\n        x = v{i} * k\n" for i in range(n))
    return "import jax\n\n\n@jax.jit\ndef f(x, n):\n" + body + "    return x\n"


def _joins(monkeypatch, text: str) -> int:
    calls = 0
    join = values.join

    def counting(a, b):
        nonlocal calls
        calls += 1
        return join(a, b)

    monkeypatch.setattr(values, "join", counting)
    result = lint_source(text, "m.py", LintSettings(select=default_codes()))
    assert result.error is None
    return calls


@pytest.mark.parametrize("shape", [_module, _function])
def test_joins_grow_linearly_with_the_unit(monkeypatch, shape) -> None:
    small = _joins(monkeypatch, shape(200))
    large = _joins(monkeypatch, shape(400))
    assert small > 0
    # one `if`/loop per three lines; each join looks at the one name the body wrote
    # (it was every name bound so far: 4x for twice the statements)
    assert large <= 2.2 * small, (small, large)


def test_journal_undoes_a_frame_and_returns_its_changes() -> None:
    d = JournalDict({"a": 1, "b": 2})
    outer = d.open()
    d["a"] = 10
    d.open()
    d["a"] = 11
    d["c"] = 3
    d.pop("b")
    assert d.value_at(outer, "a") == 1 and d.value_at(outer, "c") is MISSING
    assert d.snapshot_at(outer) == {"a": 1, "b": 2}
    inner = d.close()
    assert inner == {"a": 11, "c": 3, "b": MISSING}
    assert dict(d) == {"a": 10, "b": 2}
    d.apply(inner)  # journaled in the outer frame
    assert dict(d) == {"a": 11, "c": 3}
    assert d.close() == {"a": 11, "c": 3, "b": MISSING}
    assert dict(d) == {"a": 1, "b": 2}
    with pytest.raises(TypeError):
        d.update({"z": 1})
