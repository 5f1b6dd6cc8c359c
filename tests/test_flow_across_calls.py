"""Values followed through calls and across modules (issue 22, branch recallG): a PRNG key
handed back by a helper (an identity, or a tuple after a draw) is the same key under the
caller's new name; a helper of another module that splits a key leaves its parent spent;
the static argument, the captured global and the recompilation cases of the same round
follow below.  Every INVALID tree was run with JAX 0.10.2 (the same numbers drawn twice,
the stale value, the error observed); every VALID twin runs and draws different numbers.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from jaxlint.cli import cli


def _lint(root: Path, monkeypatch, *args: str) -> list[tuple[str, str, int, int, str]]:
    monkeypatch.chdir(root)
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--output-format", "json", *args])
    assert result.exit_code in (0, 1), result.output
    return [
        (f["code"], f["filename"], f["location"]["row"], f["location"]["column"], f["message"])
        for f in json.loads(result.stdout)
    ]


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


# ---------------------------------------------------------------- keys through helpers
RNG = """\
import jax


def split_pair(key):
    k1, k2 = jax.random.split(key)
    return k1, k2


def identity_key(key):
    return key


def init_weights(key, n):
    w = jax.random.normal(key, (n,))
    return w, key


def fresh_key(key):
    key, sub = jax.random.split(key)
    return key
"""

TRAIN = """\
import jax

from pkg.rng import split_pair, identity_key, init_weights
from pkg import rng


def run(seed):
    key = jax.random.PRNGKey(seed)
    a, b = split_pair(key)
    noise = jax.random.normal(key, (3,))
    return a, b, noise


def run2(seed):
    key = jax.random.PRNGKey(seed)
    w, key = init_weights(key, 3)
    noise = jax.random.normal(key, (3,))
    return w, noise


def run3(key):
    k = identity_key(key)
    a = jax.random.normal(k, (3,))
    b = jax.random.normal(key, (3,))
    return a, b


def run4(key):
    k = rng.identity_key(key)
    a = jax.random.uniform(key, (3,))
    return a, jax.random.uniform(k, (3,))
"""

TRAIN_VALID = """\
import jax

from pkg.rng import split_pair, identity_key, init_weights, fresh_key
from pkg import rng


def run(seed):
    key = jax.random.PRNGKey(seed)
    key, sub = jax.random.split(key)
    a, b = split_pair(sub)
    noise = jax.random.normal(key, (3,))
    return a, b, noise


def run2(seed):
    key = jax.random.PRNGKey(seed)
    k_init, key = jax.random.split(key)
    w, _ = init_weights(k_init, 3)
    return w, jax.random.normal(key, (3,))


def run3(key):
    k = fresh_key(key)
    a = jax.random.normal(k, (3,))
    k2 = rng.identity_key(jax.random.fold_in(key, 1))
    return a, jax.random.normal(k2, (3,))
"""


def test_keys_handed_back_or_split_by_a_helper_of_another_module(tmp_path, monkeypatch):
    _tree(tmp_path, {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/rng.py": RNG, "pkg/train.py": TRAIN})
    path = str(Path("pkg/train.py"))
    assert _lint(tmp_path, monkeypatch, "--select", "JAX301") == [
        ("JAX301", path, 10, 13,
         "`key` was already split by `split_pair()` on line 9; a split key must not be used again. Use the keys "
         "`split_pair()` returned (e.g. `key, sub = jax.random.split(key)` and pass `sub`)"),
        ("JAX301", path, 17, 13,
         "`key` was already consumed by `init_weights()` on line 16: both calls get the same random bits. Split "
         "it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key"),
        ("JAX301", path, 24, 9,
         "`key` is the same key as `k`, which was already consumed by `random.normal` on line 23: both calls get "
         "the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its "
         "own key"),
        ("JAX301", path, 31, 15,
         "`k` is the same key as `key`, which was already consumed by `random.uniform` on line 30: both calls get "
         "the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(k)`, and give each call its "
         "own key"),
    ]


def test_keys_through_helpers_of_another_module_used_once(tmp_path, monkeypatch):
    _tree(tmp_path, {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/rng.py": RNG, "pkg/train.py": TRAIN_VALID})
    assert _lint(tmp_path, monkeypatch, "--select", "JAX301") == []


# ---------------------------------------------------------------- globals changed in place elsewhere
CONFIG = """\
SCALES = {"a": 1.0}
LAYERS = [1, 2]
"""

MODEL = """\
import jax

from pkg import config
from pkg.config import SCALES


@jax.jit
def apply(x):
    return x * SCALES["a"]


@jax.jit
def apply2(x):
    return x * len(config.LAYERS)
