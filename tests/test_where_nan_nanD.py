"""Branch nanD (JAX120 where-gradient-nan): three mechanisms.

1. A power above 1 of a 2-norm (``jnp.linalg.norm(x) ** 2``, ``jnp.square(n)`` with ``n``
   bound to ``vector_norm``, ``jnp.sqrt(jnp.sum(d ** 2)) ** 2``, ``optax.global_norm(p) **
   2``) in a function shown differentiated: smooth at the zero vector with gradient 0,
   but JAX differentiates the norm, whose derivative there is 0/0.  Recall case 1841
   (https://github.com/jax-ml/jax/issues/4177).  jax 0.10.2: ``grad(lambda x:
   jnp.linalg.norm(x) ** 2)(jnp.zeros(3))`` is ``[nan nan nan]``; ``jnp.sum(x ** 2)``,
   ``norm(x, ord=1) ** 2`` and ``optax.safe_norm(x, 0.) ** 2`` give ``[0. 0. 0.]``.
2. ``theta = jnp.linalg.norm(v)`` tested against 0 by a ``lax.cond`` predicate while
   ``theta`` enters the cond (an operand, or read by a branch): NaN at the zero vector
   whatever the branches compute.  Recall case 1222 (jaxsim's from_axis_angle).
3. A divisor whose last binding, a statement of the function's body, keeps it off zero
   (``z = s.sum()`` then ``z = jnp.where(z == 0, 1, z)``) is not 0 under a later `where`:
   silent (minimax plr.py's replay distribution, a false finding of fresh set 24).
"""

from __future__ import annotations

from project_files import lint_files

NORM_MSG = ("`{expr}`: {name}the derivative of the 2-norm at the zero vector is `x / norm(x)` = 0/0, NaN, "
            "so this power of it, smooth there with gradient 0, gets a NaN gradient wherever {where} (a "
            "zero-initialised parameter, a zero residual, a distance of a point to itself); {instead}")


def _norm_msg(expr, where, instead, name=""):
    return NORM_MSG.format(expr=expr, name=name, where=where, instead=instead)


SINGLE = """\
import jax.numpy as np
from jax import grad


vec = np.zeros(2)

def squared_2_norm(x):
    return np.linalg.norm(x) ** 2

gradient_norm = grad(squared_2_norm)
"""

LOSSES = """\
import jax.numpy as jnp
import optax


def reg(w):
    n = jnp.linalg.vector_norm(w)
    return jnp.square(n)


def pair_energy(x):
    d = x[:, None, :] - x[None, :, :]
    return jnp.sum(jnp.sqrt(jnp.sum(d ** 2, axis=-1)) ** 2)


def loss(params, x):
    return reg(params["w"]) + optax.global_norm(params) ** 2 + pair_energy(x)
"""

TRAIN = """\
import jax

from losses import loss


def step(params, x):
    return jax.value_and_grad(loss, argnums=(0, 1))(params, x)
"""

SAFE_LOSSES = """\
import jax.numpy as jnp
import optax
from optax import tree_utils as otu


def reg(w):
    return jnp.sum(w ** 2) + jnp.linalg.norm(w, ord=1) ** 2 + optax.safe_norm(w, 0.0) ** 2


def pair_energy(x):
    d = x[:, None, :] - x[None, :, :]
    return jnp.sum(jnp.sum(d ** 2, axis=-1))


def spring(c1, c2, r):
    d = jnp.linalg.norm(c1 - c2)  # also read as itself: not smooth at 0 whatever the square
    return (d - r) ** 2 + d ** 2


def loss(params, x):
    return reg(params["w"]) + otu.tree_l2_norm(params, squared=True) + pair_energy(x) + spring(x[0], x[1], 1.0)


def report(x):
    return jnp.linalg.norm(x) ** 2
"""

SAFE_TRAIN = """\
import jax

from losses import loss, report


def step(params, x):
    return jax.value_and_grad(loss, argnums=(0, 1))(params, x)


summary = jax.jit(report)
"""


