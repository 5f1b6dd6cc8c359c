"""Mechanisms of depD's round (deprecated-api, impure-print, donated-buffer).

1. JAX506 through a jit of another module (re-exported by a package): a donated pytree
   display holding one JAX array twice, and a donated name the loop never rebinds.
   jax 0.10.2 on CPU: `INVALID_ARGUMENT: Attempt to donate the same buffer twice in
   Execute()` and, on the second iteration, `INVALID_ARGUMENT: ... Buffer has been deleted
   or donated`; the VALID twin (a copy in the second leaf, the loop rebinding the name) runs.
2. `jax.experimental.jet.jet` traces its function now (jax 0.10.2: `if x > 0` in it raises
   TracerBoolConversionError, a print shows `JetTracer<~float32[]>`).
3. JAX401: a text-only print in a `@jit` def that another module calls in a loop prints once.
"""

from tests.project_files import lint_files

TRAINER = (
    "from functools import partial\n"
    "\n"
    "import jax\n"
    "\n"
    "\n"
    "@partial(jax.jit, donate_argnums=(0,))\n"
    "def update(state, lr):\n"
    "    return jax.tree.map(lambda a: a - lr, state)\n"
)

MAIN = (
    "import jax.numpy as jnp\n"
    "\n"
    "from trainer import update\n"
    "\n"
    "\n"
    "def train(n):\n"
    "    params = jnp.zeros(4)\n"
    "    state = {'params': params, 'ema': params}\n"
    "    state = update(state, 0.1)\n"
    "    x = jnp.ones(3)\n"
    "    for _ in range(n):\n"
    "        out = update(x, 0.1)\n"
    "    return state, out\n"
)

VALID = (MAIN.replace("'ema': params}", "'ema': jnp.copy(params)}")
        .replace("        out = update(x, 0.1)\n", "        x = update(x, 0.1)\n")
        .replace("return state, out", "return state, x"))


def test_donated_pytree_twice_and_donated_in_a_loop_through_an_imported_jit(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {
        "trainer/__init__.py": "from trainer.step import update\n",
        "trainer/step.py": TRAINER,
        "main.py": MAIN,
        "valid.py": VALID,
    }, select="JAX506")
    assert found == [
        ("JAX506", "main.py", 9, 20,
         "the donated argument `state` holds `params` twice (bound together on line 8): JAX refuses to donate one "
         "buffer twice, `JaxRuntimeError: INVALID_ARGUMENT: Attempt to donate the same buffer twice`. Hold a copy "
         "in one of the places (`jnp.copy`, `jax.tree.map(jnp.copy, ...)`) or don't donate it"),
        ("JAX506", "main.py", 12, 22,
         "`x` is donated to this jitted call inside a loop and never bound again in it: the next iteration passes "
         "the buffer this call deleted, `INVALID_ARGUMENT: Buffer has been deleted or donated`. Rebind it to the "
         "result (`x = ...`), or don't donate it"),
    ]


JET = (
    "import jax\n"
    "import jax.numpy as jnp\n"
    "from jax.experimental.jet import jet\n"
    "import jax.experimental.jet as jt\n"
    "\n"
    "\n"
    "def f(x):\n"
    "    print('f sees', x)\n"
    "    return jnp.sin(x)\n"
    "\n"
    "\n"
    "def g(x):\n"
    "    jax.debug.print('g sees {}', x)\n"
    "    return jnp.cos(x)\n"
    "\n"
    "\n"
    "def h(x):\n"
    "    if x > 0:\n"
    "        return x\n"
    "    return -x\n"
    "\n"
    "\n"
    "out = jet(f, (1.0,), ((1.0,),))\n"
    "out2 = jt.jet(g, (1.0,), ((1.0,),))\n"
    "out3 = jt.jet(fun=h, primals=(1.0,), series=((1.0,),))\n"
)


def test_jet_traces_its_function(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"main.py": JET}, select="JAX401,JAX201")
    assert [f[:4] for f in found] == [("JAX201", "main.py", 18, 8), ("JAX401", "main.py", 8, 5)]
    assert found[1][4].startswith("`print` in `f`, a body passed to jax.experimental.jet.jet, runs only while JAX "
                                  "traces it and prints a tracer")
    assert "(a body passed to jax.experimental.jet.jet); this raises TracerBoolConversionError" in found[0][4]


STEP = (
    "from jax import jit\n"
    "import jax.numpy as jnp\n"
    "\n"
    "\n"
    "@jit\n"
    "def f(x, y):\n"
    "    print('Running f():')\n"
    "    print('compiling f')\n"
    "    return jnp.dot(x + 1, y + 1)\n"
    "\n"
    "\n"
    "@jit\n"
    "def g(x):\n"
    "    print('Running g():')\n"
    "    return x * 2\n"
)