"""

STALE = ("`{name}` {what} between two calls of `{fn}`: under jit {it} read once, at trace time, and baked "
         "into the compiled function, so the later calls still use the old value until a retrace. Pass it as an "
         "argument")


def test_a_global_container_another_module_changes_in_place(tmp_path, monkeypatch):
    _tree(tmp_path, {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/config.py": CONFIG, "pkg/model.py": MODEL,
                     "pkg/main.py": """\
import jax.numpy as jnp

from pkg import config
from pkg.config import LAYERS
from pkg.model import apply, apply2


def main():
    x = jnp.ones(3)
    y = apply(x)
    config.SCALES["a"] = 2.0
    z = apply2(x)
    LAYERS.append(3)
    return y, z, apply(x), apply2(x)
"""})
    path = str(Path("pkg/model.py"))
    where = str(Path("pkg/main.py"))
    assert _lint(tmp_path, monkeypatch, "--select", "JAX405") == [
        ("JAX405", path, 9, 16, STALE.format(name="SCALES", what=f"(`pkg.config.SCALES`) is changed in {where}",
                                             fn="apply", it="its value is")),
        ("JAX405", path, 14, 20, STALE.format(name="config.LAYERS", what=f"is set again in {where}", fn="apply2",
                                              it="the attribute is")),
    ]


def test_a_global_container_changed_before_the_calls_or_shadowed(tmp_path, monkeypatch):
    _tree(tmp_path, {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/config.py": CONFIG, "pkg/model.py": MODEL,
                     "pkg/main.py": """\
import jax.numpy as jnp

from pkg import config
from pkg.model import apply, apply2


def main():
    x = jnp.ones(3)
    config.SCALES["a"] = 2.0
    config.LAYERS.append(3)
    return apply(x), apply(x), apply2(x), apply2(x)


def other():
    SCALES = {"a": 0.0}
    y = apply(jnp.ones(3))
    SCALES["a"] = 1.0
    return y, apply(jnp.ones(3)), SCALES
"""})
    assert _lint(tmp_path, monkeypatch, "--select", "JAX405") == []


# ---------------------------------------------------------------- static arguments built elsewhere
SHAPES = """\
def make_dims(n):
    return [n, n]


def make_opts(**kw):
    return {k: v for k, v in kw.items()}


def make_pair(n):
    if n > 1:
        return (n, n)
    return [n, n]
"""

STEPS = """\
from functools import partial

import jax
import jax.numpy as jnp

from pkg import shapes
from pkg.shapes import make_dims, make_pair


@partial(jax.jit, static_argnums=(1,))
def pad_to(x, dims):
    return jnp.zeros(dims) + x


@partial(jax.jit, static_argnames=("opts",))
def scaled(x, opts):
    return x * len(opts)


def run(x):
    y = pad_to(x, make_dims(3))
    return scaled(y, opts=shapes.make_opts(a=1))


def run_ok(x):
    y = pad_to(x, tuple(make_dims(3)))
    return scaled(y, opts=tuple(shapes.make_opts(a=1))), pad_to(x, make_pair(2))
"""

UNHASHABLE = ("{what} is passed to `{fn}` in a static position ({where}): static arguments must be hashable, so the "
              "call raises ValueError: Non-hashable static arguments are not supported. Instead, {fix}")


def _static_findings(path: str) -> list:
    return [
        ("JAX207", path, 21, 19, UNHASHABLE.format(
            what="A list (what `make_dims` returns)", fn="pad_to", where="parameter `dims`; static_argnums=1",
            fix="pass a tuple")),
        ("JAX207", path, 22, 27, UNHASHABLE.format(
            what="A dict (what `shapes.make_opts` returns)", fn="scaled",
            where="parameter `opts`; static_argnames='opts'",
            fix="pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)")),
    ]


def test_a_static_argument_a_helper_of_a_plain_module_builds(tmp_path, monkeypatch):
    # the helpers' module never names JAX: the prefilter skips it, its summary tells them
    _tree(tmp_path, {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/shapes.py": SHAPES, "pkg/steps.py": STEPS})
    assert _lint(tmp_path, monkeypatch, "--select", "JAX207") == _static_findings(str(Path("pkg/steps.py")))


def test_a_static_argument_a_helper_of_a_jax_module_builds(tmp_path, monkeypatch):
    _tree(tmp_path, {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/shapes.py": "import jax\n\n\n" + SHAPES,
                     "pkg/steps.py": STEPS})
    assert _lint(tmp_path, monkeypatch, "--select", "JAX207") == _static_findings(str(Path("pkg/steps.py")))


# ---------------------------------------------------------------- recompilation: run again from elsewhere
JITS = """\
from functools import partial

import jax


def f(x, n):
    return x * n


def update(x, n):
    return jax.jit(partial(f, n=n))(x)


def predict(x, scale):
    fn = jax.jit(lambda y: y * scale)
    return fn(x)
