"""Derivative reach and the singular input of JAX120 (issue 22, branch gradP).

JAX120 reports a `where` whose masked branch has an infinite derivative: a NaN that only a
gradient shows.  It exists only where a derivative reaches the code.  The facts built here:

* the project's derivative reach (model/gradreach.py, closed over the project by the
  driver): a function reached by no derivative -- called only on the data handed to the
  differentiated loss, only on the gradients after ``jax.grad`` (an optax-style update), or
  by nobody -- stays silent, while one reached through another module's loss, a module
  attribute given to ``jax.jacrev``, or a method used by a loss handed to the project's own
  trainer is reported as before.  Sources: fresh set 19's review (reviewers A and B: BayesNewton
  ``inference.py:773,794`` BFGS updates no code calls, deepmind-research
  ``byol/utils/augmentations.py:191`` an augmentation, ``byol/utils/optimizers.py:96`` a
  LARS trust ratio in an optax ``update_fn``), recall case 1434 (dm_pix's ``rgb_to_hsv``
  under ``jax.jacrev``: reported);
* a divisor bound to a Euclidean norm in the loop around the `where` (``for layer in
  self.layers: h = layer(x); norm = jnp.linalg.norm(h)``): guarding it is not enough, the
  norm's own gradient is NaN at 0 (pkgrev18 p19's twin, ``models/resmlp.py:17``), and a
  root of a value kept off zero (``jnp.sqrt(jnp.sum(v ** 2) + 1e-12)``, the guarded sum of
  squares ``jnp.sqrt(jnp.where(sq > 0, sq, 1.0))``) is never 0: the corrected code is silent;
* a reduction's ``where=`` drops elements after its argument ran on all of them
  (``jnp.mean(jnp.sqrt(x), where=x > 0)``, newuser18's nan5; recall case 308's masked
  softmax rescaled by its own sum under ``jnp.sum(..., where=m)``);
* a square root of a value clipped to exactly 0 (``jnp.maximum(0., v)``, ``jnp.clip(v, 0.0,
  None)``, ``lax.max(v, 0.0)``; not ``jax.nn.relu``, whose rule selects 0): infinite
  derivative times the clip's 0 (recall case 1412, dm_pix's SSIM on a flat image).
"""

from __future__ import annotations

import pytest

from project_files import lint_files

_DIVIDE = ("`{op}` is computed for every element, also where `{c}` is false and masks it out; its derivative "
           "is infinite/NaN where `{k}` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `{k}` "
           "with the same condition too (double where: `jnp.where(cond, {k}, 1.0)` inside)")

# (a) recall case 1434's shape: a loss of another module, differentiated by jax.grad, calls the helper
GRAD_OTHER_MODULE = {
    'imgs/__init__.py': "",
    'imgs/color.py': """\
import jax.numpy as jnp


def rgb_to_hsv(r, g, b):
    value = jnp.maximum(jnp.maximum(r, g), b)
    range_ = value - jnp.minimum(jnp.minimum(r, g), b)
    saturation = jnp.where(value > 0, range_ / value, 0.0)
    return saturation, value
""",
    'train.py': """\
import jax
import jax.numpy as jnp
from imgs.color import rgb_to_hsv


def loss(img):
    s, v = rgb_to_hsv(img[0], img[1], img[2])
    return jnp.sum(s)


print(jax.grad(loss)(jnp.zeros((3, 4))))
""",
}

# (a') fresh 19 byol augmentations.py:191: the helper only augments the data given to the loss
GRAD_OTHER_MODULE_VALID = {
    'imgs/__init__.py': "",
    'imgs/color.py': """\
import jax.numpy as jnp


def rgb_to_hsv(r, g, b):
    value = jnp.maximum(jnp.maximum(r, g), b)
    range_ = value - jnp.minimum(jnp.minimum(r, g), b)
    saturation = jnp.where(value > 0, range_ / value, 0.0)
    return saturation, value
""",
    'train.py': """\
import jax
import jax.numpy as jnp
from imgs.color import rgb_to_hsv


def augment(img):
    s, v = rgb_to_hsv(img[0], img[1], img[2])
    return jnp.stack([s, v])


def loss(w, batch):
    return jnp.sum(w * batch)


batch = augment(jnp.zeros((3, 4)))
print(jax.grad(loss)(jnp.ones((2, 4)), batch))
""",
}