def test_power_of_norm_reported(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"main.py": SINGLE}, select="JAX120")
    assert found == [("JAX120", "main.py", 8, 12, _norm_msg(
        "np.linalg.norm(x) ** 2", "`x` is all zeros",
        "write the squared norm as a sum of squares (`jnp.sum(x ** 2)`, with the norm's `axis` if it has one), "
        "not through the root"))]


def test_power_of_norm_across_modules(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"losses.py": LOSSES, "train.py": TRAIN}, select="JAX120")
    assert found == [
        ("JAX120", "losses.py", 7, 12, _norm_msg(
            "jnp.square(n)", "`w` is all zeros",
            "write the squared norm as a sum of squares (`jnp.sum(w ** 2)`, with the norm's `axis` if it has "
            "one), not through the root", name="`n` is `jnp.linalg.vector_norm(w)`, and ")),
        ("JAX120", "losses.py", 12, 20, _norm_msg(
            "jnp.sqrt(jnp.sum(d ** 2, axis=-1)) ** 2", "`jnp.sum(d ** 2, axis=-1)` is 0",
            "use `jnp.sum(d ** 2, axis=-1)` itself, not the square of its root")),
        ("JAX120", "losses.py", 16, 31, _norm_msg(
            "optax.global_norm(params) ** 2", "every leaf of `params` is all zeros",
            "write the squared norm as a sum of squares (`optax.tree_utils.tree_l2_norm(params, squared=True)`), "
            "not through the root")),
    ]


def test_power_of_norm_valid_twins_silent(tmp_path, monkeypatch):
    # sums of squares, an ord=1 norm, optax.safe_norm, tree_l2_norm(squared=True); a norm
    # also read as itself (brepax's lens formula, recall case 621, reads `d` and `d**2`);
    # and a squared norm in a function that is only jitted (no derivative shown)
    found = lint_files(tmp_path, monkeypatch, {"losses.py": SAFE_LOSSES, "train.py": SAFE_TRAIN},
                       select="JAX120")
    assert found == []


ROTATION = """\
import jax
import jax.numpy as jnp


def from_axis_angle(vector):
    vector = vector.squeeze()
    theta = jnp.linalg.norm(vector)

    def theta_is_not_zero(theta_and_v):
        theta, v = theta_and_v
        u = v / theta
        return jnp.cos(theta) * jnp.eye(3) + jnp.sin(theta) * jnp.outer(u, u)

    return jax.lax.cond(
        pred=(theta == 0.0),
        true_fun=lambda operand: jnp.eye(3),
        false_fun=theta_is_not_zero,
        operand=(theta, vector),
    )
"""

ROT_MAIN = """\
import jax
import jax.numpy as jnp

from rotation import from_axis_angle


def loss(v):
    return jnp.sum(from_axis_angle(v) @ jnp.array([0.0, 0.0, 1.0]))


grad = jax.grad(loss)
"""

DAMPING = """\
import jax.numpy as jnp
from jax import lax


def damping(v):
    theta = jnp.sqrt(jnp.sum(v ** 2))
    return lax.cond(theta < 1e-6, lambda: 1.0, lambda: jnp.cos(theta))
"""

DAMP_MAIN = """\
import jax

from damping import damping

value_and_grad = jax.value_and_grad(damping)
"""

SAFE_ROTATION = """\
import jax
import jax.numpy as jnp
from jax import lax


def damping(v):
    sq = jnp.sum(v ** 2)
    theta = jnp.sqrt(jnp.where(sq > 0, sq, 1.0))
    return lax.cond(sq == 0.0, lambda: 1.0, lambda: jnp.cos(theta))


def scale(v):
    theta = jnp.linalg.norm(v)
    return jnp.sum(lax.cond(theta == 0.0, lambda u: u, lambda u: 2.0 * u, v))


def clip(v):
    theta = jnp.linalg.norm(v)
    return lax.cond(theta > 1.0, lambda: v / theta, lambda: v)


def loss(v):
    return damping(v) + scale(v) + jnp.sum(clip(v))


grad = jax.grad(loss)
"""


