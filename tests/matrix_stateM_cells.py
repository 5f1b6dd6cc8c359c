"""The cells of the stateM variation matrix (tests/test_matrix_stateM.py): state across
calls and modules.  Each cell: (row, column, files of the INVALID program, files of its
VALID twin (the fix)).  Rows are the ways JAX code carries state from one call to the
next; columns are where the pieces sit."""

from __future__ import annotations

# -- row global-write: `global n; n += 1` / `nonlocal` in traced code (JAX402) --------

GW_SAME = {"m.py": """\
import jax

calls = 0


@jax.jit
def step(x):
    global calls
    calls += 1
    return x * 2
"""}
GW_SAME_OK = {"m.py": """\
import jax

calls = 0


@jax.jit
def step(x):
    return x * 2


def run(x):
    global calls
    calls += 1
    return step(x)
"""}

GW_HELPER = {"m.py": """\
import jax

calls = 0


def bump():
    global calls
    calls += 1


@jax.jit
def step(x):
    bump()
    return x * 2
"""}
GW_HELPER_OK = {"m.py": """\
import jax

calls = 0


def bump():
    global calls
    calls += 1


@jax.jit
def step(x):
    return x * 2


def run(x):
    bump()
    return step(x)
"""}

GW_OTHER = {
    "pkg/__init__.py": "",
    "pkg/counters.py": """\
calls = 0


def bump():
    global calls
    calls += 1
""",
    "pkg/train.py": """\
import jax

from .counters import bump


@jax.jit
def step(x):
    bump()
    return x * 2
"""}
GW_OTHER_OK = {
    "pkg/__init__.py": "",
    "pkg/counters.py": GW_OTHER["pkg/counters.py"],
    "pkg/train.py": """\
import jax

from .counters import bump


@jax.jit
def step(x):
    return x * 2


def run(x):
    bump()
    return step(x)
"""}

GW_NONLOCAL = {"m.py": """\
import jax


def make_step():
    calls = 0

    @jax.jit
    def step(x):
        nonlocal calls
        calls += 1
        return x * 2
    return step
"""}
GW_NONLOCAL_OK = {"m.py": """\
import jax


def make_step():
    calls = 0

    @jax.jit
    def step(x):
        return x * 2

    def run(x):
        nonlocal calls
        calls += 1
        return step(x)
    return run
"""}

# -- row stale-global: a value read by a jitted function, changed between calls (JAX405)

SG_SAME = {"m.py": """\
import jax

SCALE = 1.0


@jax.jit
def scaled(x):
    return x * SCALE


if __name__ == "__main__":
    print(scaled(1.0))
    SCALE = 2.0
    print(scaled(1.0))
"""}
SG_SAME_OK = {"m.py": """\
import jax

SCALE = 1.0


@jax.jit
def scaled(x, scale):
    return x * scale


if __name__ == "__main__":
    print(scaled(1.0, SCALE))
    SCALE = 2.0
    print(scaled(1.0, SCALE))
"""}

SG_SETTER_SAME = {"m.py": """\
import jax

SCALE = 1.0


def set_scale(value):
    global SCALE
    SCALE = value


@jax.jit
def scaled(x):
    return x * SCALE


if __name__ == "__main__":
    print(scaled(1.0))
    set_scale(2.0)
    print(scaled(1.0))
"""}
SG_SETTER_SAME_OK = {"m.py": """\
import jax

SCALE = 1.0


def set_scale(value):
    global SCALE
    SCALE = value


@jax.jit
def scaled(x, scale):
    return x * scale


if __name__ == "__main__":
    print(scaled(1.0, SCALE))
    set_scale(2.0)
    print(scaled(1.0, SCALE))
"""}

