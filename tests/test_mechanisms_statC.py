"""Static arguments across modules (issue 22, branch statC).

1. A jitted method of a class of another module of the project, called on an instance
   the calling scope binds once to ``Cls(...)`` (``Cls`` imported by name, or reached
   through its module): jit receives the instance as argument 0 (``self``), so a method
   that declares ``self`` static hashes it at the call, and an instance that cannot be
   hashed (an equinox Module given a list field, a plain ``@dataclass``) raises there
   (JAX207).  Observed with JAX 0.10.2: ``ValueError: Non-hashable static arguments are
   not supported`` at ``model.energy(jnp.ones(3))`` and at ``shape.area(2.0)``; a tuple
   field, or ``@dataclass(frozen=True)`` over a tuple, runs.  Case 444 (equinox issue 11,
   the reconstruction split into modules).
"""

from __future__ import annotations

from pathlib import Path

from project_files import lint_files


def _lint(root: Path, monkeypatch, files: dict[str, str]) -> list[tuple]:
    return lint_files(root, monkeypatch, files, select="JAX207", dedent=True)


NETWORK = """\
from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp


class Network(eqx.Module):
    layers: list
    scale: float

    def __init__(self, layers, scale):
        self.layers = layers
        self.scale = scale

    @partial(jax.jit, static_argnums=0)
    def energy(self, x):
        return -jnp.sum(x) * self.scale * len(self.layers)
"""

NETWORK_MAIN = """\
import jax.numpy as jnp

from hop.network import Network

if __name__ == "__main__":
    layers = {layers}
    model = Network(layers, 0.5)
    print(model.energy(jnp.ones(3)))
"""

SHAPES = """\
import dataclasses
from functools import partial

import jax


@dataclasses.dataclass{args}
class Shape:
    sizes: tuple

    @partial(jax.jit, static_argnames=("self",))
    def area(self, x):
        return x * sum(self.sizes)
"""

SHAPES_MAIN = """\
import geo.shapes as gs


def run():
    shape = gs.Shape((1, 2))
    return shape.area(2.0)
"""

_TAIL = ("static arguments must be hashable, so the call raises ValueError: Non-hashable static "
         "arguments are not supported. Instead, ")


def test_an_equinox_module_of_another_module_with_a_list_field_as_static_self(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"hop/__init__.py": "", "hop/network.py": NETWORK,
                                        "main.py": NETWORK_MAIN.format(layers="[(32,), (500,)]")})
    assert got == [("JAX207", "main.py", 8, 11,
                    "An instance of the equinox Module `Network` whose field `layers` is a list (a Module "
                    "hashes its fields) is passed to `model.energy` in a static position (parameter `self`; "
                    "static_argnums=0): " + _TAIL + "pass it as a traced (non-static) argument, or pass a "
                    "hashable value (tuple, int, str)")]


def test_the_same_module_given_a_tuple_stays_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"hop/__init__.py": "", "hop/network.py": NETWORK,
                                         "main.py": NETWORK_MAIN.format(layers="((32,), (500,))")}) == []


def test_a_plain_dataclass_of_a_module_imported_whole_as_static_self(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"geo/__init__.py": "", "geo/shapes.py": SHAPES.format(args=""),
                                        "main.py": SHAPES_MAIN})
    assert got == [("JAX207", "main.py", 6, 12,
                    "An instance of the dataclass `gs.Shape` (`@dataclass` with eq=True and neither "
                    "frozen=True nor unsafe_hash=True sets `__hash__` to None) is passed to `shape.area` "
                    "in a static position (parameter `self`; static_argnames='self'): " + _TAIL +
                    "declare the dataclass `frozen=True` (it then hashes by its fields, which must be "
                    "hashable themselves)")]


def test_a_frozen_dataclass_as_static_self_stays_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"geo/__init__.py": "",
                                         "geo/shapes.py": SHAPES.format(args="(frozen=True)"),
                                         "main.py": SHAPES_MAIN}) == []