def test_cond_on_norm_reported(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"rotation.py": ROTATION, "main.py": ROT_MAIN,
                                               "damping.py": DAMPING, "train.py": DAMP_MAIN}, select="JAX120")
    assert found == [
        ("JAX120", "damping.py", 6, 13,
         "`theta = jnp.sqrt(jnp.sum(v ** 2))` is tested by `theta < 1e-6`, so the program expects "
         "`jnp.sum(v ** 2)` to be 0, and `theta` also enters the `lax.cond`; there the derivative of the square "
         "root is infinite, and reverse mode multiplies it by the zero cotangent the selected branch gives "
         "`theta`: the gradient is NaN whatever the branches compute. Take the root of a guarded input "
         "(`jnp.sqrt(jnp.where(jnp.sum(v ** 2) > 0, jnp.sum(v ** 2), 1.0))`) and test the guarded value's input "
         "instead"),
        ("JAX120", "rotation.py", 7, 13,
         "`theta = jnp.linalg.norm(vector)` is tested by `(theta == 0.0)`, so the program expects `vector` to be "
         "the zero vector, and `theta` also enters the `lax.cond`; there the derivative of the 2-norm is "
         "`vector / norm(vector)` = 0/0, and reverse mode multiplies it by the zero cotangent the selected "
         "branch gives `theta`: the gradient is NaN whatever the branches compute. Compute the norm of a "
         "guarded input (`sq = jnp.sum(vector ** 2)`, `jnp.sqrt(jnp.where(sq > 0, sq, 1.0))`) and test the "
         "guarded value's input instead"),
    ]


def test_cond_on_norm_valid_twins_silent(tmp_path, monkeypatch):
    # the root of a guarded sum of squares tested through `sq`; a norm used only in the
    # predicate; a predicate that does not single out 0 (`theta > 1.0`)
    found = lint_files(tmp_path, monkeypatch, {"rotation.py": SAFE_ROTATION}, select="JAX120")
    assert found == []


PLR = """\
import jax
import jax.numpy as jnp


def replay_dist(scores, filled, temp):
    scores = scores * filled
    score_dist = scores ** (1 / temp)
    z = score_dist.sum()
    z = jnp.where(jnp.equal(z, 0), 1, z)
    return jax.lax.select(jnp.greater(z, 0), score_dist / z, filled * 1.0)


def weights(w):
    total = jnp.sum(w)
    total = jnp.where(total != 0, total, 1.0)
    return jnp.where(total > 0, w / total, jnp.ones_like(w))


def loss(scores, filled, w):
    return jnp.sum(replay_dist(scores, filled, 2.0)) + jnp.sum(weights(w))


grad = jax.grad(loss)
"""

PLR_BAD = """\
import jax
import jax.numpy as jnp


def weights(w, fix):
    total = jnp.sum(w)
    if fix:
        total = jnp.where(total != 0, total, 1.0)
    return jnp.where(total > 0, w / total, jnp.ones_like(w))


def weights_neg(w):
    total = jnp.sum(w)
    total = jnp.where(total < 0, 1.0, total)
    return jnp.where(total > 0, w / total, jnp.ones_like(w))


grad = jax.grad(lambda w: jnp.sum(weights(w, True)) + jnp.sum(weights_neg(w)))
"""

DIV_MSG = ("`w / total` is computed for every element, also where `total > 0` is false and masks it out; its "
           "derivative is infinite/NaN where `total` is 0, so the gradient of this `where` is NaN (0 * inf). "
           "Guard `total` with the same condition too (double where: `jnp.where(cond, total, 1.0)` inside)")


def test_guard_rebinding_silent(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"plr.py": PLR}, select="JAX120")
    assert found == []


def test_guard_rebinding_not_on_every_path_reported(tmp_path, monkeypatch):
    # the guard only under `if fix:` (not every path), and a guard that leaves 0 in place
    found = lint_files(tmp_path, monkeypatch, {"plr.py": PLR_BAD}, select="JAX120")
    assert found == [("JAX120", "plr.py", 9, 33, DIV_MSG), ("JAX120", "plr.py", 15, 33, DIV_MSG)]