# (b) recall case 1434: jax.jacrev of a function that calls the helper as a package attribute
JACREV_ATTR = {
    'imgs/__init__.py': """\
from imgs.color import rgb_to_hsv
""",
    'imgs/color.py': """\
import jax.numpy as jnp


def rgb_to_hsv(r, g, b):
    value = jnp.maximum(jnp.maximum(r, g), b)
    range_ = value - jnp.minimum(jnp.minimum(r, g), b)
    saturation = jnp.where(value > 0, range_ / value, 0.0)
    return saturation, value
""",
    'check.py': """\
import jax
import jax.numpy as jnp
import imgs


def hsv(x):
    return jnp.stack(imgs.rgb_to_hsv(x[0], x[1], x[2]))


print(jax.jacrev(hsv)(jnp.zeros((3, 2))))
""",
}

# (b') fresh 19 BayesNewton inference.py:819: a helper the project calls only where nothing differentiates
JACREV_ATTR_VALID = {
    'imgs/__init__.py': """\
from imgs.color import rgb_to_hsv
""",
    'imgs/color.py': """\
import jax.numpy as jnp


def rgb_to_hsv(r, g, b):
    value = jnp.maximum(jnp.maximum(r, g), b)
    range_ = value - jnp.minimum(jnp.minimum(r, g), b)
    saturation = jnp.where(value > 0, range_ / value, 0.0)
    return saturation, value
""",
    'check.py': """\
import jax
import jax.numpy as jnp


def energy(x):
    return jnp.sum(x ** 2)


def describe(x):
    return jnp.stack(imgs.rgb_to_hsv(x[0], x[1], x[2])).mean()


print(jax.jacrev(energy)(jnp.zeros((3, 2))), describe(jnp.zeros((3, 2))))
""",
}

# (c) a method used by a loss that is handed to the project's own trainer (which differentiates it)
METHOD_HANDED_ON = {
    'opt/__init__.py': "",
    'opt/scale.py': """\
import jax.numpy as jnp


class Scaler:
    def trust(self, p_norm, u_norm):
        return jnp.where(u_norm > 0, p_norm / u_norm, 1.0)
""",
    'opt/fit.py': """\
import jax


def fit(loss_fn, w):
    return jax.grad(loss_fn)(w)
""",
    'main.py': """\
import jax.numpy as jnp
from opt.fit import fit
from opt.scale import Scaler

S = Scaler()


def loss(w):
    return jnp.sum(S.trust(jnp.abs(w), w * w))


print(fit(loss, jnp.zeros(3)))
""",
}

# (c') fresh 19 byol optimizers.py:96: the method only scales gradients in an optax update_fn
METHOD_HANDED_ON_VALID = {
    'opt/__init__.py': "",
    'opt/scale.py': """\
import jax.numpy as jnp


class Scaler:
    def trust(self, p_norm, u_norm):
        return jnp.where(u_norm > 0, p_norm / u_norm, 1.0)
""",
    'opt/fit.py': """\
import jax
import optax
from opt.scale import Scaler


def lars():
    def init_fn(params):
        return ()

    def update_fn(updates, state, params=None):
        return Scaler().trust(params, updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def step(loss_fn, w):
    g = jax.grad(loss_fn)(w)
    u, _ = lars().update(g, (), w)
    return w - u
""",
    'main.py': """\
import jax.numpy as jnp
from opt.fit import step


def loss(w):
    return jnp.sum(w ** 2)


print(step(loss, jnp.zeros(3)))
""",
}

# pkgrev18 p19's twin: an equinox model's loop binds the norm of each layer's output
NORM_IN_LOOP_EQX = {'resmlp.py': """\
import equinox as eqx
import jax
import jax.numpy as jnp


class ResMLP(eqx.Module):
    layers: list

    def __call__(self, x):
        for layer in self.layers:
            h = layer(x)
            norm = jnp.linalg.norm(h)
            h = jnp.where(norm > 1e3, h / norm, h)
            x = x + jax.nn.relu(h)
        return x


def loss(model, x):
    return jnp.sum(model(x))


grads = eqx.filter_grad(loss)
model = ResMLP([eqx.nn.Linear(3, 3, key=jax.random.PRNGKey(0))])
print(grads(model, jnp.zeros(3)).layers[0].weight)
"""}