_CONFIG_SETTER = """\
TEMPERATURE = 1.0


def set_temperature(value):
    global TEMPERATURE
    TEMPERATURE = value
"""
_SAMPLING = """\
import jax
import jax.numpy as jnp

from pkg import config


@jax.jit
def softmax_t(logits):
    return jax.nn.softmax(logits / config.TEMPERATURE)
"""
_SAMPLING_OK = """\
import jax
import jax.numpy as jnp


@jax.jit
def softmax_t(logits, temperature):
    return jax.nn.softmax(logits / temperature)
"""
SG_SETTER_OTHER = {
    "pkg/__init__.py": "",
    "pkg/config.py": _CONFIG_SETTER,
    "pkg/sampling.py": _SAMPLING,
    "main.py": """\
import jax.numpy as jnp

from pkg import config
from pkg.sampling import softmax_t

logits = jnp.arange(3.0)
print(softmax_t(logits))
config.set_temperature(0.1)
print(softmax_t(logits))
"""}
SG_SETTER_OTHER_OK = {
    "pkg/__init__.py": "",
    "pkg/config.py": _CONFIG_SETTER,
    "pkg/sampling.py": _SAMPLING_OK,
    "main.py": """\
import jax.numpy as jnp

from pkg import config
from pkg.sampling import softmax_t

logits = jnp.arange(3.0)
print(softmax_t(logits, config.TEMPERATURE))
config.set_temperature(0.1)
print(softmax_t(logits, config.TEMPERATURE))
"""}

# the setter imported by name, the setter in a module of its own (`from pkg.config import set_temperature`)
SG_SETTER_FROM = {
    "pkg/__init__.py": "",
    "pkg/config.py": _CONFIG_SETTER,
    "pkg/sampling.py": _SAMPLING,
    "main.py": """\
import jax.numpy as jnp

from pkg.config import set_temperature
from pkg.sampling import softmax_t

logits = jnp.arange(3.0)
print(softmax_t(logits))
set_temperature(0.1)
print(softmax_t(logits))
"""}
SG_SETTER_FROM_OK = {**SG_SETTER_FROM, "pkg/sampling.py": _SAMPLING_OK, "main.py": """\
import jax.numpy as jnp

from pkg import config
from pkg.config import set_temperature
from pkg.sampling import softmax_t

logits = jnp.arange(3.0)
print(softmax_t(logits, config.TEMPERATURE))
set_temperature(0.1)
print(softmax_t(logits, config.TEMPERATURE))
"""}

SG_ATTR_OTHER = {
    "pkg/__init__.py": "",
    "pkg/config.py": "TEMPERATURE = 1.0\n",
    "pkg/sampling.py": _SAMPLING,
    "main.py": """\
import jax.numpy as jnp

from pkg import config
from pkg.sampling import softmax_t

logits = jnp.arange(3.0)
print(softmax_t(logits))
config.TEMPERATURE = 0.1
print(softmax_t(logits))
"""}
SG_ATTR_OTHER_OK = {**SG_ATTR_OTHER, "pkg/sampling.py": _SAMPLING_OK, "main.py": """\
import jax.numpy as jnp

from pkg import config
from pkg.sampling import softmax_t

logits = jnp.arange(3.0)
print(softmax_t(logits, config.TEMPERATURE))
config.TEMPERATURE = 0.1
print(softmax_t(logits, config.TEMPERATURE))
"""}

SG_SETATTR_OTHER = {**SG_ATTR_OTHER, "main.py": """\
import jax.numpy as jnp

from pkg import config
from pkg.sampling import softmax_t

logits = jnp.arange(3.0)
print(softmax_t(logits))
setattr(config, "TEMPERATURE", 0.1)
print(softmax_t(logits))
"""}
SG_SETATTR_OTHER_OK = {**SG_ATTR_OTHER, "pkg/sampling.py": _SAMPLING_OK, "main.py": """\
import jax.numpy as jnp

from pkg import config
from pkg.sampling import softmax_t

logits = jnp.arange(3.0)
print(softmax_t(logits, config.TEMPERATURE))
setattr(config, "TEMPERATURE", 0.1)
print(softmax_t(logits, config.TEMPERATURE))
"""}

SG_OBJ_ATTR = {"m.py": """\
import jax


class Config:
    mul = 2.0


c = Config()


@jax.jit
def f(x):
    return x * c.mul


if __name__ == "__main__":
    print(f(1.0))
    c.mul = 3.0
    print(f(1.0))
"""}
SG_OBJ_ATTR_OK = {"m.py": """\
import jax


class Config:
    mul = 2.0


c = Config()


@jax.jit
def f(x, mul):
    return x * mul


if __name__ == "__main__":
    print(f(1.0, c.mul))
    c.mul = 3.0
    print(f(1.0, c.mul))
"""}