UPSTREAM = """\
import jax
import jax.numpy as jnp


def rgb_planes_to_hsv_planes(red, green, blue):
    value = jnp.maximum(jnp.maximum(red, green), blue)
    minimum = jnp.minimum(jnp.minimum(red, green), blue)
    range_ = value - minimum
    norm = 1. / (6. * range_)
    hue = jnp.where(value == green, norm * (blue - red) + 2. / 6., norm * (red - green) + 4. / 6.)
    hue = jnp.where(value == red, norm * (green - blue), hue)
    return jnp.where(range_ > 0, hue, 0.)


def entropy(p):
    lg = jnp.log(p)
    ent = p * lg
    return jnp.sum(jnp.where(p > 0, ent, 0.0))


def shade(d, c):
    inv = jnp.reciprocal(d)
    scaled = inv * c
    out = scaled + 1.0
    return jnp.sum(jnp.where(d != 0, out, 0.0))


jacobian = jax.jacrev(rgb_planes_to_hsv_planes)
grad = jax.grad(lambda p, d: entropy(p) + shade(d, 2.0), argnums=(0, 1))
"""

UPSTREAM_SAFE = """\
import jax
import jax.numpy as jnp


def rgb_planes_to_hsv_planes(red, green, blue):
    value = jnp.maximum(jnp.maximum(red, green), blue)
    minimum = jnp.minimum(jnp.minimum(red, green), blue)
    range_ = value - minimum
    safe_range = jnp.where(range_ > 0, range_, 1.)
    norm = 1. / (6. * safe_range)
    hue = jnp.where(value == green, norm * (blue - red) + 2. / 6., norm * (red - green) + 4. / 6.)
    hue = jnp.where(value == red, norm * (green - blue), hue)
    return jnp.where(range_ > 0, hue, 0.)


def entropy(p):
    lg = jnp.log(jnp.where(p > 0, p, 1.0))
    ent = p * lg
    return jnp.sum(jnp.where(p > 0, ent, 0.0))


def shade(d, c):
    safe = jnp.where(d != 0, d, 1.0)
    inv = jnp.reciprocal(safe)
    out = inv * c + 1.0
    return jnp.sum(jnp.where(d != 0, out, 0.0))


jacobian = jax.jacrev(rgb_planes_to_hsv_planes)
grad = jax.grad(lambda p, d: entropy(p) + shade(d, 2.0), argnums=(0, 1))
"""


def _up_msg(op, name, branch, cond, where, key):
    return (f"`{op}` (`{name}`) is computed for every element and reaches `{branch}`, which `jnp.where({cond}, ...)` "
            f"masks out where the condition is false; its derivative is infinite/NaN {where}, which the condition "
            f"masks out, so the gradient is NaN there (0 * inf). Guard `{key}` where `{name}` is computed "
            f"(`jnp.where({cond}, {key}, 1.0)` inside)")


def test_upstream_singular_reported(tmp_path, monkeypatch):
    # dm_pix's rgb_to_hsv before b44f6ca (recall case 1434, jax 0.10.2: NaN in the Jacobian
    # of an all-zeros image); `p * log(p)` through two names; `jnp.reciprocal` through three
    found = lint_files(tmp_path, monkeypatch, {"color.py": UPSTREAM}, select="JAX120")
    assert found == [
        ("JAX120", "color.py", 9, 12, _up_msg("1. / (6. * range_)", "norm", "hue", "range_ > 0",
                                              "where `range_` is 0", "range_")),
        ("JAX120", "color.py", 16, 10, _up_msg("jnp.log(p)", "lg", "ent", "p > 0", "where `p` is 0", "p")),
        ("JAX120", "color.py", 22, 11, _up_msg("jnp.reciprocal(d)", "inv", "out", "d != 0", "where `d` is 0", "d")),
    ]


def test_upstream_singular_guarded_silent(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"color.py": UPSTREAM_SAFE}, select="JAX120")
    assert found == []