# the same with the root of a sum of squares, in a loop over rows
NORM_IN_LOOP_SQRT = {'rows.py': """\
import jax
import jax.numpy as jnp


def unit_rows(vs):
    out = []
    for v in vs:
        n = jnp.sqrt(jnp.sum(v ** 2))
        out.append(jnp.where(n > 0, v / n, 0.0))
    return jnp.stack(out)


print(jax.grad(lambda vs: unit_rows(vs).sum())(jnp.zeros((2, 3))))
"""}

# ... and with `vector_norm` imported by name, in a `while` loop
NORM_IN_WHILE_IMPORTED = {'clip.py': """\
import jax
import jax.numpy as jnp
from jax.numpy.linalg import vector_norm


def clip_all(gs, limit):
    total = 0.0
    while gs:
        g = gs.pop()
        gn = vector_norm(g)
        total = total + jnp.sum(jnp.where(gn > 1.0, g * limit / gn, g))
    return total


print(jax.grad(lambda g: clip_all([g, g], 1.0))(jnp.zeros(3)))
"""}

# the message's fix: the sum of squares guarded before the root (jax.grad at 0: [1. 1. 1.])
NORM_IN_LOOP_EQX_VALID = {'resmlp.py': """\
import equinox as eqx
import jax
import jax.numpy as jnp


class ResMLP(eqx.Module):
    layers: list

    def __call__(self, x):
        for layer in self.layers:
            h = layer(x)
            sq = jnp.sum(h * h)
            norm = jnp.sqrt(jnp.where(sq > 0, sq, 1.0))
            h = jnp.where(norm > 1e3, h / norm, h)
            x = x + jax.nn.relu(h)
        return x


def loss(model, x):
    return jnp.sum(model(x))


grads = eqx.filter_grad(loss)
model = ResMLP([eqx.nn.Linear(3, 3, key=jax.random.PRNGKey(0))])
print(grads(model, jnp.zeros(3)).layers[0].weight)
"""}

# the root of the sum of squares plus a constant (jax.grad at 0: 1e6, finite)
NORM_IN_LOOP_SQRT_VALID = {'rows.py': """\
import jax
import jax.numpy as jnp


def unit_rows(vs):
    out = []
    for v in vs:
        n = jnp.sqrt(jnp.sum(v ** 2) + 1e-12)
        out.append(jnp.where(n > 0, v / n, 0.0))
    return jnp.stack(out)


print(jax.grad(lambda vs: unit_rows(vs).sum())(jnp.zeros((2, 3))))
"""}

# the sum of squares kept off zero by `jnp.maximum` before the root (jax.grad at 0: [2. 2. 2.])
NORM_IN_WHILE_IMPORTED_VALID = {'clip.py': """\
import jax
import jax.numpy as jnp
from jax.numpy.linalg import vector_norm


def clip_all(gs, limit):
    total = 0.0
    while gs:
        g = gs.pop()
        sq = jnp.vdot(g, g)
        gn = jnp.sqrt(jnp.maximum(sq, 1e-12))
        total = total + jnp.sum(jnp.where(gn > 1.0, g * limit / gn, g))
    return total


print(jax.grad(lambda g: clip_all([g, g], 1.0))(jnp.zeros(3)))
"""}

# newuser18 repro/nan_misses/nan5.py: a reduction's `where=` tests the variable (jax.grad: [nan 0.25])
REDUCE_MEAN_SQRT = {
    'r1.py': """\
import jax
import jax.numpy as jnp


def loss(x):
    return jnp.mean(jnp.sqrt(x), where=x > 0)


print(jax.grad(loss)(jnp.array([0.0, 4.0])))
""",
}

# the same in another module, `jax.numpy` imported as `np`, `nansum`, the mask bound to a name ([2. nan])
REDUCE_NANSUM_OTHER_MODULE = {
    'lib/__init__.py': "",
    'lib/nll.py': """\
import jax.numpy as np


def total_log(p):
    valid = p > 0
    return np.nansum(np.log(p), where=valid)
""",
    'main.py': """\
import jax
import jax.numpy as jnp
from lib.nll import total_log

print(jax.grad(total_log)(jnp.array([0.5, 0.0])))
""",
}

# recall case 308 (jax#17070): a masked softmax rescaled by its own sum, then `sum(..., where=)` of its log2 ([nan nan 0. nan])
REDUCE_SOFTMAX_RESCALED = {
    'r2b.py': """\
import jax
import jax.numpy as jnp


def entropy(logits, where):
    attn = jax.nn.softmax(logits, axis=0, where=where)
    attn = attn * jnp.sum(attn) ** -1
    return jnp.sum(attn * -jnp.log2(attn), where=where, initial=1.0)


print(jax.grad(entropy)(jnp.arange(4.0), jnp.array([True, True, False, True])))
""",
}

