"""Keys consumed by building an object, and splitting helpers called twice (branch keyC).

Two facts the model lacked (recall case 1625, pdequinox's ClassicResBlock building conv_1
and conv_2 from one key, so both layers start with the same weights):

* building an instance of a project class runs its own ``__init__``: the arguments given
  for the key parameters it draws from (or splits) are consumed, as by a helper's call
  (model/calls.py ``_constructor_consumer``; a class of this file, or one imported from
  the project through the ``Cls.__init__`` consumer fact);
* a helper (or constructor) that splits the key it is given and draws from the halves,
  called twice with the same arguments, makes the same keys twice and so draws the same
  numbers (checked on jax 0.10.2: ``Conv(3, key=key)`` twice gives equal weights, with
  ``k1, k2 = split(key)`` different ones).  One such helper beside a split of the same key
  (keys handed down on both sides) stays silent, as before.
"""

from __future__ import annotations

from project_files import lint_files

_SPLIT_TWICE = ("`{k}` was already consumed by `{by}` on line {line}, which splits it and draws from the keys "
                "it makes: this call makes the same keys, so it draws the same random numbers. Split it first, "
                "e.g. `k1, k2 = jax.random.split({k})`, and give each call its own key")
_REUSE = ("`{k}` was already consumed by `{by}` on line {line}: both calls get the same random bits. "
          "Split it first, e.g. `k1, k2 = jax.random.split({k})`, and give each call its own key")

# the layer in another module splits the key it is given (pdequinox's PhysicsConv)
LAYERS = """\
import equinox as eqx
import jax.random as jrandom


class Conv(eqx.Module, strict=True):
    weight: object
    bias: object

    def __init__(self, n, *, key):
        wkey, bkey = jrandom.split(key, 2)
        self.weight = jrandom.uniform(wkey, (n,))
        self.bias = jrandom.uniform(bkey, (n,))
"""

BLOCK_OTHER_MODULE = {
    "nets/__init__.py": "",
    "nets/layers.py": LAYERS,
    "nets/blocks.py": """\
import equinox as eqx

from .layers import Conv


class Block(eqx.Module):
    conv_1: eqx.Module
    conv_2: eqx.Module

    def __init__(self, n, *, key):
        self.conv_1 = Conv(n, key=key)
        self.conv_2 = Conv(n, key=key)
""",
}

BLOCK_OTHER_MODULE_OK = {
    "nets/__init__.py": "",
    "nets/layers.py": LAYERS,
    "nets/blocks.py": """\
import equinox as eqx
import jax

from .layers import Conv


class Block(eqx.Module):
    conv_1: eqx.Module
    conv_2: eqx.Module

    def __init__(self, n, *, key):
        k1, k2 = jax.random.split(key)
        self.conv_1 = Conv(n, key=k1)
        self.conv_2 = Conv(n, key=k2)
""",
}

# a plain class of the same file that draws from its key (no split): a helper's reuse
SAME_FILE_CLASS = """\
import jax


class Noise:
    def __init__(self, n, key):
        self.values = jax.random.normal(key, (n,))


def make(n, key):
    a = Noise(n, key)
    b = Noise(n, key)
    return a, b
"""

SAME_FILE_CLASS_OK = """\
import jax


class Noise:
    def __init__(self, n, key):
        self.values = jax.random.normal(key, (n,))


def make(n, key):
    ka, kb = jax.random.split(key)
    a = Noise(n, ka)
    b = Noise(n, kb)
    return a, b
"""

# a function helper that splits its key, called twice alike
SPLIT_HELPER = """\
import jax


def init_layer(n, key):
    wkey, bkey = jax.random.split(key)
    return jax.random.normal(wkey, (n, n)), jax.random.normal(bkey, (n,))


def init_mlp(n, key):
    first = init_layer(n, key)
    second = init_layer(n, key)
    return [first, second]
"""