WHERE_ROOT = """\
import jax
import jax.numpy as jnp
import jax.numpy as np


def damped(v):
    n = jnp.linalg.norm(v)
    return jnp.where(n == 0.0, 0.0, jnp.cos(n))


def sinc_weight(v):
    n = np.linalg.vector_norm(v, axis=-1)
    return np.sum(np.where(n < 1e-6, 1.0, np.sin(n) * n))


def loss(v):
    return damped(v) + sinc_weight(v)


grad = jax.grad(loss)
"""

WHERE_ROOT_SAFE = """\
import jax
import jax.numpy as jnp


def damped(v):
    sq = jnp.sum(v ** 2)
    n = jnp.sqrt(jnp.where(sq > 0, sq, 1.0))
    return jnp.where(sq == 0.0, 0.0, jnp.cos(n))


def far(v):
    n = jnp.linalg.norm(v)
    return jnp.where(n > 2.0, 0.0, jnp.cos(n))


def loss(v):
    return damped(v) + far(v)


grad = jax.grad(loss)
"""


def test_where_on_norm_reported(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"rot.py": WHERE_ROOT}, select="JAX120")
    msg = ("`n = {root}` is tested by `{test}`, so the program expects `v` to be the zero vector, and `n` also "
           "enters this `where`; there the derivative of the 2-norm is `v / norm(v)` = 0/0, and reverse mode "
           "multiplies it by the zero cotangent the selected branch gives `n`: the gradient is NaN whatever the "
           "branches compute. Compute the norm of a guarded input (`sq = jnp.sum(v ** 2)`, "
           "`jnp.sqrt(jnp.where(sq > 0, sq, 1.0))`) and test the guarded value's input instead")
    assert found == [
        ("JAX120", "rot.py", 7, 9, msg.format(root="jnp.linalg.norm(v)", test="n == 0.0")),
        ("JAX120", "rot.py", 12, 9, msg.format(root="np.linalg.vector_norm(v, axis=-1)", test="n < 1e-6")),
    ]


def test_where_on_norm_valid_silent(tmp_path, monkeypatch):
    # the guarded root tested through `sq`; a test that does not single out 0 (`n > 2.0`)
    found = lint_files(tmp_path, monkeypatch, {"rot.py": WHERE_ROOT_SAFE}, select="JAX120")
    assert found == []


BREADTH = """\
import jax.numpy as jnp
import jax.scipy.special as jss
from jax import lax


def a(x):
    return jnp.where(x > -1, jnp.log1p(x), 0.0)


def b(x):
    return jnp.where(jnp.abs(x) < 1, jnp.arctanh(x), 0.0)


def c(x):
    return jnp.where(x > 1, lax.acosh(x), 0.0)


def d(x):
    return jnp.where(x != 0, jnp.cbrt(x), 0.0)


def e(x):
    return jnp.where(x > 0, jss.gammaln(x), 0.0)


def f(x):
    return jnp.where(x != 0, lax.integer_pow(x, -2), 0.0)
"""

BREADTH_SAFE = """\
import jax.numpy as jnp
import jax.scipy.special as jss
from jax import lax


def a(x):
    return jnp.where(x > -1, jnp.log1p(jnp.where(x > -1, x, 0.0)), 0.0)


def b(x):
    return jnp.where(jnp.abs(x) > 1.5, 0.0, jnp.arctanh(x))


def c(x):
    return jnp.where(x > 1, lax.acosh(jnp.where(x > 1, x, 2.0)), 0.0)


def e(x):
    return jnp.where(x > 0.5, jss.gammaln(jnp.where(x > 0.5, x, 1.0)), 0.0)


def f(x):
    return jnp.where(x != 0, lax.integer_pow(x, 2), 0.0)
"""


def _b_msg(op, cond, where, key, safe):
    return (f"`{op}` is computed for every element, also where `{cond}` is false and masks it out; its derivative "
            f"is infinite/NaN {where}, so the gradient of this `where` is NaN (0 * inf). Guard `{key}` with the "
            f"same condition too (double where: `jnp.where(cond, {key}, {safe})` inside)")