# the message's fix: the argument guarded with the mask ([0. 0.25])
REDUCE_MEAN_SQRT_VALID = {
    'r1.py': """\
import jax
import jax.numpy as jnp


def loss(x):
    return jnp.mean(jnp.sqrt(jnp.where(x > 0, x, 1.0)), where=x > 0)


print(jax.grad(loss)(jnp.array([0.0, 4.0])))
""",
}

# ([2. 0.])
REDUCE_NANSUM_OTHER_MODULE_VALID = {
    'lib/__init__.py': "",
    'lib/nll.py': """\
import jax.numpy as np


def total_log(p):
    valid = p > 0
    return np.nansum(np.log(np.where(valid, p, 1.0)), where=valid)
""",
    'main.py': """\
import jax
import jax.numpy as jnp
from lib.nll import total_log

print(jax.grad(total_log)(jnp.array([0.5, 0.0])))
""",
}

# (finite)
REDUCE_SOFTMAX_RESCALED_VALID = {
    'r2b.py': """\
import jax
import jax.numpy as jnp


def entropy(logits, where):
    attn = jax.nn.softmax(logits, axis=0, where=where)
    attn = attn * jnp.sum(attn) ** -1
    return jnp.sum(attn * -jnp.log2(jnp.where(where, attn, 1.0)), where=where, initial=1.0)


print(jax.grad(entropy)(jnp.arange(4.0), jnp.array([True, True, False, True])))
""",
}

# the bare masked softmax: its own derivative drops the masked cotangent (finite gradient, jax 0.10.2)
REDUCE_SOFTMAX_BARE_VALID = {
    'r2.py': """\
import jax
import jax.numpy as jnp


def entropy(logits, where):
    attn = jax.nn.softmax(logits, axis=0, where=where)
    return jnp.sum(attn * -jnp.log2(attn), where=where, initial=1.0)


print(jax.grad(entropy)(jnp.arange(4.0), jnp.array([True, True, False, True])))
""",
}

# newuser18 p03's shape with a mask the code does not relate to the zeros: unknown, silent
REDUCE_OPAQUE_MASK_VALID = {
    'r4v.py': """\
import jax
import jax.numpy as jnp


def masked_nll(probs, mask):
    return -jnp.sum(jnp.log(probs), where=mask) / jnp.sum(mask)


print(jax.grad(masked_nll)(jnp.array([0.5, 0.25]), jnp.array([True, True])))
""",
}

# recall case 1412 (dm_pix SSIM): variances clipped at 0, then the root of their product ([nan nan nan nan])
CLIP_PRODUCT = {
    's1.py': """\
import jax
import jax.numpy as jnp


def bound(a, b):
    s00 = jnp.var(a) + 0.0 * jnp.mean(a)
    s11 = jnp.var(b)
    s00 = jnp.maximum(0., s00)
    s11 = jnp.maximum(0., s11)
    return jnp.sqrt(s00 * s11)


print(jax.grad(bound)(jnp.zeros(4), jnp.ones(4)))
""",
}

# the clip with `lax.max`, the root of the clipped name itself ([nan nan])
CLIP_LAX_MAX = {
    's2.py': """\
import jax
import jax.numpy as jnp
from jax import lax


def soft_radius(x):
    r2 = 1.0 - jnp.sum(x * x)
    r2 = lax.max(r2, 0.0)
    return jnp.sqrt(r2)


print(jax.grad(soft_radius)(jnp.ones(2)))
""",
}

# `jnp.clip(d, 0.0, None)` in another module, `jax.numpy` imported as `np` ([nan nan nan])
CLIP_OTHER_MODULE = {
    'geo/__init__.py': "",
    'geo/dist.py': """\
import jax.numpy as np


def gap(u, v):
    d = np.sum(u - v)
    d = np.clip(d, 0.0, None)
    return np.sqrt(d)
""",
    'main.py': """\
import jax
import jax.numpy as jnp
from geo.dist import gap



def loss(u, v):
    return 2.0 * gap(u, v)


print(jax.grad(loss)(jnp.zeros(3), jnp.ones(3)))
""",
}

