"""Which code runs traced (branch dispJ): calls the model could not follow.

* ``self.m(...)`` in a traced method reaches the overrides of ``m`` in the subclasses
  that inherit the calling method: in the same file, in other modules (project facts),
  through a subscripted generic base (``Environment[S, P]``), a grandchild class, and a
  subclass module that never names JAX (model/overrides.py, project/facts.py).
* ``jax.jit(env.step)`` with ``env`` an instance of a class of this file that inherits
  ``step`` from a base in another module: that base's method runs traced.

Each INVALID program has a VALID twin (the corrected code) that stays silent."""

from tests.project_files import lint_files


def _lint(tmp_path, monkeypatch, files, select="JAX201,JAX202,JAX204"):
    tmp_path.mkdir(parents=True, exist_ok=True)
    return lint_files(tmp_path, monkeypatch, files, select=select, dedent=True)


# --- self.m() dispatched to overrides: one file ----------------------------------------
# Source: bench/recall case 1310/1312 (gymnax Environment.step, jitted with static self,
# calls self.step_env; MinFreeway/MinAsterix override it), reduced to one file.
ONE_FILE = """\
    import functools
    import jax
    import jax.numpy as jnp


    class Env:
        @functools.partial(jax.jit, static_argnums=(0,))
        def step(self, key, state, action):
            return self.step_env(key, state, action)

        def step_env(self, key, state, action):
            raise NotImplementedError


    class Walk(Env):
        def step_env(self, key, state, action):
            {body}
"""


def test_override_one_file_invalid(tmp_path, monkeypatch):
    src = ONE_FILE.format(body="if state > 3:\n                return state\n            return state + action")
    assert _lint(tmp_path, monkeypatch, {"env.py": src}) == [
        ("JAX201", "env.py", 17, 12, "Python `if` on a traced value: it depends on the traced argument `state` "
         "of `step_env` (called from traced `step`); this raises TracerBoolConversionError. Use `jax.lax.cond` "
         "or `jnp.where`"),
    ]


def test_override_one_file_valid(tmp_path, monkeypatch):
    src = ONE_FILE.format(body="return jnp.where(state > 3, state, state + action)")
    assert _lint(tmp_path, monkeypatch, {"env.py": src}) == []


# --- across modules: a generic base, a module helper (gymnax 1310 shape) ---------------
# Source: bench/recall case 1310 (gymnax commit 0096e0e: step_agent returned
# win_cond.item() under the jitted Environment.step).
GENERIC_BASE = {
    "envs/__init__.py": "",
    "envs/base.py": """\
        import functools
        from typing import Generic, TypeVar

        import jax

        S = TypeVar("S")


        class Environment(Generic[S]):
            @functools.partial(jax.jit, static_argnums=(0,))
            def step(self, key, state, action):
                key, key_reset = jax.random.split(key)
                state, reward = self.step_env(key, state, action)
                return state, reward
    """,
    "envs/freeway.py": """\
        import jax.numpy as jnp

        from envs import base


        class Freeway(base.Environment[int]):
            def step_env(self, key, state, action):
                return step_agent(action, state)


        def step_agent(action, pos):
            pos = jnp.maximum(0, pos - action)
            win = pos == 0
            return pos, {ret}
    """,
}


def test_override_other_module_generic_base_invalid(tmp_path, monkeypatch):
    files = {**GENERIC_BASE, "envs/freeway.py": GENERIC_BASE["envs/freeway.py"].format(ret="win.item()")}
    assert _lint(tmp_path, monkeypatch, files) == [
        ("JAX202", "envs/freeway.py", 14, 17, "`.item()` needs a concrete value, but its argument is traced: it "
         "depends on the traced arguments `action`, `pos` of `step_agent` (called from traced `step_env`); this "
         "raises ConcretizationTypeError. Instead, keep it as an array, or return it and convert outside the "
         "traced function"),
    ]


def test_override_other_module_generic_base_valid(tmp_path, monkeypatch):
    files = {**GENERIC_BASE, "envs/freeway.py": GENERIC_BASE["envs/freeway.py"].format(ret="win")}
    assert _lint(tmp_path, monkeypatch, files) == []