SPLIT_HELPER_OK = """\
import jax


def init_layer(n, key):
    wkey, bkey = jax.random.split(key)
    return jax.random.normal(wkey, (n, n)), jax.random.normal(bkey, (n,))


def init_mlp(n, key):
    key, sub = jax.random.split(key)
    first = init_layer(n, sub)
    second = init_layer(n, key)
    return [first, second]
"""


def test_imported_class_built_twice_with_one_key(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, BLOCK_OTHER_MODULE, select="JAX301") == [
        ("JAX301", "nets/blocks.py", 12, 23, _SPLIT_TWICE.format(k="key", by="Conv()", line=11))]


def test_class_of_the_same_file_built_twice_with_one_key(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"noise.py": SAME_FILE_CLASS}, select="JAX301") == [
        ("JAX301", "noise.py", 11, 9, _REUSE.format(k="key", by="Noise()", line=10))]


def test_splitting_helper_called_twice_alike(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"mlp.py": SPLIT_HELPER}, select="JAX301") == [
        ("JAX301", "mlp.py", 11, 14, _SPLIT_TWICE.format(k="key", by="init_layer()", line=10))]


def test_objects_built_from_split_keys_stay_silent(tmp_path, monkeypatch):
    for i, files in enumerate((BLOCK_OTHER_MODULE_OK, {"noise.py": SAME_FILE_CLASS_OK}, {"mlp.py": SPLIT_HELPER_OK})):
        (tmp_path / str(i)).mkdir()
        assert lint_files(tmp_path / str(i), monkeypatch, files, select="JAX301") == [], files


# -- calling an object runs its class's `__call__` ------------------------------------
#
# Recall case 1722 (equinox's BERT example): `jax.vmap(self.ff_block, in_axes=(0, None,
# None))(x, enable_dropout, ff_key)` where `self.ff_block = FeedForwardBlock(...)` in
# `__init__` and `FeedForwardBlock.__call__` hands `key` to its `eqx.nn.Dropout` field:
# every position gets the same mask (checked on jax 0.10.2, equinox 0.13).  Two facts:
# an object of a project class called (directly or wrapped by vmap) runs that class's
# `__call__` (model/calls.py `_called_instance_consumer`: a parameter annotated with the
# class, a name bound to `Cls(...)`, `self.attr` set to `Cls(...)` in `__init__`), and
# `self.dropout(x, key=key)` of a field holding an `eqx.nn.Dropout` draws from `key`
# (model/keyflow.drawing_layer_call; not with `inference=True`).

_UNMAPPED = ("`{k}` is not mapped (`in_axes` None for it): `{t}` gives every element the same key, and "
             "`{f}` draws from it with `{by}`, so every element draws the same random numbers. Map one key "
             "per element: pass `jax.random.split({k}, n)` with in_axes 0 for it")

FEED_FORWARD = """\
import equinox as eqx


class FeedForward(eqx.Module):
    dropout: eqx.nn.Dropout

    def __init__(self, rate):
        self.dropout = eqx.nn.Dropout(rate)

    def __call__(self, x, enable_dropout, key=None):
        return self.dropout(x, inference=not enable_dropout, key=key)
"""

LAYER = """\
import equinox as eqx
import jax

from .ff import FeedForward


class Layer(eqx.Module):
    ff_block: FeedForward

    def __init__(self, rate):
        self.ff_block = FeedForward(rate)

    def __call__(self, x, *, key):
        return jax.vmap(self.ff_block, in_axes=(0, None, None))(x, True, key)
"""

LAYER_FILES = {"nets/__init__.py": "", "nets/ff.py": FEED_FORWARD, "nets/layer.py": LAYER}
LAYER_FILES_OK = {
    "nets/__init__.py": "", "nets/ff.py": FEED_FORWARD,
    "nets/layer.py": LAYER.replace("in_axes=(0, None, None))(x, True, key)",
                                   "in_axes=(0, None, 0))(x, True, jax.random.split(key, x.shape[0]))"),
}
# the same layer whose dropout is switched off at the call: no draw
LAYER_FILES_INFERENCE = {
    "nets/__init__.py": "", "nets/layer.py": LAYER,
    "nets/ff.py": FEED_FORWARD.replace("inference=not enable_dropout", "inference=True"),
}