# recall case 1413 (the fix): clipped at a small positive number ([0. 0. 0. 0.])
CLIP_PRODUCT_VALID = {
    's1.py': """\
import jax
import jax.numpy as jnp


def bound(a, b):
    s00 = jnp.var(a) + 0.0 * jnp.mean(a)
    s11 = jnp.var(b)
    s00 = jnp.maximum(1e-12, s00)
    s11 = jnp.maximum(1e-12, s11)
    return jnp.sqrt(s00 * s11)


print(jax.grad(bound)(jnp.zeros(4), jnp.ones(4)))
""",
}

# `jax.nn.relu`: its derivative rule selects 0 ([-0. -0.], jax 0.10.2)
CLIP_RELU_VALID = {
    's2.py': """\
import jax
import jax.numpy as jnp
from jax import lax


def soft_radius(x):
    r2 = 1.0 - jnp.sum(x * x)
    r2 = jax.nn.relu(r2)
    return jnp.sqrt(r2)


print(jax.grad(soft_radius)(jnp.ones(2)))
""",
}

# ([0. 0. 0.])
CLIP_OTHER_MODULE_VALID = {
    'geo/__init__.py': "",
    'geo/dist.py': """\
import jax.numpy as np


def gap(u, v):
    d = np.sum(u - v)
    d = np.clip(d, 1e-12, None)
    return np.sqrt(d)
""",
    'main.py': """\
import jax
import jax.numpy as jnp
from geo.dist import gap



def loss(u, v):
    return 2.0 * gap(u, v)


print(jax.grad(loss)(jnp.zeros(3), jnp.ones(3)))
""",
}


@pytest.mark.parametrize("files", [GRAD_OTHER_MODULE, JACREV_ATTR])
def test_reached_helper_reported(tmp_path, monkeypatch, files):
    assert lint_files(tmp_path, monkeypatch, files, select="JAX120") == [
        ("JAX120", "imgs/color.py", 7, 39, _DIVIDE.format(op="range_ / value", c="value > 0", k="value")),
    ]


def test_method_of_handed_on_loss_reported(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, METHOD_HANDED_ON, select="JAX120") == [
        ("JAX120", "opt/scale.py", 6, 38, _DIVIDE.format(op="p_norm / u_norm", c="u_norm > 0", k="u_norm")),
    ]


@pytest.mark.parametrize("files", [GRAD_OTHER_MODULE_VALID, JACREV_ATTR_VALID, METHOD_HANDED_ON_VALID])
def test_unreached_helper_silent(tmp_path, monkeypatch, files):
    assert lint_files(tmp_path, monkeypatch, files, select="JAX120") == []

_ROOT = ("`{op}` is computed for every element, also where `{c}` is false and masks it out; its derivative is "
         "infinite/NaN where `{k}` is 0, so the gradient of this `where` is NaN (0 * inf). Guarding `{k}` is not "
         "enough: `{k} = {root}` has a NaN gradient itself where it is 0 (the derivative of the square root "
         "there); guard the sum of squares before the root (`jnp.sqrt(jnp.where(sq > 0, sq, 1.0))` with `sq` the "
         "sum of squares), or use `optax.safe_norm`")


@pytest.mark.parametrize("files, expected", [
    (NORM_IN_LOOP_EQX, ("JAX120", "resmlp.py", 13, 39,
                        _ROOT.format(op="h / norm", c="norm > 1e3", k="norm", root="jnp.linalg.norm(h)"))),
    (NORM_IN_LOOP_SQRT, ("JAX120", "rows.py", 9, 37,
                         _ROOT.format(op="v / n", c="n > 0", k="n", root="jnp.sqrt(jnp.sum(v ** 2))"))),
    (NORM_IN_WHILE_IMPORTED, ("JAX120", "clip.py", 11, 53,
                              _ROOT.format(op="g * limit / gn", c="gn > 1.0", k="gn", root="vector_norm(g)"))),
])
def test_norm_bound_in_loop_names_the_root(tmp_path, monkeypatch, files, expected):
    assert lint_files(tmp_path, monkeypatch, files, select="JAX120") == [expected]


@pytest.mark.parametrize("files", [NORM_IN_LOOP_EQX_VALID, NORM_IN_LOOP_SQRT_VALID, NORM_IN_WHILE_IMPORTED_VALID])
def test_root_kept_off_zero_silent(tmp_path, monkeypatch, files):
    assert lint_files(tmp_path, monkeypatch, files, select="JAX120") == []

