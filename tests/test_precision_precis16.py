"""False findings the reviewers found on fresh set 15, and library results under jit (the
new-user review), by mechanism, each written at least two ways (VALID: silent), with twins
that must still be reported (INVALID).

* G. JAX120 in a project that takes no derivative (evojax waterworld.py
  `get_line_seg_intersection`: the ray/wall intersection of an environment stepped by a
  gradient-free search; no file of the project names `grad`, `jvp`, `vjp`...).  A public
  function the project's own code calls, in its file or from traced code of another module,
  is not reported there.  Still reported: any file of the project names a derivative
  (`jax.grad`, `eqx.filter_value_and_grad`) or imports a library that consumes gradients
  (`optax`), or the public function is one nobody in the project calls (there for users).
* A. JAX102 on an object's own `.at` (pytreeclass tests/test_mask.py: `t = Test(T())` of a
  `TreeClass` written in the test, `t.at[...].set(0)` run for not raising): an object built
  from a class statement of the file is no JAX array.  Still reported: its array field's
  `.at`, and a name bound to such an object on one path only.
* L. Library results under jit: `state.apply_fn(...)` of a flax `TrainState`, `model.apply`
  of a haiku transform or of a flax module built once, and a jit of another module, called
  on a tracer in traced code, give a tracer: a Python `if` on it is JAX201 and the message
  names the traced arguments it came from (no `static_argnums` advice for the other operand).
  Still silent: a shape test of the result, the same calls outside jit, and a helper of
  another module that is not jitted (unknown).
"""

from __future__ import annotations

from project_files import lint_files


def _lint(tmp_path, monkeypatch, files, select=""):
    tmp_path.mkdir(parents=True, exist_ok=True)
    return lint_files(tmp_path, monkeypatch, files, select=select, dedent=True)


# ---------------------------------------------------------------- G: JAX120, grad-free project

_GEOM = '''
    import jax
    import jax.numpy as jnp


    def intersect(x1, x2, y1, y2):
        d = x2 - x1
        u = jnp.where(jnp.isclose(d, 0.0), 0.0, (y2 - y1) / d)
        return u > 0.0


    @jax.jit
    def step(state):
        return intersect(state[0], state[1], state[2], state[3])
'''

_GEOM_MSG = (
    "`(y2 - y1) / d` is computed for every element, also where `jnp.isclose(d, 0.0)` is true and masks it "
    "out; its derivative is infinite/NaN where `d` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `d` "
    "with the same condition too (double where: `jnp.where(cond, d, 1.0)` inside)"
)

_RAYS = '''
    import jax.numpy as jnp


    def ray_hit(px, py, qx, qy):
        den = qx * py - qy * px
        t = jnp.where(den == 0.0, -1.0, (qx - px) / den)
        return jnp.where(t > 0.0, t, jnp.inf)
'''

_RAYS_MSG = (
    "`(qx - px) / den` is computed for every element, also where `den == 0.0` is true and masks it out; its "
    "derivative is infinite/NaN where `den` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `den` with "
    "the same condition too (double where: `jnp.where(cond, den, 1.0)` inside)"
)

_ENV = '''
    import jax
    import jax.numpy as jnp

    from sim.rays import ray_hit


    class Env:
        def __init__(self, n):
            def step_fn(state, action):
                hits = ray_hit(state[0], state[1], action[0], action[1])
                return state + hits

            self._step = jax.jit(jax.vmap(step_fn))

        def step(self, state, action):
            return self._step(state, action)
'''

# an evolution strategy: `grad` is a variable, not a derivative
_ES = '''
    import jax.numpy as jnp


    def update(mean, noise, fitness, lr):
        grad = jnp.mean(noise * fitness[:, None], axis=0)
        return mean + lr * grad
'''


def test_grad_free_project_same_file_valid(tmp_path, monkeypatch):
    files = {"geom.py": _GEOM, "es.py": _ES}
    assert _lint(tmp_path, monkeypatch, files, select="JAX120") == []


def test_grad_free_project_other_module_valid(tmp_path, monkeypatch):
    # an empty notebook (not valid JSON) names no derivative either
    files = {"sim/__init__.py": "", "sim/rays.py": _RAYS, "sim/env.py": _ENV, "sim/es.py": _ES,
             "notebooks/empty.ipynb": ""}
    assert _lint(tmp_path, monkeypatch, files, select="JAX120") == []


def test_project_that_differentiates_invalid(tmp_path, monkeypatch):
    train = '''
        import jax

        from geom import step


        def loss(s):
            return step(s).sum()


        g = jax.grad(loss)
    '''
    files = {"geom.py": _GEOM, "es.py": _ES, "train.py": train}
    assert _lint(tmp_path, monkeypatch, files, select="JAX120") == [
        ("JAX120", "geom.py", 8, 45, _GEOM_MSG)]


