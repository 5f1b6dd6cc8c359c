"""Mechanisms of the tracB round: which parameters of a flax/haiku/equinox module
method hold a tracer, when the model sees every call of it.

A module class's methods are traced by default (any caller may run them under a
transformation), and every parameter with them.  Where every use in the file of the
class (for ``__call__``) or of the method's name is a call seen, ``Block()(x, (2, 3))``,
``self.pool(x, 3)`` or ``model.apply(v, x, (2, 3), method=Net.encode)``, a parameter
every one of those calls gives a Python value (a literal, a tuple of them, a literal
default left alone) holds none: JAX passes a Python value through a module call as it
is.  Checked with jax 0.10.2 / flax / haiku / equinox on CPU: the VALID modules below
run under ``jax.jit(net.apply)`` / ``jax.jit(f.apply)`` / ``eqx.filter_jit``; each
INVALID twin (one call passes an array) raises ``TracerBoolConversionError`` there.
"""

from tests.project_files import lint_files

MSG = (
    "Python `if` on a traced value: it depends on the traced argument `{p}` of `{fn}` ({how}); this raises "
    "TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"
)

FLAXMODS = (
    "import flax.linen as nn\n"
    "import jax\n"
    "import jax.numpy as jnp\n"
    "\n"
    "\n"
    "class Block(nn.Module):\n"
    "    @nn.compact\n"
    "    def __call__(self, x, dims, train=False):\n"
    "        if dims[0] > 1:\n"
    "            x = x * 2\n"
    "        if train:\n"
    "            x = x + 1\n"
    "        return nn.Dense(3)(x)\n"
    "\n"
    "\n"
    "class Net(nn.Module):\n"
    "    @nn.compact\n"
    "    def __call__(self, x):\n"
    "        x = Block()(x, (2, 3))\n"
    '        return Block(name="last")(x, dims=(1,), train=True)\n'
    "\n"
    "\n"
    "class Gate(nn.Module):\n"
    "    @nn.compact\n"
    "    def __call__(self, x, dims):\n"
    "        if dims[0] > 1:\n"
    "            x = x * 2\n"
    "        return nn.Dense(3)(x)\n"
    "\n"
    "\n"
    "class MixedNet(nn.Module):\n"
    "    @nn.compact\n"
    "    def __call__(self, x):\n"
    "        x = Gate()(x, (2, 3))\n"
    "        return Gate()(x, jnp.array([2, 3]))\n"
    "\n"
    "\n"
    "class Stored(nn.Module):\n"
    "    def setup(self):\n"
    "        self.gate = Gate2()\n"
    "\n"
    "    def __call__(self, x):\n"
    "        return self.gate(x, jnp.array([2, 3]))\n"
    "\n"
    "\n"
    "class Gate2(nn.Module):\n"
    "    @nn.compact\n"
    "    def __call__(self, x, dims):\n"
    "        if dims[0] > 1:\n"
    "            x = x * 2\n"
    "        return nn.Dense(3)(x)\n"
)

HKMODS = (
    "import haiku as hk\n"
    "import jax\n"
    "import jax.numpy as jnp\n"
    "\n"
    "\n"
    "class Block(hk.Module):\n"
    '    def __call__(self, x, dims, kind="relu"):\n'
    "        if dims[0] > 1:\n"
    "            x = x * 2\n"
    "        return hk.Linear(3)(x)\n"
    "\n"
    "\n"
    "class Bad(hk.Module):\n"
    "    def __call__(self, x, dims):\n"
    "        if dims[0] > 1:\n"
    "            x = x * 2\n"
    "        return hk.Linear(3)(x)\n"
    "\n"
    "\n"
    "def forward(x):\n"
    '    x = Block()(x, (2, 3)) + Block(name="b3")(x, dims=(1, 1), kind="gelu")\n'
    '    return Bad()(x, (2, 3)) + Bad(name="b2")(x, jnp.asarray([2, 3]))\n'
    "\n"
    "\n"
    "f = hk.transform(forward)\n"
    "apply = jax.jit(f.apply)\n"
)

EQXMODS = (
    "import equinox as eqx\n"
    "import jax\n"
    "import jax.numpy as jnp\n"
    "\n"
    "\n"
    "class Scale(eqx.Module):\n"
    "    w: jax.Array\n"
    "\n"
    "    def __call__(self, x, dims):\n"
    "        if dims[0] > 1:\n"
    "            return self.w * x\n"
    "        return x\n"
    "\n"
    "\n"
    "class Wobble(eqx.Module):\n"
    "    w: jax.Array\n"
    "\n"
    "    def __call__(self, x, n):\n"
    "        if n > 1:\n"
    "            return self.w * x\n"
    "        return x\n"
    "\n"
    "\n"
    "@eqx.filter_jit\n"
    "def loss(w, x):\n"
    "    return jnp.sum(Scale(w)(x, (2, 3)))\n"
    "\n"
    "\n"
    "@eqx.filter_jit\n"
    "def loss2(w, x):\n"
    "    return jnp.sum(Wobble(w)(x, 3)) + jnp.sum(Wobble(w)(x, jnp.sum(x)))\n"
)

