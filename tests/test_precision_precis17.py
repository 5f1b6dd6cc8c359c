"""False findings the reviewers found on fresh set 16 (after last round's fixes), by
mechanism, each VALID shape written at least two ways, with INVALID twins that must still
be reported.

* A. JAX201 on a linen `__call__` parameter every caller fills with a static value
  (jax-resnet `jax_resnet/resnet.py:56` and `:72`: `ResNetSkipConnection` and
  `ResNetDSkipConnection`, held by the block classes as a field holding the class itself,
  `skip_cls: ModuleDef = ResNetSkipConnection`, built where it is applied:
  `partial(self.skip_cls, conv_block_cls=...)(self.strides)(x, y.shape)`).  The calls of
  a module class's `__call__` that other module classes of the file make through such a
  field (directly, `self.skip_cls(s)(x, y.shape)`, or through a local bound to it or to a
  `partial` of it; also for a subclass that inherits the method) are its callers: a
  parameter they all fill with a shape is no tracer.  Still reported: a caller that passes
  an array, and a module built and kept (`skip = self.skip_cls(s)`; `skip(x, ...)`: called
  where the model does not look, traced as before).
* G. JAX207's advice when the call passes an argument too many (Kinetix
  `kinetix/environment/ued/distributions.py:288`): the message names the cause.
* E. JAX120 in a clu metric's `compute` (perch `chirp/models/class_average.py:54`): not
  differentiated unless a differentiated function of the file calls it.
"""

from __future__ import annotations

from project_files import lint_files


def _lint(tmp_path, monkeypatch, files, select=""):
    tmp_path.mkdir(parents=True, exist_ok=True)
    return lint_files(tmp_path, monkeypatch, files, select=select, dedent=True)


# ---------------------------------------------------------------- A: a module class held as a field

# VALID: `Skip` through `partial(self.skip_cls, ...)` bound to a local, `StSkip` (inheriting
# `DSkip.__call__`) through `self.skip_cls(...)` applied at once; both given `y.shape`
# (jax.jit(Block(4).apply) and jax.jit(StBlock(4).apply) run: (1, 8, 8, 4))
_HELD = '''
    from functools import partial
    from typing import Any, Tuple

    from flax import linen as nn

    ModuleDef = Any


    class Skip(nn.Module):
        strides: Tuple[int, int]
        conv_cls: ModuleDef = nn.Conv

        @nn.compact
        def __call__(self, x, out_shape):
            if x.shape != out_shape:
                x = self.conv_cls(out_shape[-1], (1, 1), strides=self.strides)(x)
            return x


    class DSkip(nn.Module):
        strides: Tuple[int, int]

        @nn.compact
        def __call__(self, x, out_shape):
            if x.shape[-1] != out_shape[-1]:
                x = nn.Conv(out_shape[-1], (1, 1), strides=self.strides)(x)
            return x


    class StSkip(DSkip):
        pass


    class Block(nn.Module):
        n_hidden: int
        conv_cls: ModuleDef = nn.Conv
        skip_cls: ModuleDef = Skip

        @nn.compact
        def __call__(self, x):
            skip_cls = partial(self.skip_cls, conv_cls=self.conv_cls)
            y = self.conv_cls(self.n_hidden, (3, 3))(x)
            return nn.relu(y + skip_cls((1, 1))(x, y.shape))


    class StBlock(nn.Module):
        n_hidden: int
        skip_cls: ModuleDef = StSkip

        @nn.compact
        def __call__(self, x):
            y = nn.Conv(self.n_hidden, (3, 3))(x)
            return nn.relu(y + self.skip_cls((1, 1))(x, y.shape))
'''

# INVALID: the caller passes an array (`y.max(axis=(0, 1, 2))`): under jax.jit(Block(4).apply)
# TracerBoolConversionError: Attempted boolean conversion of traced array with shape bool[].
_HELD_ARRAY = '''
    from functools import partial
    from typing import Any, Tuple

    from flax import linen as nn

    ModuleDef = Any


    class DSkip(nn.Module):
        strides: Tuple[int, int]

        @nn.compact
        def __call__(self, x, out_shape):
            if x.shape[-1] != out_shape[-1]:
                x = nn.Conv(4, (1, 1), strides=self.strides)(x)
            return x


    class StSkip(DSkip):
        pass


    class Block(nn.Module):
        n_hidden: int
        conv_cls: ModuleDef = nn.Conv
        skip_cls: ModuleDef = DSkip

        @nn.compact
        def __call__(self, x):
            skip_cls = partial(self.skip_cls)
            y = self.conv_cls(self.n_hidden, (3, 3))(x)
            return nn.relu(y + skip_cls((1, 1))(x, y.max(axis=(0, 1, 2))))
'''