def test_project_with_equinox_derivative_elsewhere_valid(tmp_path, monkeypatch):
    # branch gradP (the project's derivative reach, model/gradreach.py): the project's own
    # code calls `ray_hit` only in the jitted environment step, and its one derivative
    # (`loss`) never reaches it: silent (fresh set 19's review, BayesNewton
    # `inference.py:819`, distribution_shift_framework `color_conversion.py:84`)
    fit = '''
        import equinox as eqx


        def loss(model, x):
            return model(x).sum()


        value_and_grad = eqx.filter_value_and_grad(loss)
    '''
    files = {"sim/__init__.py": "", "sim/rays.py": _RAYS, "sim/env.py": _ENV, "sim/fit.py": fit}
    assert _lint(tmp_path, monkeypatch, files, select="JAX120") == []


def test_project_with_equinox_derivative_reaching_it_invalid(tmp_path, monkeypatch):
    # ... and reported once that derivative reaches it, through an import
    fit = '''
        import equinox as eqx

        from sim.rays import ray_hit


        def loss(p, q):
            return ray_hit(p[0], p[1], q[0], q[1]).sum()


        value_and_grad = eqx.filter_value_and_grad(loss)
    '''
    files = {"sim/__init__.py": "", "sim/rays.py": _RAYS, "sim/env.py": _ENV, "sim/fit.py": fit}
    assert _lint(tmp_path, monkeypatch, files, select="JAX120") == [
        ("JAX120", "sim/rays.py", 7, 37, _RAYS_MSG)]


def test_project_with_optimizer_valid(tmp_path, monkeypatch):
    # an optimizer built at import differentiates nothing it is given (branch gradP)
    opt = '''
        import optax

        tx = optax.adam(1e-3)
    '''
    files = {"sim/__init__.py": "", "sim/rays.py": _RAYS, "sim/env.py": _ENV, "sim/opt.py": opt}
    assert _lint(tmp_path, monkeypatch, files, select="JAX120") == []


def test_grad_free_project_uncalled_public_function_invalid(tmp_path, monkeypatch):
    # nobody in the project calls `ray_hit`: it is there for the library's users
    files = {"sim/__init__.py": "", "sim/rays.py": _RAYS, "sim/es.py": _ES}
    assert _lint(tmp_path, monkeypatch, files, select="JAX120") == [
        ("JAX120", "sim/rays.py", 7, 37, _RAYS_MSG)]


# ---------------------------------------------------------------- A: JAX102, an object's own `.at`

_TREE_TEST = '''
    from typing import Any

    import pytreeclass as tc


    def test_freeze_errors():
        class T:
            pass

        class Test(tc.TreeClass):
            a: Any

        t = Test(T())
        t.at[...].set(0)
'''

_TREE_MODULE = '''
    import jax.numpy as jnp

    from mylib import Frozen


    class Params(Frozen):
        def __init__(self):
            self.w = jnp.zeros(3)


    params = Params()
    params.at["w"].set(1.0)
'''


def test_object_own_at_valid(tmp_path, monkeypatch):
    files = {"tests/test_mask.py": _TREE_TEST, "demo.py": _TREE_MODULE}
    assert _lint(tmp_path, monkeypatch, files, select="JAX102") == []


def test_object_array_field_and_other_path_invalid(tmp_path, monkeypatch):
    field = _TREE_MODULE + '''
    params.w.at[0].set(1.0)
    '''
    branch = '''
        import jax.numpy as jnp

        from mylib import Frozen


        class Params(Frozen):
            pass


        def make(flag):
            if flag:
                p = Params()
            else:
                p = jnp.zeros(3)
            p.at[0].set(1.0)
            return p
    '''
    files = {"demo.py": field, "branch.py": branch}
    assert _lint(tmp_path, monkeypatch, files, select="JAX102") == [
        ("JAX102", "branch.py", 16, 5,
         "`p.at[...].set(...)` returns a new array and leaves `p` unchanged; the result is discarded, so this "
         "line does nothing. Assign it: `p = p.at[...].set(...)`"),
        ("JAX102", "demo.py", 15, 1,
         "`params.w.at[...].set(...)` returns a new array and leaves `params.w` unchanged; the result is "
         "discarded, so this line does nothing. Assign it: `params.w = params.w.at[...].set(...)`"),
    ]


# ---------------------------------------------------------------- L: library results under jit

_TRAIN_STATE = '''
    import jax
    from flax.training import train_state


    @jax.jit
    def eval_step(state: train_state.TrainState, batch, limit):
        pred = state.apply_fn({"params": state.params}, batch["x"])
        if pred.max() > limit:
            pred = pred / 2
        return pred


    def make_step(apply_fn, params, tx):
        state = train_state.TrainState.create(apply_fn=apply_fn, params=params, tx=tx)

        @jax.jit
        def predict(x):
            logits = state.apply_fn(state.params, x)
            if logits.sum() > 0:
                return logits
            return -logits

        return predict
'''