METHODS = (
    "import flax.linen as nn\n"
    "import jax\n"
    "import jax.numpy as jnp\n"
    "\n"
    "\n"
    "class Net(nn.Module):\n"
    "    @nn.compact\n"
    "    def __call__(self, x):\n"
    "        return nn.Dense(3)(x)\n"
    "\n"
    "    def encode(self, x, dims):\n"
    "        if dims[0] > 1:\n"
    "            x = x * 2\n"
    "        return self(x)\n"
    "\n"
    "    def decode(self, x, mode):\n"
    "        if mode[0] > 1:\n"
    "            x = x * 2\n"
    "        return self(x)\n"
    "\n"
    "\n"
    "class Coder(nn.Module):\n"
    "    @nn.compact\n"
    "    def __call__(self, x):\n"
    "        return nn.Dense(3)(x)\n"
    "\n"
    "    def embed(self, x, dims):\n"
    "        if dims[0] > 1:\n"
    "            x = x * 2\n"
    "        return self(x)\n"
    "\n"
    "\n"
    "def run(x):\n"
    "    model = Net()\n"
    "    params = model.init(jax.random.key(0), x)\n"
    "    g = jax.jit(lambda p, x: model.apply(p, x, (2, 3), method=Net.encode))\n"
    '    h = jax.jit(lambda p, x: model.apply(p, x, mode=(1,), method="decode"))\n'
    "    coder = Coder()\n"
    "    cp = coder.init(jax.random.key(0), x)\n"
    "    k = jax.jit(lambda p, x: coder.apply(p, x, (2, 3), method=Coder.embed)\n"
    "                + coder.apply(p, x, jnp.array([2, 3]), method=Coder.embed))\n"
    '    print("net", g(params, x).shape, h(params, x).shape)\n'
    "    try:\n"
    '        print("coder", k(cp, x).shape)\n'
    "    except Exception as e:\n"
    '        print("coder", type(e).__name__)\n'
)

# `Sub()(x, (2, 3))` runs the `__call__` `Sub` inherits, but `jax.jit(Sub().apply)` traces it
# too (JAX: `f(p, x, jnp.array([2, 3]))` raises TracerBoolConversionError): a subclass's
# calls are not counted as calls of the base's name
SUB = (
    "import flax.linen as nn\n"
    "import jax\n"
    "import jax.numpy as jnp\n"
    "\n"
    "\n"
    "class Block(nn.Module):\n"
    "    @nn.compact\n"
    "    def __call__(self, x, dims):\n"
    "        if dims[0] > 1:\n"
    "            x = x * 2\n"
    "        return nn.Dense(3)(x)\n"
    "\n"
    "\n"
    "class Sub(Block):\n"
    "    pass\n"
    "\n"
    "\n"
    "class Net(nn.Module):\n"
    "    @nn.compact\n"
    "    def __call__(self, x):\n"
    "        return Sub()(x, (2, 3))\n"
    "\n"
    "\n"
    "f = jax.jit(Sub().apply)\n"
)

# `self(x, jnp.array([2, 3]))` in a method of the class calls `__call__` too (JAX:
# `net.apply(p, x, method=Net.twice)` under `jax.jit` raises TracerBoolConversionError)
SELFCALL = (
    "import flax.linen as nn\n"
    "import jax\n"
    "import jax.numpy as jnp\n"
    "\n"
    "\n"
    "class Net(nn.Module):\n"
    "    @nn.compact\n"
    "    def __call__(self, x, dims):\n"
    "        if dims[0] > 1:\n"
    "            x = x * 2\n"
    "        return nn.Dense(3)(x)\n"
    "\n"
    "    def twice(self, x):\n"
    "        return self(x, jnp.array([2, 3]))\n"
    "\n"
    "\n"
    "class Outer(nn.Module):\n"
    "    @nn.compact\n"
    "    def __call__(self, x):\n"
    "        return Net()(x, (2, 3))\n"
    "\n"
    "\n"
    "def run(x):\n"
    "    net = Outer()\n"
    "    p = net.init(jax.random.key(0), x)\n"
    "    return jax.jit(net.apply)(p, x)\n"
)