def test_breadth_singular_functions(tmp_path, monkeypatch):
    # jax 0.10.2, grad of each at the point: log1p at -1, arctanh at ±1, acosh in [-1, 1],
    # cbrt at 0, gammaln at 0, integer_pow(x, -2) at 0: all NaN
    found = lint_files(tmp_path, monkeypatch, {"fns.py": BREADTH}, select="JAX120")
    assert found == [
        ("JAX120", "fns.py", 7, 30, _b_msg("jnp.log1p(x)", "x > -1", "where `x` is -1", "x", "0.0")),
        ("JAX120", "fns.py", 11, 38, _b_msg("jnp.arctanh(x)", "jnp.abs(x) < 1", "where `x` is 1 or -1", "x", "0.0")),
        ("JAX120", "fns.py", 15, 29, _b_msg("lax.acosh(x)", "x > 1", "where `x` is between -1 and 1", "x", "2.0")),
        ("JAX120", "fns.py", 19, 30, _b_msg("jnp.cbrt(x)", "x != 0", "where `x` is 0", "x", "1.0")),
        ("JAX120", "fns.py", 23, 29, _b_msg("jss.gammaln(x)", "x > 0", "where `x` is 0 or a negative integer",
                                            "x", "1.0")),
        ("JAX120", "fns.py", 27, 30, _b_msg("lax.integer_pow(x, -2)", "x != 0", "where `x` is 0", "x", "1.0")),
    ]


def test_breadth_singular_functions_guarded_silent(tmp_path, monkeypatch):
    # double wheres; arctanh masked only beyond ±1.5 (its derivative is finite there: at 2
    # the masked gradient is 0); a positive integer power
    found = lint_files(tmp_path, monkeypatch, {"fns.py": BREADTH_SAFE}, select="JAX120")
    assert found == []


COULOMB = """\
import jax
import jax.numpy as np


def distance(ri, rj, box=None):
    dij = np.linalg.norm(ri-rj, axis=-1)
    return dij


def pairwise(conf, charges):
    ri = np.expand_dims(conf, 0)
    rj = np.expand_dims(conf, 1)
    dij = distance(ri, rj)
    qij = np.multiply(np.expand_dims(charges, 0), np.expand_dims(charges, 1))
    keep_mask = 1 - np.eye(conf.shape[0])
    eij = np.where(keep_mask, qij/dij, np.zeros_like(dij))
    return np.sum(eij)


def lj(x):
    n = x.shape[0]
    r = np.linalg.norm(x[:, None, :] - x[None, :, :], axis=-1)
    return np.sum(np.where(~np.eye(n, dtype=bool), (1.0 / r) ** 6, 0.0))


def log_potential(x):
    d = x[None] - x[:, None]
    r = np.sqrt(np.sum(d ** 2, axis=-1))
    return np.sum(np.where(np.eye(x.shape[0]) == 0, np.log(r), 0.0))


forces = jax.jacrev(pairwise, 0)
grad = jax.grad(lambda x: lj(x) + log_potential(x))
"""

COULOMB_SAFE = """\
import jax
import jax.numpy as np


def distance(ri, rj, keep_mask):
    d2 = np.sum(np.power(ri - rj, 2), axis=-1)
    d2 = np.where(keep_mask, d2, np.ones_like(d2))
    return np.sqrt(d2)


def pairwise(conf, charges):
    ri = np.expand_dims(conf, 0)
    rj = np.expand_dims(conf, 1)
    keep_mask = 1 - np.eye(conf.shape[0])
    dij = distance(ri, rj, keep_mask)
    qij = np.multiply(np.expand_dims(charges, 0), np.expand_dims(charges, 1))
    return np.sum(np.where(keep_mask, qij/dij, np.zeros_like(dij)))


def cross(x, y):
    r = np.linalg.norm(x[:, None, :] - y[None, :, :], axis=-1)
    return np.sum(np.where(~np.eye(x.shape[0], dtype=bool), 1.0 / r, 0.0))


forces = jax.jacrev(pairwise, 0)
grad = jax.grad(cross, argnums=(0, 1))
"""


