"""Keys that reach a draw through classes and branches (branch classE).

Three facts the model lacked, each written several ways:

* a method a class leaves to its subclasses (``@abstractmethod``, a body of a docstring,
  ``pass``, ``...`` or ``raise NotImplementedError``, or no such method at all), where
  every project subclass that defines it draws from the same key parameter: a call of it
  through the base (``self.sample(key)`` in the base, ``s.sample(key)`` of ``s: Base``,
  ``gen(key)`` of ``gen: Base``) draws from the key whichever subclass runs (recall case
  1602, exponax's multichannel generator; project/facts.py ``@sub:Cls.method``).  One
  override that does not draw, a base whose own method does something, or a library
  base that may define it, leaves it unknown: silent;
* the element of a list annotated ``list[Gen]`` / ``List[Gen]`` / ``Sequence[Gen]``
  (a parameter, or a field of the class) holds a ``Gen``: ``[g(key) for g in gens]``
  hands every element the same key;
* ``jax.lax.cond`` / ``jax.lax.switch`` consume every key a branch consumes: a key a
  lambda branch captures, or an operand a branch function draws from (JAX's own
  checker, ``jax_debug_key_reuse``, raises ``KeyReuseError: In cond, argument 1 is
  already consumed.`` for a draw from the key before or after, whichever branch runs;
  checked on jax 0.10.2).  One ``cond`` whose two branches draw from one key stays
  silent: only one of them runs.
"""

from __future__ import annotations

from project_files import lint_files

_REUSE = ("`{k}` was already consumed by `{by}` on line {line}: both calls get the same random bits. "
          "Split it first, e.g. `k1, k2 = jax.random.split({k})`, and give each call its own key")
_LOOP = ("`{k}` is consumed by `{by}` via `{via}` inside a comprehension but never replaced, so every "
         "iteration draws the same random numbers. Split a new key each iteration (`key, sub = "
         "jax.random.split({k})`) or use `jax.random.fold_in({k}, i)`")


def _reuse(path, row, col, k, by, line):
    return ("JAX301", path, row, col, _REUSE.format(k=k, by=by, line=line))


def _loop(path, row, col, k, by, via):
    return ("JAX301", path, row, col, _LOOP.format(k=k, by=by, via=via))


# -- a method left to subclasses ------------------------------------------------------

BASE = """\
import abc


class Sampler(abc.ABC):
    @abc.abstractmethod
    def sample(self, key, n):
        \"\"\"Draw n samples.\"\"\"

    def pair(self, key, n):
        a = self.sample(key, n)
        b = self.sample(key, n)
        return a, b


class Generator:
    def describe(self):
        return "noise"


def draw_twice(gen: Generator, key):
    return gen(key), gen(key)
"""

IMPL = """\
import jax

from pkg.base import Generator, Sampler


class Normal(Sampler):
    def sample(self, key, n):
        return jax.random.normal(key, (n,))


class Uniform(Sampler):
    def sample(self, key, n):
        raise_if = n < 0
        return jax.random.uniform(key, (n,)) if not raise_if else None


class Noise(Generator):
    def __call__(self, key):
        return jax.random.normal(key, (3,))
"""

USER = """\
from typing import List

import jax.numpy as jnp

from pkg.base import Generator, Sampler


def both(s: Sampler, key):
    x = s.sample(key, 3)
    y = s.sample(key, 3)
    return x, y


class Multi:
    gens: List[Generator]

    def __call__(self, *, key):
        return jnp.stack([g(key) for g in self.gens])


def each(gens: list[Generator], key):
    return [g(key) for g in gens]
"""

OVERRIDES = {"pkg/__init__.py": "", "pkg/base.py": BASE, "pkg/impl.py": IMPL, "user.py": USER}


def test_a_method_every_subclass_draws_from_consumes_the_key(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, OVERRIDES, select="JAX301") == [
        _reuse("pkg/base.py", 11, 13, "key", "self.sample()", 10),
        _reuse("pkg/base.py", 21, 22, "key", "gen()", 21),
        _reuse("user.py", 10, 9, "key", "s.sample()", 9),
        _loop("user.py", 18, 27, "key", "random.normal", "g"),
        _loop("user.py", 22, 13, "key", "random.normal", "g"),
    ]