SG_LIST = {"m.py": """\
import jax

WEIGHTS = [1.0, 2.0]


@jax.jit
def total(x):
    return x * sum(WEIGHTS)


if __name__ == "__main__":
    print(total(1.0))
    WEIGHTS.append(3.0)
    print(total(1.0))
"""}
SG_LIST_OK = {"m.py": """\
import jax

WEIGHTS = [1.0, 2.0]


@jax.jit
def total(x, weights):
    return x * sum(weights)


if __name__ == "__main__":
    print(total(1.0, WEIGHTS))
    WEIGHTS.append(3.0)
    print(total(1.0, WEIGHTS))
"""}

SG_LIST_OTHER = {
    "pkg/__init__.py": "",
    "pkg/config.py": "WEIGHTS = [1.0, 2.0]\n",
    "pkg/model.py": """\
import jax

from pkg.config import WEIGHTS


@jax.jit
def total(x):
    return x * sum(WEIGHTS)
""",
    "main.py": """\
from pkg.config import WEIGHTS
from pkg.model import total

print(total(1.0))
WEIGHTS.append(3.0)
print(total(1.0))
"""}
SG_LIST_OTHER_OK = {**SG_LIST_OTHER, "pkg/model.py": """\
import jax


@jax.jit
def total(x, weights):
    return x * sum(weights)
""", "main.py": """\
from pkg.config import WEIGHTS
from pkg.model import total

print(total(1.0, WEIGHTS))
WEIGHTS.append(3.0)
print(total(1.0, WEIGHTS))
"""}

# -- row key reuse across loop iterations (JAX301) -----------------------------------

KEY_IN_LOOP = {"m.py": """\
import jax

for step in range(3):
    key = jax.random.PRNGKey(0)
    noise = jax.random.normal(key, (3,))
    print(noise)
"""}
KEY_IN_LOOP_OK = {"m.py": """\
import jax

key = jax.random.PRNGKey(0)
for step in range(3):
    key, sub = jax.random.split(key)
    noise = jax.random.normal(sub, (3,))
    print(noise)
"""}

KEY_JIT_STEP = {"m.py": """\
import jax


@jax.jit
def step(params, key):
    return params + jax.random.normal(key, params.shape)


params = jax.numpy.zeros(3)
key = jax.random.PRNGKey(0)
for i in range(3):
    params = step(params, key)
"""}
KEY_JIT_STEP_OK = {"m.py": """\
import jax


@jax.jit
def step(params, key):
    return params + jax.random.normal(key, params.shape)


params = jax.numpy.zeros(3)
key = jax.random.PRNGKey(0)
for i in range(3):
    key, sub = jax.random.split(key)
    params = step(params, sub)
"""}

KEY_JIT_STEP_OTHER = {
    "pkg/__init__.py": "",
    "pkg/steps.py": """\
import jax


@jax.jit
def step(params, key):
    return params + jax.random.normal(key, params.shape)
""",
    "train.py": """\
import jax

from pkg.steps import step

params = jax.numpy.zeros(3)
key = jax.random.PRNGKey(0)
for i in range(3):
    params = step(params, key)
"""}
KEY_JIT_STEP_OTHER_OK = {**KEY_JIT_STEP_OTHER, "train.py": """\
import jax

from pkg.steps import step

params = jax.numpy.zeros(3)
key = jax.random.PRNGKey(0)
for i in range(3):
    key, sub = jax.random.split(key)
    params = step(params, sub)
"""}

KEY_CLOSURE = {"m.py": """\
import jax

key = jax.random.PRNGKey(0)


def noise(shape):
    return jax.random.normal(key, shape)


a = noise((3,))
b = noise((3,))
"""}
KEY_CLOSURE_OK = {"m.py": """\
import jax


def noise(key, shape):
    return jax.random.normal(key, shape)


ka, kb = jax.random.split(jax.random.PRNGKey(0))
a = noise(ka, (3,))
b = noise(kb, (3,))
"""}

# -- row recompilation (JAX501 / JAX504 / JAX207) ------------------------------------

JIT_LAMBDA_LOOP = {"m.py": """\
import jax
import jax.numpy as jnp

x = jnp.ones(3)
for i in range(3):
    x = jax.jit(lambda v: v * 2)(x)
"""}
JIT_LAMBDA_LOOP_OK = {"m.py": """\
import jax
import jax.numpy as jnp

double = jax.jit(lambda v: v * 2)
x = jnp.ones(3)
for i in range(3):
    x = double(x)
"""}