_HAIKU = '''
    import haiku as hk
    import jax

    from nets import forward
    from ops import predict

    model = hk.without_apply_rng(hk.transform(forward))


    @jax.jit
    def infer(params, x, limit):
        out = model.apply(params, x)
        if out.max() > limit:
            out = out / 2
        return out


    @jax.jit
    def run(params, x):
        y = predict(params, x)
        if y.sum() > 0:
            return y
        return -y
'''

_OPS = '''
    import jax
    import flax.linen as nn

    dense = nn.Dense(3)


    @jax.jit
    def predict(params, x):
        return dense.apply(params, x)


    @jax.jit
    def clipped(params, x):
        y = dense.apply(params, x)
        while y.max() > 1.0:
            y = y / 2
        return y
'''


def _why(names, fn):
    args = ", ".join(f"`{a}`" for a in names)
    s = "s" if len(names) > 1 else ""
    return (f"Python `if` on a traced value: it depends on the traced argument{s} {args} of `{fn}` "
            f"(decorated with @jax.jit); this raises TracerBoolConversionError. Use `jax.lax.cond` or "
            f"`jnp.where`")


def test_library_results_under_jit_invalid(tmp_path, monkeypatch):
    files = {"state.py": _TRAIN_STATE, "infer.py": _HAIKU, "ops.py": _OPS,
             "nets.py": "import haiku as hk\n\n\ndef forward(x):\n    return hk.nets.MLP([4, 1])(x)\n"}
    found = _lint(tmp_path, monkeypatch, files, select="JAX201")
    assert found == [
        ("JAX201", "infer.py", 14, 8, _why(["limit", "params", "x"], "infer")),
        ("JAX201", "infer.py", 22, 8, _why(["params", "x"], "run")),
        ("JAX201", "ops.py", 16, 11,
         "Python `while` on a traced value: it depends on the traced arguments `params`, `x` of `clipped` "
         "(decorated with @jax.jit); this raises TracerBoolConversionError. Use `jax.lax.while_loop` "
         "(or `lax.fori_loop`)"),
        ("JAX201", "state.py", 9, 8, _why(["batch", "limit"], "eval_step")),
        ("JAX201", "state.py", 20, 12,
         "Python `if` on a traced value: it depends on the traced argument `x` of `predict` (decorated with "
         "@jax.jit); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
    ]


def test_haiku_decorated_transform_invalid(tmp_path, monkeypatch):
    infer = '''
        import haiku as hk
        import jax

        from nets import body


        @hk.transform
        def forward(x):
            return body(x)


        @jax.jit
        def infer(params, rng, x):
            out = forward.apply(params, rng, x)
            if out.max() > 1.0:
                out = out / 2
            return out
    '''
    files = {"infer.py": infer, "nets.py": "def body(x):\n    return x\n"}
    assert _lint(tmp_path, monkeypatch, files, select="JAX201") == [
        ("JAX201", "infer.py", 16, 8, _why(["params", "rng", "x"], "infer"))]


def test_train_state_unannotated_invalid_and_unknown_valid(tmp_path, monkeypatch):
    # not annotated: in a file that imports flax's TrainState, `apply_fn` is the state's;
    # in a file that does not, `state` is unknown and stays so
    flax_file = '''
        import jax
        from flax.training.train_state import TrainState


        @jax.jit
        def eval_step(state, batch):
            pred = state.apply_fn({"params": state.params}, batch["x"])
            if pred.max() > 1.0:
                pred = pred / 2
            return pred
    '''
    plain = flax_file.replace("from flax.training.train_state import TrainState\n", "")
    files = {"flax_step.py": flax_file, "plain_step.py": plain}
    assert _lint(tmp_path, monkeypatch, files, select="JAX201") == [
        ("JAX201", "flax_step.py", 9, 8, _why(["batch"], "eval_step"))]


def test_library_results_shapes_and_eager_valid(tmp_path, monkeypatch):
    state = '''
        import jax
        from flax.training import train_state


        @jax.jit
        def eval_step(state: train_state.TrainState, batch):
            pred = state.apply_fn({"params": state.params}, batch["x"])
            if pred.shape[0] > 1:
                pred = pred / 2
            return pred


        def evaluate(state: train_state.TrainState, batch):
            pred = state.apply_fn({"params": state.params}, batch["x"])
            if pred.max() > 1.0:
                print("large")
            return pred
    '''
    infer = '''
        import haiku as hk
        import jax

        from nets import forward
        from helpers import postprocess

        model = hk.transform(forward)


        def infer(params, rng, x):
            out = model.apply(params, rng, x)
            if out.max() > 1.0:
                out = out / 2
            return out


        @jax.jit
        def run(params, x):
            y = postprocess(params, x)
            if y is None:
                return x
            return y
    '''
    helpers = '''
        def postprocess(params, x):
            if params is None:
                return None
            return x
    '''
    files = {"state.py": state, "infer.py": infer, "helpers.py": helpers,
             "nets.py": "import haiku as hk\n\n\ndef forward(x):\n    return hk.nets.MLP([4, 1])(x)\n"}
    assert _lint(tmp_path, monkeypatch, files, select="JAX201") == []