_REDUCE = ("`{op}` is computed for every element, also where `where={m}` is false and drops it from the `{f}`; "
           "{because}, so the gradient of this `{f}` is NaN (0 * inf). Guard `{k}` with the mask too "
           "(`jnp.where({m}, {k}, 1.0)` inside)")


@pytest.mark.parametrize("files, expected", [
    (REDUCE_MEAN_SQRT, ("JAX120", "r1.py", 6, 21, _REDUCE.format(
        op="jnp.sqrt(x)", m="x > 0", f="mean", k="x",
        because="its derivative is infinite/NaN where `x` is 0 or negative"))),
    (REDUCE_NANSUM_OTHER_MODULE, ("JAX120", "lib/nll.py", 6, 22, _REDUCE.format(
        op="np.log(p)", m="valid", f="nansum", k="p", because="its derivative is infinite/NaN where `p` is 0"))),
    (REDUCE_SOFTMAX_RESCALED, ("JAX120", "r2b.py", 8, 28, _REDUCE.format(
        op="jnp.log2(attn)", m="where", f="sum", k="attn",
        because="`attn = jax.nn.softmax(logits, axis=0, where=where)` is 0 exactly there, where the derivative "
                "of `jnp.log2(attn)` is infinite/NaN"))),
])
def test_reduction_where_reported(tmp_path, monkeypatch, files, expected):
    assert lint_files(tmp_path, monkeypatch, files, select="JAX120") == [expected]


@pytest.mark.parametrize("files", [REDUCE_MEAN_SQRT_VALID, REDUCE_NANSUM_OTHER_MODULE_VALID,
                                   REDUCE_SOFTMAX_RESCALED_VALID, REDUCE_SOFTMAX_BARE_VALID, REDUCE_OPAQUE_MASK_VALID])
def test_reduction_where_silent(tmp_path, monkeypatch, files):
    assert lint_files(tmp_path, monkeypatch, files, select="JAX120") == []

_CLIP = ("`{call}`: {which} to exactly 0 wherever that input is 0 or below, where the derivative of the square "
         "root is infinite and the clip's is 0: the gradient is NaN there (0 * inf). Clip to a small positive "
         "number instead (`jnp.maximum(eps, ...)`), or guard the root's input (`jnp.sqrt(jnp.where(v > 0, v, 1.0))`)")


@pytest.mark.parametrize("files, expected", [
    (CLIP_PRODUCT, ("JAX120", "s1.py", 10, 12, _CLIP.format(
        call="jnp.sqrt(s00 * s11)", which="`s00 = jnp.maximum(0., s00)` clips `s00`"))),
    (CLIP_LAX_MAX, ("JAX120", "s2.py", 9, 12, _CLIP.format(
        call="jnp.sqrt(r2)", which="`r2 = lax.max(r2, 0.0)` clips `r2`"))),
    (CLIP_OTHER_MODULE, ("JAX120", "geo/dist.py", 7, 12, _CLIP.format(
        call="np.sqrt(d)", which="`d = np.clip(d, 0.0, None)` clips `d`"))),
])
def test_root_of_zero_clip_reported(tmp_path, monkeypatch, files, expected):
    assert lint_files(tmp_path, monkeypatch, files, select="JAX120") == [expected]


@pytest.mark.parametrize("files", [CLIP_PRODUCT_VALID, CLIP_RELU_VALID, CLIP_OTHER_MODULE_VALID])
def test_root_of_positive_clip_silent(tmp_path, monkeypatch, files):
    assert lint_files(tmp_path, monkeypatch, files, select="JAX120") == []


# fresh set 20 (graphcast's weathernext sampler): the clip-then-root in sampling code of
# a project that takes no derivative anywhere: no derivative of it is shown, so the root
# stays silent (the clip guards a rounding error's negative, not a gradient), although
# JAX120's older patterns keep reporting a public function of such a project
CLIP_SAMPLER_VALID = {
    'samplers/__init__.py': "",
    'samplers/churn.py': """\
import jax
import jax.numpy as jnp


def apply_churn(x: jax.Array, noise_level: jax.Array, rate: float):
    new_level = noise_level * (1.0 + rate)
    noise_diff = new_level**2 - noise_level**2
    noise_diff = jnp.maximum(noise_diff, 0)
    return x + jnp.sqrt(noise_diff), new_level
""",
}


def test_root_of_zero_clip_in_undifferentiated_sampler_silent(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, CLIP_SAMPLER_VALID, select="JAX120") == []