JIT_PARTIAL_LOOP = {"m.py": """\
from functools import partial

import jax
import jax.numpy as jnp


def scale(v, factor):
    return v * factor


x = jnp.ones(3)
for i in range(3):
    x = jax.jit(partial(scale, factor=2.0))(x)
"""}
JIT_PARTIAL_LOOP_OK = {"m.py": """\
from functools import partial

import jax
import jax.numpy as jnp


def scale(v, factor):
    return v * factor


scale2 = jax.jit(partial(scale, factor=2.0))
x = jnp.ones(3)
for i in range(3):
    x = scale2(x)
"""}

_FACTORY = """\
import jax


def make_update(lr):
    @jax.jit
    def update(p):
        return p - lr * p
    return update
"""
JIT_FACTORY_SAME = {"m.py": _FACTORY + """

p = jax.numpy.ones(3)
for i in range(3):
    update = make_update(0.1)
    p = update(p)
"""}
JIT_FACTORY_SAME_OK = {"m.py": _FACTORY + """

p = jax.numpy.ones(3)
update = make_update(0.1)
for i in range(3):
    p = update(p)
"""}
JIT_FACTORY_OTHER = {
    "pkg/__init__.py": "",
    "pkg/steps.py": _FACTORY,
    "train.py": """\
import jax

from pkg import steps

p = jax.numpy.ones(3)
for i in range(3):
    update = steps.make_update(0.1)
    p = update(p)
"""}
JIT_FACTORY_OTHER_OK = {**JIT_FACTORY_OTHER, "train.py": """\
import jax

from pkg import steps

p = jax.numpy.ones(3)
update = steps.make_update(0.1)
for i in range(3):
    p = update(p)
"""}

STATIC_COUNTER = {"m.py": """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def step(x, i):
    return x * i


x = jnp.ones(3)
for i in range(100):
    x = step(x, i)
"""}
STATIC_COUNTER_OK = {"m.py": """\
import jax
import jax.numpy as jnp


@jax.jit
def step(x, i):
    return x * i


x = jnp.ones(3)
for i in range(100):
    x = step(x, i)
"""}

_STATIC_MODEL = """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("sizes",))
def forward(x, sizes):
    return x * len(sizes)
"""
UNHASHABLE_SAME = {"m.py": _STATIC_MODEL + """

print(forward(jnp.ones(3), sizes=[1, 2]))
"""}
UNHASHABLE_SAME_OK = {"m.py": _STATIC_MODEL + """

print(forward(jnp.ones(3), sizes=(1, 2)))
"""}
UNHASHABLE_OTHER = {
    "pkg/__init__.py": "",
    "pkg/model.py": _STATIC_MODEL,
    "main.py": """\
import jax.numpy as jnp

from pkg.model import forward

print(forward(jnp.ones(3), sizes=[1, 2]))
"""}
UNHASHABLE_OTHER_OK = {**UNHASHABLE_OTHER, "main.py": """\
import jax.numpy as jnp

from pkg.model import forward

print(forward(jnp.ones(3), sizes=(1, 2)))
"""}

# -- row timing without block_until_ready (JAX505) -----------------------------------

_TIMED_STEP = """\
import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    return x @ x
"""
TIMING_SAME = {"m.py": _TIMED_STEP + """

x = jnp.ones((256, 256))
import time
t0 = time.perf_counter()
y = step(x)
print(time.perf_counter() - t0)
"""}
TIMING_SAME_OK = {"m.py": _TIMED_STEP + """

x = jnp.ones((256, 256))
import time
t0 = time.perf_counter()
y = step(x).block_until_ready()
print(time.perf_counter() - t0)
"""}
TIMING_OTHER = {
    "pkg/__init__.py": "",
    "pkg/model.py": _TIMED_STEP,
    "bench.py": """\
import time

import jax.numpy as jnp

from pkg.model import step

x = jnp.ones((256, 256))
t0 = time.perf_counter()
y = step(x)
print(time.perf_counter() - t0)
"""}
TIMING_OTHER_OK = {**TIMING_OTHER, "bench.py": """\
import time

import jax.numpy as jnp

from pkg.model import step

x = jnp.ones((256, 256))
t0 = time.perf_counter()
y = step(x).block_until_ready()
print(time.perf_counter() - t0)
"""}

