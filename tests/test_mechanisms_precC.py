"""Mechanisms of the precC round: false positives a reviewer found on fresh projects (rev23).

1. JAX403: ``self.kernel_size = _resolve_kernel_size(self.kernel_size, self.shape)`` in a
   traced method (kernex): the attribute is only handed to a function of the project (or a
   method) given no traced value. What that function returns, and whether a second call
   would change it again, is unknown, so the "update of the same attribute" clause stays
   silent. An update the model sees (an operator, a builtin, ``operator.add``) keeps
   reporting. Checked with jax 0.10.2 on CPU: ``Window.apply`` gives ``size == (2, 2)`` and
   the same result jitted or not, while ``self.calls = operator.add(self.calls, 1)`` ends at
   1 after two jitted calls and at 2 after two eager ones.
"""

from tests.project_files import lint_files

MSG403 = ("`self.{attr}` is assigned inside traced method `{fn}`: the update runs once, at trace time: "
          "compiled calls never repeat it. Pass the state in as an argument and return the new state")

WINDOW = """\
import jax
import jax.numpy as jnp


def resolve(size, shape):
    if isinstance(size, int):
        return (size,) * len(shape)
    return tuple(size)


class Window:
    def __init__(self, size):
        self.size = size

    def apply(self, x):
        self.shape = x.shape
        self.size = resolve(self.size, self.shape)
        return x[tuple(slice(0, s) for s in self.size)].sum()


w = Window(2)
print(jax.jit(w.apply)(jnp.ones((4, 4))))
"""

SHAPE_UTIL = """\
def resolve_strides(strides, shape):
    if isinstance(strides, int):
        return (strides,) * len(shape)
    return strides
"""

STRIDED = """\
import jax
import jax.numpy as jnp

from shape_util import resolve_strides


class Strided:
    def __init__(self, strides):
        self.strides = strides

    def _clip(self, strides, ndim):
        return tuple(strides)[:ndim]

    def run(self, x):
        self.strides = resolve_strides(self.strides, x.shape)
        self.strides = self._clip(self.strides, x.ndim)
        return x[:: self.strides[0]]


s = Strided(2)
print(jax.jit(s.run)(jnp.ones(8)))
"""

COUNTERS = """\
import operator

import jax
import jax.numpy as jnp


class Counter:
    def __init__(self):
        self.calls = 0
        self.widths = ()

    def step(self, x):
        self.calls = operator.add(self.calls, 1)
        self.widths = tuple(self.widths) + (x.shape[0],)
        return x * 2


c = Counter()
print(jax.jit(c.step)(jnp.ones(3)))
"""


def test_self_attribute_normalised_by_a_helper_of_the_project_is_silent(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {
        "window.py": WINDOW, "shape_util.py": SHAPE_UTIL, "strided.py": STRIDED,
    }, select="JAX403")
    assert found == []


def test_self_attribute_updated_where_the_model_sees_it_still_reports(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"counters.py": COUNTERS}, select="JAX403")
    assert found == [
        ("JAX403", "counters.py", 13, 9, MSG403.format(attr="calls", fn="step")),
        ("JAX403", "counters.py", 14, 9, MSG403.format(attr="widths", fn="step")),
    ]