def test_an_override_that_draws_nothing_leaves_it_unknown(tmp_path, monkeypatch):
    # one subclass's `sample` and one `__call__` draw nothing: which runs is unknown
    files = dict(OVERRIDES)
    files["pkg/fixed.py"] = """\
import jax.numpy as jnp

from pkg.base import Generator, Sampler


class Fixed(Sampler):
    def sample(self, key, n):
        return jnp.zeros((n,))


class Zeros(Generator):
    def __call__(self, key):
        return jnp.zeros(3)
"""
    assert lint_files(tmp_path, monkeypatch, files, select="JAX301") == []


def test_a_base_that_does_something_or_a_library_base_stays_silent(tmp_path, monkeypatch):
    files = {
        "pkg/__init__.py": "",
        # the base's own `draw` runs for its instances (it draws nothing); the library
        # base (optax's) may define `__call__` itself
        "pkg/base.py": """\
import jax
import optax


class Concrete:
    def draw(self, key):
        return jax.numpy.zeros(3)

    def twice(self, key):
        return self.draw(key), self.draw(key)


class Gen(optax.GradientTransformation):
    pass


def draw_twice(gen: Gen, key):
    return gen(key), gen(key)


def split_first(gen: Concrete, key):
    k1, k2 = jax.random.split(key)
    return gen.draw(k1), gen.draw(k2)
""",
        "pkg/impl.py": """\
import jax

from pkg.base import Concrete, Gen


class G(Gen):
    def __call__(self, key):
        return jax.random.normal(key, (3,))


class C(Concrete):
    def draw(self, key):
        return jax.random.normal(key, (3,))
""",
    }
    assert lint_files(tmp_path, monkeypatch, files, select="JAX301") == []


def test_split_keys_through_the_base_stay_silent(tmp_path, monkeypatch):
    files = dict(OVERRIDES)
    files["pkg/base.py"] = BASE.replace(
        "        a = self.sample(key, n)\n        b = self.sample(key, n)\n",
        "        k1, k2 = jax.random.split(key)\n        a = self.sample(k1, n)\n        b = self.sample(k2, n)\n",
    ).replace("import abc\n", "import abc\n\nimport jax\n").replace(
        "    return gen(key), gen(key)\n", "    k1, k2 = jax.random.split(key)\n    return gen(k1), gen(k2)\n")
    files["user.py"] = """\
import jax

from pkg.base import Generator, Sampler


def both(s: Sampler, key):
    k1, k2 = jax.random.split(key)
    return s.sample(k1, 3), s.sample(k2, 3)


def each(gens: list[Generator], key):
    return [g(k) for g, k in zip(gens, jax.random.split(key, len(gens)))]
"""
    assert lint_files(tmp_path, monkeypatch, files, select="JAX301") == []


# -- lax.cond / lax.switch branches ---------------------------------------------------

BRANCHES = """\
import jax


def carry(rng):
    return jax.random.normal(rng, (8,))


class Task:
    def initial_carry(self, rng):
        return jax.random.normal(rng, (8,))

    def reset(self, terminated, rng):
        a = jax.lax.cond(terminated, lambda: jax.random.normal(rng, (8,)), lambda: jax.numpy.zeros(8))
        b = jax.lax.cond(terminated, lambda: self.initial_carry(rng), lambda: jax.numpy.zeros(8))
        return a, b


def operand(t, rng):
    x = jax.lax.cond(t, lambda k: jax.random.normal(k, (8,)), lambda k: jax.numpy.zeros(8), rng)
    y = jax.lax.cond(t, carry, lambda k: jax.numpy.zeros(8), rng)
    return x, y


def after_a_draw(t, rng):
    x = jax.random.normal(rng, (8,))
    y = jax.lax.cond(t, lambda: carry(rng), lambda: jax.numpy.zeros(8))
    return x, y


def switched(i, rng):
    x = jax.lax.switch(i, [carry, lambda k: jax.numpy.zeros(8)], rng)
    return x, carry(rng)
"""