# INVALID: the module built and kept (`skip = self.skip_cls((1, 1))`), then given an array
# (the same TracerBoolConversionError under jax.jit(StBlock(4).apply))
_HELD_KEPT = '''
    from functools import partial
    from typing import Any, Tuple

    from flax import linen as nn

    ModuleDef = Any


    class DSkip(nn.Module):
        strides: Tuple[int, int]

        @nn.compact
        def __call__(self, x, out_shape):
            if x.shape[-1] != out_shape[-1]:
                x = nn.Conv(4, (1, 1), strides=self.strides)(x)
            return x


    class StSkip(DSkip):
        pass


    class StBlock(nn.Module):
        n_hidden: int
        skip_cls: ModuleDef = StSkip

        @nn.compact
        def __call__(self, x):
            y = nn.Conv(self.n_hidden, (3, 3))(x)
            skip = self.skip_cls((1, 1))
            return nn.relu(y + skip(x, y.max(axis=(0, 1, 2))))
'''

_DSKIP_MSG = "Python `if` on a traced value: it depends on the traced argument `out_shape` of `__call__` (a method of the module class DSkip); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"


def test_module_class_held_as_a_field_given_shapes_is_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"blocks.py": _HELD}, "JAX201") == []


def test_module_class_held_as_a_field_given_an_array_is_reported(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"blocks.py": _HELD_ARRAY}, "JAX201") == [
        ("JAX201", "blocks.py", 15, 12, _DSKIP_MSG)]


def test_module_class_built_and_kept_is_reported(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"blocks.py": _HELD_KEPT}, "JAX201") == [
        ("JAX201", "blocks.py", 15, 12, _DSKIP_MSG)]


# ---------------------------------------------------------------- G: JAX207's advice for an argument too many
# Kinetix kinetix/environment/ued/distributions.py:288: `create_empty_env(env_params,
# static_env_params)` for `def create_empty_env(static_env_params)` jitted with
# static_argnums=(0,): the tracer in the static position is an argument too many (both
# reviews: right diagnosis; the advice names the cause).  Written across modules and in one
# file through `jax.jit(f, static_argnums=0)`; the call that fits the signature is silent.

_UTILS = '''
    from functools import partial

    import jax
    import jax.numpy as jnp


    @partial(jax.jit, static_argnums=(0,))
    def create_empty_env(static_env_params):
        return jnp.zeros(static_env_params.num_polygons)
'''

# INVALID (jax 0.10: ValueError: Non-hashable static arguments are not supported; with the
# struct made concrete, TypeError: create_empty_env() takes 1 positional argument but 2 were given)
_DIST = '''
    from functools import partial

    import jax

    from utils import create_empty_env


    @partial(jax.jit, static_argnums=(2,))
    def create_random_starting_distribution(rng, env_params, static_env_params):
        state = create_empty_env(env_params, static_env_params)
        return state + jax.random.uniform(rng)
'''

# VALID: the call the project makes elsewhere (create_empty_env(static_env_params))
_DIST_OK = '''
    from functools import partial

    import jax

    from utils import create_empty_env


    @partial(jax.jit, static_argnums=(2,))
    def create_random_starting_distribution(rng, env_params, static_env_params):
        state = create_empty_env(static_env_params)
        return state + jax.random.uniform(rng)
'''

# INVALID: reset({"bias": jnp.ones(3)}, (3,)) raises ValueError (the dict in the static
# position); `reset_ok` calls it as its signature says
_SINGLE = '''
    import jax
    import jax.numpy as jnp


    def _empty(sizes):
        return jnp.zeros(sizes[0])


    empty = jax.jit(_empty, static_argnums=0)


    @jax.jit
    def reset(params, sizes):
        return empty(params, sizes) + params["bias"]


    def reset_ok(params):
        return empty((3,)) + params["bias"]
'''