NOISY = """\
import equinox as eqx
import jax


class Noisy(eqx.Module):
    scale: float

    def __call__(self, x, key):
        return x + self.scale * jax.random.normal(key, x.shape)


def twice(block: Noisy, x, key):
    a = block(x, key)
    b = block(x, key)
    return a, b


def batched(block: Noisy, xs, key):
    return eqx.filter_vmap(block, in_axes=(0, None))(xs, key)
"""

NOISY_OK = NOISY.replace("""    a = block(x, key)
    b = block(x, key)""", """    ka, kb = jax.random.split(key)
    a = block(x, ka)
    b = block(x, kb)""").replace("in_axes=(0, None))(xs, key)", "in_axes=(0, 0))(xs, jax.random.split(key, len(xs)))")


def test_vmap_of_a_field_object_whose_dropout_gets_the_unmapped_key(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, LAYER_FILES, select="JAX301") == [
        ("JAX301", "nets/layer.py", 14, 16,
         _UNMAPPED.format(k="key", t="jax.vmap", f="self.ff_block", by="eqx.nn.Dropout"))]


def test_annotated_object_called_twice_and_mapped_with_one_key(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"noisy.py": NOISY}, select="JAX301") == [
        ("JAX301", "noisy.py", 14, 9, _REUSE.format(k="key", by="block()", line=13)),
        ("JAX301", "noisy.py", 19, 12,
         _UNMAPPED.format(k="key", t="eqx.filter_vmap", f="block", by="random.normal")),
    ]


def test_objects_given_their_own_keys_stay_silent(tmp_path, monkeypatch):
    for i, files in enumerate((LAYER_FILES_OK, LAYER_FILES_INFERENCE, {"noisy.py": NOISY_OK})):
        (tmp_path / str(i)).mkdir()
        assert lint_files(tmp_path / str(i), monkeypatch, files, select="JAX301") == [], files


# -- a class whose `__init__` hands its key to such a constructor consumes it too ----------

NESTED_SAME_FILE = """\
import jax


class Conv:
    def __init__(self, n, *, key):
        wkey, bkey = jax.random.split(key)
        self.w = jax.random.normal(wkey, (n,))
        self.b = jax.random.normal(bkey, (n,))


class Block:
    def __init__(self, n, *, key):
        self.conv = Conv(n, key=key)


def net(n, key):
    a = Block(n, key=key)
    b = Block(n, key=key)
    return a, b


def net_ok(n, key):
    k1, k2 = jax.random.split(key)
    a = Block(n, key=k1)
    b = Block(n, key=k2)
    return a, b
"""

NESTED_MODULES = {
    "nets/__init__.py": "",
    "nets/layers.py": LAYERS,
    "nets/blocks.py": """\
from .layers import Conv


class Block:
    def __init__(self, n, *, key):
        self.conv = Conv(n, key=key)
""",
    "train.py": """\
import jax

from nets.blocks import Block


def net(n, seed):
    key = jax.random.PRNGKey(seed)
    first = Block(n, key=key)
    second = Block(n, key=key)
    return first, second
""",
}


def test_class_handing_its_key_to_a_drawing_constructor_in_the_same_file(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"net.py": NESTED_SAME_FILE}, select="JAX301") == [
        ("JAX301", "net.py", 18, 9, _SPLIT_TWICE.format(k="key", by="Block()", line=17))]


def test_class_handing_its_key_to_an_imported_drawing_constructor(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, NESTED_MODULES, select="JAX301") == [
        ("JAX301", "train.py", 9, 14, _SPLIT_TWICE.format(k="key", by="Block()", line=8))]