BRANCHES_OK = """\
import jax


def carry(rng):
    return jax.random.normal(rng, (8,))


def one_cond(t, rng):
    return jax.lax.cond(t, lambda: jax.random.normal(rng, (8,)), lambda: jax.random.uniform(rng, (8,)))


def split_first(t, rng):
    a, b = jax.random.split(rng)
    x = jax.lax.cond(t, lambda: jax.random.normal(a, (8,)), lambda: jax.numpy.zeros(8))
    y = jax.lax.cond(t, lambda: carry(b), lambda: jax.numpy.zeros(8))
    return x, y


def folds(t, rng):
    k = jax.lax.cond(t, lambda: jax.random.fold_in(rng, 1), lambda: jax.random.fold_in(rng, 2))
    return jax.random.normal(rng, (8,)), k


def switch_split(i, rng):
    a, b = jax.random.split(rng)
    x = jax.lax.switch(i, [carry, lambda k: jax.numpy.zeros(8)], a)
    return x, carry(b)
"""


def test_a_key_a_branch_consumes_is_consumed_by_the_cond(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"task.py": BRANCHES}, select="JAX301") == [
        _reuse("task.py", 14, 13, "rng", "random.normal` in a branch of `jax.lax.cond", 13),
        _reuse("task.py", 20, 9, "rng", "random.normal` in a branch of `jax.lax.cond", 19),
        _reuse("task.py", 26, 9, "rng", "random.normal", 25),
        _reuse("task.py", 32, 15, "rng", "carry()` in a branch of `jax.lax.switch", 31),
    ]


def test_one_cond_split_keys_and_derived_keys_stay_silent(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"task.py": BRANCHES_OK}, select="JAX301") == []


# -- a parameter the function splits, its name reused by a comprehension --------------

# recall case 1210 (ksim's get_initial_obs_carry): `rng` is split outside the comprehension;
# the comprehension's own `rng` is another name (its scope)
SPLIT_HELPER = """\
import jax


def obs_carry(rng, observations):
    rngs = jax.random.split(rng, len(observations))
    return {o: jax.random.normal(rng, ()) for o, rng in zip(observations, rngs)}
"""

SPLIT_CALLERS = {
    "pkg/__init__.py": "",
    "pkg/obs.py": SPLIT_HELPER,
    "train.py": """\
import jax

from pkg.obs import obs_carry


def reset(rng, observations):
    a = obs_carry(rng=rng, observations=observations)
    b = jax.random.normal(rng, (8,))
    return a, b


def noise(key, xs):
    keys = jax.random.split(key, len(xs))
    return [x + jax.random.normal(key, ()) for x, key in zip(xs, keys)]


def use(key, xs):
    ys = noise(key, xs)
    return ys, jax.random.uniform(key, ())
""",
}

# the comprehension alone draws (from its own names): the parameter is handed on unused
SPLIT_CALLERS_OK = {
    "pkg/__init__.py": "",
    "pkg/obs.py": """\
import jax


def obs_carry(rng, rngs):
    return [jax.random.normal(rng, ()) for rng in rngs]
""",
    "train.py": """\
import jax

from pkg.obs import obs_carry


def reset(rng):
    a = obs_carry(rng, jax.random.split(jax.random.fold_in(rng, 1), 3))
    b = jax.random.normal(rng, (8,))
    return a, b
""",
}


def test_a_split_beside_a_comprehension_of_the_same_name_consumes_the_parameter(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, SPLIT_CALLERS, select="JAX301") == [
        ("JAX301", "train.py", 8, 9,
         "`rng` was already split by `obs_carry()` on line 7; a split key must not be used again. Use the keys "
         "`obs_carry()` returned (e.g. `rng, sub = jax.random.split(rng)` and pass `sub`)"),
        ("JAX301", "train.py", 19, 16,
         "`key` was already split by `noise()` on line 18; a split key must not be used again. Use the keys "
         "`noise()` returned (e.g. `key, sub = jax.random.split(key)` and pass `sub`)"),
    ]


def test_a_comprehension_drawing_from_its_own_name_leaves_the_parameter(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, SPLIT_CALLERS_OK, select="JAX301") == []