# -- row discarded functional update (JAX102) ----------------------------------------

DISCARD_SAME = {"m.py": """\
import jax
import jax.numpy as jnp


@jax.jit
def reset(x):
    x.at[0].set(0.0)
    return x
"""}
DISCARD_SAME_OK = {"m.py": """\
import jax
import jax.numpy as jnp


@jax.jit
def reset(x):
    x = x.at[0].set(0.0)
    return x
"""}
DISCARD_LOOP = {"m.py": """\
import jax.numpy as jnp

x = jnp.zeros(4)
for i in range(4):
    x.at[i].add(1.0)
print(x)
"""}
DISCARD_LOOP_OK = {"m.py": """\
import jax.numpy as jnp

x = jnp.zeros(4)
for i in range(4):
    x = x.at[i].add(1.0)
print(x)
"""}

# -- row x64: enabled by another entry point only (JAX110) ---------------------------

X64_OTHER_ENTRY = {
    "pkg/__init__.py": "",
    "pkg/precision.py": """\
import jax.numpy as jnp


def accumulate(x):
    return jnp.asarray(x, dtype=jnp.float64).sum()
""",
    "main.py": """\
from pkg.precision import accumulate

print(accumulate([1.0, 2.0]).dtype)
""",
    "tools/export_f64.py": """\
import jax

jax.config.update("jax_enable_x64", True)

from pkg.precision import accumulate

print(accumulate([1.0, 2.0]).dtype)
"""}
X64_OTHER_ENTRY_OK = {**X64_OTHER_ENTRY, "main.py": """\
import jax

jax.config.update("jax_enable_x64", True)

from pkg.precision import accumulate

print(accumulate([1.0, 2.0]).dtype)
"""}

# the setter and the jitted reader in one library module, the driver in another
_SAMPLING_SETTER = """\
import jax

TEMPERATURE = 1.0


def set_temperature(value):
    global TEMPERATURE
    TEMPERATURE = value


@jax.jit
def softmax_t(logits):
    return jax.nn.softmax(logits / TEMPERATURE)
"""
SG_SETTER_LIB = {
    "pkg/__init__.py": "",
    "pkg/sampling.py": _SAMPLING_SETTER,
    "main.py": """\
import jax.numpy as jnp

from pkg import sampling

logits = jnp.arange(3.0)
print(sampling.softmax_t(logits))
sampling.set_temperature(0.1)
print(sampling.softmax_t(logits))
"""}
SG_SETTER_LIB_OK = {**SG_SETTER_LIB, "main.py": """\
import jax.numpy as jnp

from pkg import sampling

logits = jnp.arange(3.0)
sampling.set_temperature(0.1)
print(sampling.softmax_t(logits))
print(sampling.softmax_t(logits))
"""}

# a dict counter updated by a helper of another module (absolute import), under eqx.filter_jit
GW_ITEM_OTHER = {
    "pkg/__init__.py": "",
    "pkg/stats.py": """\
STATS = {"calls": 0}


def record():
    STATS["calls"] += 1
""",
    "pkg/train.py": """\
import equinox as eqx

from pkg.stats import record


@eqx.filter_jit
def step(model, x):
    record()
    return model(x)
"""}
GW_ITEM_OTHER_OK = {**GW_ITEM_OTHER, "pkg/train.py": """\
import equinox as eqx

from pkg.stats import record


@eqx.filter_jit
def step(model, x):
    return model(x)


def run(model, x):
    record()
    return step(model, x)
"""}

# a factory returning `jax.jit(inner)`, its result called at once, in a while loop of a function
JIT_FACTORY_DIRECT = {"m.py": """\
import jax


def make_update(lr):
    def update(p):
        return p - lr * p
    return jax.jit(update)


def train(p, steps):
    i = 0
    while i < steps:
        p = make_update(0.1)(p)
        i += 1
    return p
"""}
JIT_FACTORY_DIRECT_OK = {"m.py": """\
import jax


def make_update(lr):
    def update(p):
        return p - lr * p
    return jax.jit(update)


def train(p, steps):
    update = make_update(0.1)
    i = 0
    while i < steps:
        p = update(p)
        i += 1
    return p
"""}