def _diag_msg(op, cond, which, key):
    return (f"`{op}` is computed for every element, also on the diagonal, where `{cond}` is {which} and masks it "
            f"out; `{key}` is the distance of each point to itself there, 0, where the derivative of `{op}` is "
            f"infinite and that of the norm is 0/0: the gradient of this `where` is NaN. Mask the squared "
            f"distances before the root (`jnp.sqrt(jnp.where(mask, d2, 1.0))`), so the diagonal is computed at 1")


def test_diagonal_masked_distance_reported(tmp_path, monkeypatch):
    # recall case 505 (jax#654): the distance helper and `1 - eye`; a Lennard-Jones term
    # with `~eye(n, dtype=bool)`; a log potential with the root of a sum of squares and
    # `eye == 0` (jax 0.10.2: NaN in every entry of the gradient)
    found = lint_files(tmp_path, monkeypatch, {"energy.py": COULOMB}, select="JAX120")
    assert found == [
        ("JAX120", "energy.py", 16, 31, _diag_msg("qij/dij", "keep_mask", "false", "dij")),
        ("JAX120", "energy.py", 23, 53, _diag_msg("(1.0 / r)", "~np.eye(n, dtype=bool)", "false", "r")),
        ("JAX120", "energy.py", 29, 53, _diag_msg("np.log(r)", "np.eye(x.shape[0]) == 0", "false", "r")),
    ]


def test_diagonal_masked_distance_valid_silent(tmp_path, monkeypatch):
    # the squared distances masked before the root (the thread's fix); distances between
    # two different arrays (no zero diagonal)
    found = lint_files(tmp_path, monkeypatch, {"energy.py": COULOMB_SAFE}, select="JAX120")
    assert found == []


SELF_BOUND = """\
import jax.numpy as jnp


def safe_divide(num, den):
    num = jnp.asarray(num)
    den = jnp.asarray(den)
    return jnp.where(den == 0, 0, num / den)
"""


def test_self_bound_names_do_not_loop(tmp_path, monkeypatch):
    # differt's safe_divide (recall case 1759): `den = jnp.asarray(den)` once made the
    # identity-matrix reading of the condition recurse without end
    found = lint_files(tmp_path, monkeypatch, {"utils.py": SELF_BOUND}, select="JAX120")
    assert found == [("JAX120", "utils.py", 7, 35,
                      "`num / den` is computed for every element, also where `den == 0` is true and masks it out; "
                      "its derivative is infinite/NaN where `den` is 0, so the gradient of this `where` is NaN "
                      "(0 * inf). Guard `den` with the same condition too (double where: `jnp.where(cond, den, "
                      "1.0)` inside)")]


SCAN_MASK = """\
import jax
import jax.numpy as jnp


def outer(data):
    mask = [jnp.ones(3, dtype=bool) for d in data]

    def body(carry, inp):
        x, mask = inp
        return carry + jnp.sum(jnp.where(mask, x, 0.0)), None

    def body_list(carry, x):
        return carry + jnp.sum(jnp.where(mask, x, 0.0)), None

    total, _ = jax.lax.scan(body, 0.0, (jnp.stack(data), jnp.stack(mask)))
    return total + jax.lax.scan(body_list, 0.0, jnp.stack(data))[0]
"""


def test_list_name_rebound_by_unpacking_in_inner_function(tmp_path, monkeypatch):
    # gwkokab's poisson likelihood (recall cases 1326/1327): `data, log_ref_prior, mask =
    # input` in the scan body rebinds `mask` to the scanned slice, an array; the enclosing
    # function's list comprehension of the same name is not what `jnp.where` gets there.
    # A body that reads the enclosing list itself is still reported (JAX130).
    found = lint_files(tmp_path, monkeypatch, {"lik.py": SCAN_MASK}, select="JAX130")
    assert [(c, p, r, col) for c, p, r, col, _m in found] == [("JAX130", "lik.py", 13, 42)]