"""

FRESH = ("`jit` of {what} compiles again on every call of `{fn}`: jit caches per function object and `{fn}` builds "
         "a new one each time. Build it once: at module level, in a builder cached with `functools.cache`, or jit "
         "`{fn}` itself; and pass the varying values as arguments")


def test_a_fresh_jit_in_a_function_another_module_calls_in_a_loop(tmp_path, monkeypatch):
    _tree(tmp_path, {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/steps.py": JITS, "pkg/main.py": """\
import jax.numpy as jnp

from pkg import steps
from pkg.steps import update


def train(xs):
    for x in xs:
        x = update(x, 2)
    return [steps.predict(x, 3.0) for x in xs]
"""})
    path = str(Path("pkg/steps.py"))
    assert _lint(tmp_path, monkeypatch, "--select", "JAX501") == [
        ("JAX501", path, 11, 12, FRESH.format(what="a `functools.partial(...)` object", fn="update")),
        ("JAX501", path, 15, 10, FRESH.format(what="a `lambda`", fn="predict")),
    ]


def test_a_fresh_jit_in_a_function_another_module_calls_once(tmp_path, monkeypatch):
    # a one-shot use with the caller's values: a compile per value is needed anyway
    _tree(tmp_path, {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/steps.py": JITS, "pkg/main.py": """\
import jax.numpy as jnp

from pkg import steps
from pkg.steps import update


def main(x):
    x = update(x, 2)
    return steps.predict(x, 3.0)
"""})
    assert _lint(tmp_path, monkeypatch, "--select", "JAX501") == []


# ---------------------------------------------------------------- functions handed to a transforming helper
LOSSES = """\
import jax.numpy as jnp


def hinge(w, x):
    margin = jnp.sum(w * x)
    if margin > 0:
        return margin
    return 0.0


def body(carry, x):
    if x > 0:
        carry = carry + x
    return carry, x


def smooth(w, x):
    return jnp.maximum(jnp.sum(w * x), 0.0) ** 2
"""

FIT = """\
import jax


def fit(loss_fn, w, x):
    g = jax.jit(jax.grad(loss_fn))
    return w - 0.1 * g(w, x)


def run_scan(step_fn, xs):
    return jax.lax.scan(step_fn, 0.0, xs)


def evaluate(loss_fn, w, x):
    return loss_fn(w, x)
"""


def test_a_function_passed_to_a_transforming_helper_of_another_module(tmp_path, monkeypatch):
    _tree(tmp_path, {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/losses.py": LOSSES, "pkg/fit.py": FIT,
                     "pkg/main.py": """\
import jax.numpy as jnp

from pkg import fit as F
from pkg.losses import hinge, body


def train(objective, w):
    return F.fit(objective, w, w)


def main():
    w = train(hinge, jnp.ones(3))
    return w, F.run_scan(body, jnp.arange(3.0))
"""})
    path = str(Path("pkg/losses.py"))
    main = str(Path("pkg/main.py"))
    assert _lint(tmp_path, monkeypatch, "--select", "JAX201") == [
        ("JAX201", path, 6, 8,
         f"Python `if` on a traced value: it depends on the traced arguments `w`, `x` of `hinge` (wrapped by jax.jit "
         f"in {main}:12); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
        ("JAX201", path, 12, 8,
         f"Python `if` on a traced value: it depends on the traced argument `x` of `body` (a body passed to lax.scan "
         f"in {main}:13); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
    ]


def test_functions_passed_to_a_plain_helper_or_branch_free(tmp_path, monkeypatch):
    _tree(tmp_path, {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/losses.py": LOSSES, "pkg/fit.py": FIT,
                     "pkg/main.py": """\
import jax.numpy as jnp

from pkg.fit import evaluate, fit
from pkg.losses import hinge, smooth


def main():
    w = jnp.ones(3)
    return evaluate(hinge, w, w), fit(smooth, w, w)
"""})
    assert _lint(tmp_path, monkeypatch, "--select", "JAX201") == []


def test_a_module_attribute_rebound_does_not_reach_a_name_imported_from_it(tmp_path, monkeypatch):
    # `config.SCALES = {...}` binds a new dict to the module's attribute: `SCALES`, imported
    # by name into pkg/model.py, still holds the old one (jit or not): not this rule's bug
    _tree(tmp_path, {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/config.py": CONFIG, "pkg/model.py": MODEL,
                     "pkg/main.py": """\
import jax.numpy as jnp

from pkg import config
from pkg.model import apply


def main():
    x = jnp.ones(3)
    y = apply(x)
    config.SCALES = {"a": 2.0}
    return y, apply(x)
"""})
    assert _lint(tmp_path, monkeypatch, "--select", "JAX405") == []