RUN = (
    "import numpy as np\n"
    "\n"
    "from demo.funcs import f, g\n"
    "\n"
    "\n"
    "def main(n):\n"
    "    x, y = np.ones((3, 4)), np.ones(4)\n"
    "    for _ in range(n):\n"
    "        f(x, y)\n"
    "    return g(x)\n"
)


def test_text_print_in_a_jitted_def_another_module_calls_in_a_loop(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {
        "demo/__init__.py": "",
        "demo/funcs.py": STEP,
        "main.py": RUN,
    }, select="JAX401")
    assert found == [
        ("JAX401", "demo/funcs.py", 7, 5,
         "`print` in `f`, which this file jits and the project calls again, runs only while JAX traces it: the first "
         "call prints, later calls served from the compilation cache print nothing. Use `jax.debug.print(...)` to "
         "print on every call, or print outside the jitted function"),
    ]


BUILTINS = (
    "import builtins\n"
    "import jax\n"
    "import jax.numpy as jnp\n"
    "\n"
    "\n"
    "@jax.jit\n"
    "def f(x):\n"
    "    y = jnp.sin(x)\n"
    "    builtins.print('y', y)\n"
    "    builtins.print('y', y.shape)\n"
    "    return y\n"
)


def test_builtins_print_is_print(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"main.py": BUILTINS}, select="JAX401")
    assert [f[:4] for f in found] == [("JAX401", "main.py", 9, 5)]
    assert found[0][4].startswith("`print` in traced `f` runs once, at trace time, and prints a tracer")


# 4. JAX506: records of pytree classes (a NamedTuple, a flax struct dataclass) as donated
#    displays; a leaf written inside an inline donated argument is deleted by the call.
#    jax 0.10.2 on CPU: `State(p, p)` and `TS(params=p, ema=p, step=1)` donated raise
#    `Attempt to donate the same buffer twice`; `p` read after `step(TS(params=p, ...))`
#    raises `Array has been deleted`; the VALID twin runs.
RECORDS = (
    "import functools\n"
    "from typing import NamedTuple\n"
    "\n"
    "import flax.struct\n"
    "import jax\n"
    "import jax.numpy as jnp\n"
    "\n"
    "\n"
    "class State(NamedTuple):\n"
    "    params: jax.Array\n"
    "    ema: jax.Array\n"
    "\n"
    "\n"
    "@flax.struct.dataclass\n"
    "class TS:\n"
    "    params: jax.Array\n"
    "    ema: jax.Array\n"
    "    step: int = flax.struct.field(pytree_node=False, default=0)\n"
    "\n"
    "\n"
    "@functools.partial(jax.jit, donate_argnums=0)\n"
    "def step(s):\n"
    "    return jax.tree.map(lambda a: a + 1, s)\n"
    "\n"
    "\n"
    "def f():\n"
    "    p = jnp.zeros(3)\n"
    "    s = State(p, p)\n"
    "    return step(s)\n"
    "\n"
    "\n"
    "def g():\n"
    "    p = jnp.zeros(3)\n"
    "    return step(TS(params=p, ema=p, step=1))\n"
    "\n"
    "\n"
    "def h():\n"
    "    p = jnp.zeros(3)\n"
    "    out = step(TS(params=p, ema=jnp.copy(p), step=2))\n"
    "    return out, p + 1\n"
)

RECORDS_VALID = (RECORDS.replace("State(p, p)", "State(p, jnp.copy(p))")
                 .replace("TS(params=p, ema=p, step=1)", "TS(params=p, ema=jnp.ones(3), step=p.size)")
                 .replace("return out, p + 1", "return out, out.params + 1"))


def test_donated_records_and_inline_leaves(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"main.py": RECORDS, "valid.py": RECORDS_VALID}, select="JAX506")
    twice = ("holds `p` twice{}: JAX refuses to donate one buffer twice, `JaxRuntimeError: INVALID_ARGUMENT: Attempt "
             "to donate the same buffer twice`. Hold a copy in one of the places (`jnp.copy`, `jax.tree.map(jnp.copy, "
             "...)`) or don't donate it")
    assert found == [
        ("JAX506", "main.py", 29, 17, "the donated argument `s` " + twice.format(" (bound together on line 28)")),
        ("JAX506", "main.py", 34, 17, "the donated argument " + twice.format("")),
        ("JAX506", "main.py", 40, 17,
         "`p` was passed inside the donated argument of the jitted call on line 39: the call deleted its buffer, and "
         "using it now raises `RuntimeError: Array has been deleted`. Read the call's result instead, or don't donate it"),
    ]