# --- across modules: a grandchild in a module that never names JAX ---------------------
# Source: newuser17 pk4 (an `if` in a subclass override in another module) and REPORT
# problem 2 ("traced code reached through objects"); the subclass module imports no JAX.
GRANDCHILD = {
    "agents/__init__.py": "",
    "agents/base.py": """\
        import abc

        import jax


        class Agent(abc.ABC):
            @abc.abstractmethod
            def score(self, obs):
                ...

            def act(self, params, obs):
                return self.score(obs @ params)

            def compiled(self):
                return jax.jit(self.act)


        class Scaled(Agent):
            def score(self, logits):
                return logits * 2.0
    """,
    "agents/greedy.py": """\
        from agents.base import Scaled


        class Greedy(Scaled):
            threshold = 0.5

            def score(self, logits):
                {body}
    """,
}


def test_override_grandchild_module_without_jax_invalid(tmp_path, monkeypatch):
    files = {**GRANDCHILD, "agents/greedy.py": GRANDCHILD["agents/greedy.py"].format(
        body="if logits.max() > self.threshold:\n                    return logits\n                return -logits")}
    assert _lint(tmp_path, monkeypatch, files) == [
        ("JAX201", "agents/greedy.py", 8, 12, "Python `if` on a traced value: it depends on the traced argument "
         "`logits` of `score` (called from `Agent.act` (agents/base.py:12), which is wrapped by jax.jit); this "
         "raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
    ]


def test_override_grandchild_module_without_jax_valid(tmp_path, monkeypatch):
    # the caller overridden in the subclass: its own `act` (not jitted) calls `score`
    files = {**GRANDCHILD, "agents/greedy.py": GRANDCHILD["agents/greedy.py"].format(
        body="if logits.max() > self.threshold:\n                    return logits\n                return -logits")
        + "\n            def act(self, params, obs):\n                return self.score(obs @ params)\n"}
    assert _lint(tmp_path, monkeypatch, files) == []


# --- jax.jit(env.step): a class of this file inheriting `step` from another module -----
# Source: bench/recall case 1337 (navix Environment.step, `should_reset and not
# self.disable_autoreset` on a traced step type, jitted as `jax.jit(env.step)`).
INHERITED_STEP = {
    "nav/__init__.py": "",
    "nav/environment.py": """\
        import jax
        import jax.numpy as jnp


        class Environment:
            disable_autoreset = False

            def step(self, t, action):
                should_reset = t > 3
                return jax.lax.cond({test}, lambda t: t * 0, lambda t: t + action, t)
    """,
    "main.py": """\
        import jax
        import jax.numpy as jnp

        from nav.environment import Environment


        class Corridor(Environment):
            width = 4


        if __name__ == "__main__":
            env = Corridor()
            step = jax.jit(env.step)
            print(step(jnp.asarray(0), jnp.asarray(1)))
    """,
}


def test_jit_of_inherited_method_invalid(tmp_path, monkeypatch):
    files = {**INHERITED_STEP, "nav/environment.py": INHERITED_STEP["nav/environment.py"].format(
        test="should_reset and not self.disable_autoreset")}
    assert _lint(tmp_path, monkeypatch, files) == [
        ("JAX201", "nav/environment.py", 10, 29, "`and` converts its left operand to a Python bool, but it is "
         "traced: it depends on the traced argument `t` of `step` (wrapped by jax.jit in main.py); this raises "
         "TracerBoolConversionError. Use `jnp.logical_and` / `&`; or, if `t` is a Python value, mark it static "
         "(static_argnames='t')"),
    ]


def test_jit_of_inherited_method_valid(tmp_path, monkeypatch):
    files = {**INHERITED_STEP, "nav/environment.py": INHERITED_STEP["nav/environment.py"].format(
        test="jnp.logical_and(should_reset, not self.disable_autoreset)")}
    assert _lint(tmp_path, monkeypatch, files) == []


# --- super().m(...) in traced code ------------------------------------------------------
# Source: bench/recall case 1308 (deepqmc ResampledSampler.sample calls super().sample
# under the jitted sample_wf); the base's method runs under the same trace.
SUPER_ONE_FILE = """\
    import functools
    import jax
    import jax.numpy as jnp


    class Base:
        def update(self, x):
            {body}


    class Doubled(Base):
        @functools.partial(jax.jit, static_argnums=0)
        def update(self, x):
            return super().update(x) * 2
"""


def test_super_one_file_invalid(tmp_path, monkeypatch):
    src = SUPER_ONE_FILE.format(body="if x.sum() > 0:\n                return x\n            return -x")
    assert _lint(tmp_path, monkeypatch, {"m.py": src}) == [
        ("JAX201", "m.py", 8, 12, "Python `if` on a traced value: it depends on the traced argument `x` of "
         "`update` (called from traced `update`); this raises TracerBoolConversionError. Use `jax.lax.cond` or "
         "`jnp.where`"),
    ]


def test_super_one_file_valid(tmp_path, monkeypatch):
    src = SUPER_ONE_FILE.format(body="return jnp.where(x.sum() > 0, x, -x)")
    assert _lint(tmp_path, monkeypatch, {"m.py": src}) == []


SUPER_OTHER_MODULE = {
    "pk/__init__.py": "",
    "pk/base.py": """\
        import numpy as np


        class Sampler:
            def sample(self, state, x):
                return {expr} + state
    """,
    "pk/resampled.py": """\
        import functools
        import jax

        from pk.base import Sampler


        class Resampled(Sampler):
            @functools.partial(jax.jit, static_argnums=0)
            def sample(self, state, x):
                return super().sample(state, x * 2)
    """,
}


def test_super_other_module_without_jax_invalid(tmp_path, monkeypatch):
    files = {**SUPER_OTHER_MODULE, "pk/base.py": SUPER_OTHER_MODULE["pk/base.py"].format(expr="np.asarray(x)")}
    assert _lint(tmp_path, monkeypatch, files) == [
        ("JAX204", "pk/base.py", 6, 16, "`np.asarray` on a traced value (it depends on the traced argument `x` "
         "of `sample` (called from `Resampled.sample` (pk/resampled.py:10), which is wrapped by jax.jit)): NumPy "
         "converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.asarray` (jax.numpy) "
         "instead"),
    ]


def test_super_other_module_without_jax_valid(tmp_path, monkeypatch):
    files = {**SUPER_OTHER_MODULE, "pk/base.py": SUPER_OTHER_MODULE["pk/base.py"].format(expr="x")}
    assert _lint(tmp_path, monkeypatch, files) == []


# --- a factory's parameter called in its jitted inner function --------------------------
# Source: newuser17 p24_schedules (`if step < self.warmup` in a schedule subclass's
# `__call__`, the schedule handed to `make_train_step` and called in its jitted step).
SCHEDULE_ONE_FILE = """\
    import jax
    import jax.numpy as jnp


    class Schedule:
        def __call__(self, step):
            raise NotImplementedError


    class WarmupCosine(Schedule):
        def __init__(self, peak, warmup):
            self.peak, self.warmup = peak, warmup

        def __call__(self, step):
            {body}


    def make_train_step(schedule):
        @jax.jit
        def train_step(params, grads, step):
            return params - schedule(step) * grads
        return train_step


    step_fn = make_train_step(WarmupCosine(1e-3, 100))
"""


def test_factory_parameter_one_file_invalid(tmp_path, monkeypatch):
    src = SCHEDULE_ONE_FILE.format(body="if step < self.warmup:\n                return self.peak * step / "
                                        "self.warmup\n            return self.peak")
    assert _lint(tmp_path, monkeypatch, {"m.py": src}) == [
        ("JAX201", "m.py", 15, 12, "Python `if` on a traced value: it depends on the traced argument `step` of "
         "`__call__` (called from traced `train_step`); this raises TracerBoolConversionError. Use "
         "`jax.lax.cond` or `jnp.where`"),
    ]


def test_factory_parameter_one_file_valid(tmp_path, monkeypatch):
    src = SCHEDULE_ONE_FILE.format(body="return jnp.where(step < self.warmup, self.peak * step / self.warmup, "
                                        "self.peak)")
    assert _lint(tmp_path, monkeypatch, {"m.py": src}) == []


SCHEDULE_MODULES = {
    "opt/__init__.py": "",
    "opt/schedules.py": """\
        class Warmup:
            def __init__(self, warmup):
                self.warmup = warmup

            def __call__(self, step):
                {body}
    """,
    "opt/train.py": """\
        import jax


        def make_train_step(schedule):
            @jax.jit
            def train_step(params, grads, step):
                return params - schedule(step) * grads
            return train_step
    """,
    "main.py": """\
        from opt.schedules import Warmup
        from opt.train import make_train_step

        step_fn = make_train_step(Warmup(100))
    """,
}


def test_factory_parameter_three_modules_invalid(tmp_path, monkeypatch):
    files = {**SCHEDULE_MODULES, "opt/schedules.py": SCHEDULE_MODULES["opt/schedules.py"].format(
        body="if step < self.warmup:\n                    return step / self.warmup\n                return 1.0")}
    assert _lint(tmp_path, monkeypatch, files) == [
        ("JAX201", "opt/schedules.py", 6, 12, "Python `if` on a traced value: it depends on the traced argument "
         "`step` of `__call__` (called from `make_train_step.train_step` (opt/train.py:7), which is decorated "
         "with @jax.jit); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
    ]


def test_factory_parameter_three_modules_valid(tmp_path, monkeypatch):
    files = {**SCHEDULE_MODULES, "opt/schedules.py": SCHEDULE_MODULES["opt/schedules.py"].format(
        body="return step / max(self.warmup, 1)")}
    assert _lint(tmp_path, monkeypatch, files) == []


# --- a function of another module held by a haiku transform / an optax transformation ---
# Source: pkgrev17 p05_hk_print (`print` in a haiku forward of nets.py, `hk.transform` +
# `jax.jit(net.apply)` in train.py).
HK_NETS = """\
    import haiku as hk
    import jax


    def forward(x):
        h = jax.nn.relu(hk.Linear(16)(x))
        {show}
        return hk.Linear(2)(h)
"""
HK_BY_NAME = """\
    import haiku as hk
    import jax
    import jax.numpy as jnp
    from nets import forward

    net = hk.without_apply_rng(hk.transform(forward))
    params = net.init(jax.random.PRNGKey(0), jnp.ones((1, 4)))
    apply = jax.jit(net.apply)
    print(apply(params, jnp.ones((2, 4))))
"""
HK_BY_MODULE = """\
    import haiku as hk
    import jax
    import jax.numpy as jnp

    import nets

    net = hk.transform(nets.forward)
    params = net.init(jax.random.PRNGKey(0), jnp.ones((1, 4)))
    apply = jax.jit(net.apply)
    print(apply(params, jax.random.PRNGKey(1), jnp.ones((2, 4))))
"""
_HK_MESSAGE = ("`print` in traced `forward` runs once, at trace time, and prints a tracer (e.g. "
               "`JitTracer(float32[])`), not the values; later calls print nothing. Use "
               "`jax.debug.print(\"{}\", x)` to print runtime values")


def test_haiku_transform_of_imported_function_invalid(tmp_path, monkeypatch):
    nets = HK_NETS.format(show='print("hidden mean:", h.mean())')
    assert _lint(tmp_path / "a", monkeypatch, {"nets.py": nets, "train.py": HK_BY_NAME}, select="JAX401") == [
        ("JAX401", "nets.py", 7, 5, _HK_MESSAGE),
    ]
    assert _lint(tmp_path / "b", monkeypatch, {"nets.py": nets, "train.py": HK_BY_MODULE}, select="JAX401") == [
        ("JAX401", "nets.py", 7, 5, _HK_MESSAGE),
    ]


def test_haiku_transform_of_imported_function_valid(tmp_path, monkeypatch):
    nets = HK_NETS.format(show='jax.debug.print("hidden mean: {}", h.mean())')
    assert _lint(tmp_path / "a", monkeypatch, {"nets.py": nets, "train.py": HK_BY_NAME}, select="JAX401") == []
    assert _lint(tmp_path / "b", monkeypatch, {"nets.py": nets, "train.py": HK_BY_MODULE}, select="JAX401") == []


OPTAX_UPDATE = {
    "upd.py": """\
        def init_fn(params):
            return ()


        def update_fn(updates, state, params=None):
            {show}
            return updates, state
    """,
    "train.py": """\
        import jax
        import jax.numpy as jnp
        import optax

        import upd

        tx = optax.GradientTransformation(upd.init_fn, upd.update_fn)
        update = jax.jit(tx.update)
        print(update(jnp.ones(3), ()))
    """,
}


def test_optax_transformation_of_imported_functions_invalid(tmp_path, monkeypatch):
    files = {**OPTAX_UPDATE, "upd.py": OPTAX_UPDATE["upd.py"].format(show='print("updates", updates)')}
    assert _lint(tmp_path, monkeypatch, files, select="JAX401") == [
        ("JAX401", "upd.py", 6, 5, "`print` in traced `update_fn` runs once, at trace time, and prints a tracer "
         "(e.g. `JitTracer(float32[])`), not the values; later calls print nothing. Use "
         "`jax.debug.print(\"{}\", x)` to print runtime values"),
    ]


def test_optax_transformation_of_imported_functions_valid(tmp_path, monkeypatch):
    files = {**OPTAX_UPDATE, "upd.py": OPTAX_UPDATE["upd.py"].format(show="pass")}
    assert _lint(tmp_path, monkeypatch, files, select="JAX401") == []


# --- a flax linen module of another module applied in traced code returns tracers -------
# Source: pkgrev17 p03_numpy_metrics (`np.asarray(logits)` in utils/metrics.py, `logits =
# model.apply(params, x)` in the jitted eval_step of evaluate.py, the module in models.py).
LINEN = {
    "models.py": """\
        import flax.linen as nn


        class Classifier(nn.Module):
            n_classes: int = 4

            @nn.compact
            def __call__(self, x):
                return nn.Dense(self.n_classes)(nn.relu(nn.Dense(16)(x)))
    """,
    "utils/__init__.py": "",
    "utils/metrics.py": """\
        import numpy as np
        import jax.numpy as jnp


        def accuracy(logits, labels):
            preds = {conv}(logits).argmax(-1)
            return (preds == labels).mean()
    """,
    "evaluate.py": """\
        import jax
        import jax.numpy as jnp
        {imp}
        from utils.metrics import accuracy

        model = {ctor}()


        @jax.jit
        def eval_step(params, x, y):
            logits = model.apply(params, x)
            return accuracy(logits, y)
    """,
}


def _linen(conv, imp, ctor):
    return {**LINEN, "utils/metrics.py": LINEN["utils/metrics.py"].format(conv=conv),
            "evaluate.py": LINEN["evaluate.py"].format(imp=imp, ctor=ctor)}


_LINEN_MESSAGE = ("`np.asarray` on a traced value (it depends on the traced argument `logits` of `accuracy` "
                  "(called from `eval_step` (evaluate.py:12), which is decorated with @jax.jit)): NumPy converts "
                  "it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.asarray` (jax.numpy) "
                  "instead")


def test_linen_apply_of_imported_module_invalid(tmp_path, monkeypatch):
    assert _lint(tmp_path / "a", monkeypatch, _linen("np.asarray", "from models import Classifier", "Classifier")) \
        == [("JAX204", "utils/metrics.py", 6, 13, _LINEN_MESSAGE)]
    assert _lint(tmp_path / "b", monkeypatch, _linen("np.asarray", "import models", "models.Classifier")) \
        == [("JAX204", "utils/metrics.py", 6, 13, _LINEN_MESSAGE)]


def test_linen_apply_of_imported_module_valid(tmp_path, monkeypatch):
    assert _lint(tmp_path / "a", monkeypatch, _linen("jnp.asarray", "from models import Classifier", "Classifier")) == []
    assert _lint(tmp_path / "b", monkeypatch, _linen("jnp.asarray", "import models", "models.Classifier")) == []


# --- a helper of another module called from a function differentiated outside jit ------
# Source: bench/recall case 1328 (adept _initialize_distribution_ builds the distribution
# with NumPy from T0; main.py takes jax.grad of a function calling it; helpers.py never
# differentiates anything itself).
GRAD_HELPERS = """\
    import numpy as np


    def init_distribution(nv, T0=1.0):
        vax = np.linspace(-6.0, 6.0, nv)
        return {expr}, vax
"""
GRAD_BY_NAME = """\
    import jax
    import jax.numpy as jnp

    from helpers import init_distribution


    def energy(T0):
        f, vax = init_distribution(64, T0=T0)
        return jnp.sum(f * vax ** 2)


    print(jax.grad(energy)(1.0))
"""
GRAD_BY_MODULE = """\
    import jax
    import jax.numpy as jnp

    import helpers


    def energy(T0):
        f, vax = helpers.init_distribution(64, T0)
        return jnp.sum(f * vax ** 2)


    value, slope = jax.value_and_grad(energy)(1.0)
"""


def _grad_message(caller, line, how):
    return ("`np.sqrt` on a traced value (it depends on the traced argument `T0` of `init_distribution` (called "
            f"from `{caller}` (main.py:{line}), which is differentiated by {how})): NumPy converts it with "
            "`__array__()`, which raises TracerArrayConversionError. Use `jnp.sqrt` (jax.numpy) instead")


def test_helper_of_differentiated_function_invalid(tmp_path, monkeypatch):
    helpers = GRAD_HELPERS.format(expr="np.exp(-vax ** 2 / np.sqrt(T0))")
    assert _lint(tmp_path / "a", monkeypatch, {"helpers.py": helpers, "main.py": GRAD_BY_NAME}) == [
        ("JAX204", "helpers.py", 6, 31, _grad_message("energy", 8, "jax.grad")),
    ]
    assert _lint(tmp_path / "b", monkeypatch, {"helpers.py": helpers, "main.py": GRAD_BY_MODULE}) == [
        ("JAX204", "helpers.py", 6, 31, _grad_message("energy", 8, "jax.value_and_grad")),
    ]


def test_helper_of_differentiated_function_valid(tmp_path, monkeypatch):
    helpers = "import jax.numpy as jnp\n" + GRAD_HELPERS.format(expr="jnp.exp(-vax ** 2 / jnp.sqrt(T0))")
    assert _lint(tmp_path / "a", monkeypatch, {"helpers.py": helpers, "main.py": GRAD_BY_NAME}) == []
    assert _lint(tmp_path / "b", monkeypatch, {"helpers.py": helpers, "main.py": GRAD_BY_MODULE}) == []


# --- precision: the overrides a method reaches are those of the instances it runs on -----
# Source: fresh set 17 (rebayes): `Rebayes.scan` runs traced on a `RebayesSWEKF` built in
# a vmapped function of another module, and from the jitted `scan_state_batch` with `bel`
# given; `if bel is None: carry = self.init_bel(...)` then reaches `init_bel` only on the
# `RebayesSWEKF`, not on `RebayesEnKF` (which assigns `self.cov` there).
RECEIVERS = {
    "rb/__init__.py": "",
    "rb/base.py": """\
        from functools import partial

        import jax


        class Rebayes:
            def init_bel(self, m):
                raise NotImplementedError

            def scan(self, m, X, bel=None):
                carry = bel
                if bel is None:
                    carry = self.init_bel(m)
                return carry + X

            @partial(jax.jit, static_argnums=(0,))
            def scan_batch(self, bel, X):
                return self.scan(None, X, bel=bel)
    """,
    "rb/enkf.py": """\
        from rb.base import Rebayes


        class EnKF(Rebayes):
            def init_bel(self, m):
                self.cov = m
                return m
    """,
    "rb/swekf.py": """\
        from rb.base import Rebayes


        class SWEKF(Rebayes):
            def init_bel(self, m):
                {body}
    """,
    "main.py": """\
        import jax
        import jax.numpy as jnp

        from rb.swekf import SWEKF


        def run(m0, xs):
            est = SWEKF()
            return est.scan(m0, xs)


        print(jax.vmap(run)(jnp.ones(3), jnp.ones(3)))
    """,
}


def test_overrides_of_the_receivers_class_only_invalid(tmp_path, monkeypatch):
    files = {**RECEIVERS, "rb/swekf.py": RECEIVERS["rb/swekf.py"].format(
        body="if m > 0:\n                    return m\n                return -m")}
    assert _lint(tmp_path, monkeypatch, files, select="JAX201,JAX403") == [
        ("JAX201", "rb/swekf.py", 6, 12, "Python `if` on a traced value: it depends on the traced argument `m` of "
         "`init_bel` (called from `Rebayes.scan` (rb/base.py:13), which is called from `run` (main.py:9), which "
         "is wrapped by jax.vmap); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
    ]


def test_overrides_of_the_receivers_class_only_valid(tmp_path, monkeypatch):
    files = {**RECEIVERS, "rb/swekf.py": RECEIVERS["rb/swekf.py"].format(body="return abs(m)")}
    assert _lint(tmp_path, monkeypatch, files, select="JAX201,JAX403") == []