OTHER = (
    "import flax.linen as nn\n"
    "import jax\n"
    "import jax.numpy as jnp\n"
    "\n"
    "from blocks import Block\n"
    "\n"
    "\n"
    "class Outer(nn.Module):\n"
    "    @nn.compact\n"
    "    def __call__(self, x, dims):\n"
    "        return Block()(x, dims)\n"
    "\n"
    "\n"
    "def run(x):\n"
    "    net = Outer()\n"
    "    d = jnp.array([2, 3])\n"
    "    p = net.init(jax.random.key(0), x, d)\n"
    "    return jax.jit(net.apply)(p, x, d)\n"
)


def test_flax_module_every_call_seen_passes_python_values(tmp_path, monkeypatch):
    # VALID: `Block` is only called `Block()(x, (2, 3))` / `Block(name=...)(x, dims=(1,),
    # train=True)`, `train` otherwise left at its literal default.  INVALID: `Gate` is also
    # given a JAX array; `Gate2` is stored in `setup` and called through the attribute with
    # one (a use that is no `Cls(...)(...)` call: its calls are not all seen)
    files = {"flaxmods.py": FLAXMODS, "selfcall.py": SELFCALL, "sub.py": SUB}
    assert lint_files(tmp_path, monkeypatch, files, select="JAX201") == [
        ("JAX201", "flaxmods.py", 26, 12, MSG.format(p="dims", fn="__call__", how="a method of the module class Gate")),
        ("JAX201", "flaxmods.py", 49, 12, MSG.format(p="dims", fn="__call__", how="a method of the module class Gate2")),
        ("JAX201", "selfcall.py", 9, 12, MSG.format(p="dims", fn="__call__", how="called from traced `__call__`")),
        ("JAX201", "sub.py", 9, 12, MSG.format(p="dims", fn="__call__", how="a method of the module class Block")),
    ]


def test_haiku_module_every_call_seen_passes_python_values(tmp_path, monkeypatch):
    # `hk.transform(forward)` then `jax.jit(f.apply)`: `Block` gets tuples and strings,
    # `Bad` also `jnp.asarray([2, 3])`
    assert lint_files(tmp_path, monkeypatch, {"hkmods.py": HKMODS}, select="JAX201") == [
        ("JAX201", "hkmods.py", 15, 12, MSG.format(p="dims", fn="__call__", how="called from traced `forward`")),
    ]


def test_equinox_module_built_and_called_in_filter_jit(tmp_path, monkeypatch):
    # `Scale(w)(x, (2, 3))` in an `eqx.filter_jit` function; `Wobble(w)(x, jnp.sum(x))`
    # passes a tracer at one of its calls
    assert lint_files(tmp_path, monkeypatch, {"eqxmods.py": EQXMODS}, select="JAX201") == [
        ("JAX201", "eqxmods.py", 19, 12, MSG.format(p="n", fn="__call__", how="called from traced `loss2`")),
    ]


def test_flax_method_applied_with_method_keyword(tmp_path, monkeypatch):
    # `model.apply(p, x, (2, 3), method=Net.encode)`, `method="decode"` with `mode=(1,)`
    # under `jax.jit`: Python values; `Coder.embed` is also applied with a JAX array
    assert lint_files(tmp_path, monkeypatch, {"methods.py": METHODS}, select="JAX201") == [
        ("JAX201", "methods.py", 28, 12, MSG.format(p="dims", fn="embed", how="a method of the module class Coder")),
    ]


USER = (
    "import lib\n"
    "from mod import Block\n"
    "\n"
    "\n"
    "def helper(x, d):\n"
    "    return lib.Block()(x, d)\n"
    "\n"
    "\n"
    "def helper2(x, d):\n"
    "    return Block()(x, d)\n"
)


def test_module_used_by_another_module_stays_traced(tmp_path, monkeypatch):
    # `blocks.Block` is given a traced array by `other.Outer` (a call fact from other.py);
    # `lib.Block` and `mod.Block` are called by `user.helper`/`helper2` with a value the
    # model cannot place (no fact of the call: lib.py and mod.py are told that another
    # module uses the class, `used_classes`).
    # `local.py`'s copy is used in its own file only
    local = FLAXMODS[:FLAXMODS.index("class Gate(")].rstrip("\n") + "\n"
    files = {"blocks.py": local, "lib.py": local, "local.py": local, "mod.py": local, "other.py": OTHER,
             "user.py": USER}
    how = "called from `Outer.__call__` (other.py:11), which is wrapped by jax.jit as `net.apply`"
    assert lint_files(tmp_path, monkeypatch, files, select="JAX201") == [
        ("JAX201", "blocks.py", 9, 12, MSG.format(p="dims", fn="__call__", how=how)),
        ("JAX201", "lib.py", 9, 12, MSG.format(p="dims", fn="__call__", how="a method of the module class Block")),
        ("JAX201", "mod.py", 9, 12, MSG.format(p="dims", fn="__call__", how="a method of the module class Block")),
    ]