def test_static_argument_too_many_names_the_extra_argument(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"utils.py": _UTILS, "dist.py": _DIST}, "JAX207") == [
        ("JAX207", "dist.py", 11, 30, 'A tracer is passed to `create_empty_env` in a static position (parameter `static_env_params`; static_argnums=0): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, `create_empty_env` takes 1 positional argument but the call passes 2 (TypeError once the static ones hash): pass only the arguments its signature names'),
        # the declaration too, told by dist.py's call (statC: a tracer from another module)
        ("JAX207", "utils.py", 8, 2, '`create_empty_env` declares `static_env_params` static (static_argnums=0), but other modules pass a tracer for `static_env_params` (a call in dist.py): static arguments must be hashable, so those calls raise ValueError: Non-hashable static arguments are not supported. Instead, leave it out of the static arguments (traced), or pass a hashable value (tuple, int, str)')]


def test_static_argument_call_that_fits_is_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"utils.py": _UTILS, "dist.py": _DIST_OK}, "JAX207") == []


def test_static_argument_too_many_in_one_file(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"single.py": _SINGLE}, "JAX207") == [
        ("JAX207", "single.py", 15, 18, 'A tracer is passed to `empty` in a static position (parameter `sizes`; static_argnums=0): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, `empty` takes 1 positional argument but the call passes 2 (TypeError once the static ones hash): pass only the arguments its signature names')]


# ---------------------------------------------------------------- E: JAX120 in a clu metric's compute
# perch chirp/models/class_average.py:54: `ClassAverage(metrics.Metric).compute()` averages
# accumulated totals per class behind `jnp.where(self.count > 0, ...)`; clu calls a metric's
# `compute` to report what it accumulated, never under a derivative (both reviews).  A method
# of a subclass of a `clu.metrics` class (directly, `from clu import metrics`; or through a
# base of the file over `clu.metrics.Average`, `import clu.metrics as clu_metrics`) is not
# differentiated.  Still reported: the same `where` in a plain class's method a loss calls
# under jax.grad, and a metric's `compute` that a differentiated function of the file calls
# (jax.grad(objective) with `objective` returning `Mean(...).compute()`: the gradient is
# [1. nan 0.5] with clu's base replaced by `object`, jax 0.10).

_AVG = '''
    from typing import Any

    import flax
    from clu import metrics
    from jax import numpy as jnp


    @flax.struct.dataclass
    class ClassAverage(metrics.Metric):
        total: jnp.ndarray
        count: jnp.ndarray

        def merge(self, other):
            return type(self)(total=self.total + other.total, count=self.count + other.count)

        def compute(self) -> Any:
            class_means = jnp.where(self.count > 0, self.total / self.count, 0.0)
            return jnp.sum(class_means) / jnp.sum(self.count > 0)
'''

_RATIO = '''
    import clu.metrics as clu_metrics
    import flax
    import jax
    import jax.numpy as jnp
    import optax


    @flax.struct.dataclass
    class _Base(clu_metrics.Average):
        pass


    @flax.struct.dataclass
    class Ratio(_Base):
        def compute(self):
            return jnp.where(self.count > 0, self.total / self.count, 0.0)


    class Loss:
        def value(self, total, count):
            return jnp.where(count > 0, total / count, 0.0)


    def loss_fn(total, count):
        return Loss().value(total, count).sum()


    grads = jax.grad(loss_fn)(jnp.ones(3), jnp.zeros(3))
    tx = optax.sgd(0.1)
'''

_DIFFD = '''
    import flax
    import jax
    import jax.numpy as jnp
    from clu import metrics


    @flax.struct.dataclass
    class Mean(metrics.Metric):
        total: jnp.ndarray
        count: jnp.ndarray

        def compute(self):
            return jnp.where(self.count > 0, self.total / self.count, 0.0).sum()


    def objective(total, count):
        return Mean(total=total, count=count).compute()


    grads = jax.grad(objective)(jnp.ones(3), jnp.array([1.0, 0.0, 2.0]))
    print(grads)
'''


def test_clu_metric_compute_is_not_differentiated(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"avg.py": _AVG, "ratio.py": _RATIO}, "JAX120") == [
        ("JAX120", "ratio.py", 22, 37, '`total / count` is computed for every element, also where `count > 0` is false and masks it out; its derivative is infinite/NaN where `count` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `count` with the same condition too (double where: `jnp.where(cond, count, 1.0)` inside)')]


def test_clu_metric_compute_differentiated_by_the_file_is_reported(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"avg.py": _AVG, "diffd.py": _DIFFD}, "JAX120") == [
        ("JAX120", "diffd.py", 14, 42, '`self.total / self.count` is computed for every element, also where `self.count > 0` is false and masks it out; its derivative is infinite/NaN where `self.count` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `self.count` with the same condition too (double where: `jnp.where(cond, self.count, 1.0)` inside)')]
