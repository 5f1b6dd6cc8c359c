"""JAX301's message says what happens: two draws from one key get the same random
bits; a draw and then a split of the same key does not repeat the bits (JAX's
partitionable threefry derives the new keys otherwise) but breaks the use-once
contract, which ``jax_debug_key_reuse`` enforces with KeyReuseError."""

import json

from click.testing import CliRunner

from jaxlint.cli import cli

SPLIT_AFTER = (
    "and is split here: JAX promises independent random numbers only for a key used once (with "
    "`jax_debug_key_reuse` on, this split raises KeyReuseError for a typed key from `jax.random.key`). Split before the first use, e.g. "
)


def _messages(tmp_path, monkeypatch, name, text):
    (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", name, "--no-cache", "--output-format", "json"])
    return [(f["code"], f["location"]["row"], f["location"]["column"], f["message"]) for f in json.loads(result.stdout)]


def test_a_draw_then_a_split_of_the_same_key_in_a_script(tmp_path, monkeypatch):
    text = ("import jax\n\nrng = jax.random.PRNGKey(0)\nx = jax.random.normal(rng, (3,))\n"
            "rng, sub = jax.random.split(rng)\ny = jax.random.normal(sub, (3,))\n")
    assert _messages(tmp_path, monkeypatch, "m.py", text) == [
        ("JAX301", 5, 12, "`rng` was already consumed by `random.normal` on line 4 " + SPLIT_AFTER
         + "`rng, sub = jax.random.split(rng)`, and draw with `sub`")]


def test_a_helper_that_draws_then_a_split_across_notebook_cells(tmp_path, monkeypatch):
    cells = [
        "import jax\nfrom jax import random\n\ndef sample_q_t(key, n):\n    return random.normal(key, (n,))\n",
        "rng = random.PRNGKey(1)\nz = sample_q_t(rng, 4)\n",
        "rng, rng1 = random.split(rng)\nprint(z, sample_q_t(rng1, 4))\n",
    ]
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "source": c.splitlines(True), "outputs": [],
                     "execution_count": None} for c in cells],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    found = _messages(tmp_path, monkeypatch, "nb.ipynb", json.dumps(nb))
    assert [f[:3] for f in found] == [("JAX301", 1, 13)]
    assert found[0][3] == ("`rng` was already consumed by `sample_q_t()` on line 2 of cell 2 " + SPLIT_AFTER
                           + "`rng, sub = jax.random.split(rng)`, and draw with `sub`")


def test_two_draws_from_one_key_still_get_the_same_bits(tmp_path, monkeypatch):
    text = ("import jax\n\nkey = jax.random.PRNGKey(0)\nx = jax.random.normal(key, (3,))\n"
            "y = jax.random.uniform(key, (3,))\nprint(x, y)\n")
    assert _messages(tmp_path, monkeypatch, "m.py", text) == [
        ("JAX301", 5, 5, "`key` was already consumed by `random.normal` on line 4: both calls get the same "
         "random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key")]


def test_the_key_named_is_the_one_the_earlier_call_consumed(tmp_path, monkeypatch):
    """`net.apply(params, rng, x)` takes its key in position 1: the message must not call
    `params` (position 0) the key `rng` was before."""
    text = ("import haiku as hk\nimport jax\nimport jax.numpy as jnp\n\n\n"
            "def net_fn(x):\n    return hk.dropout(hk.next_rng_key(), 0.5, hk.Linear(4)(x))\n\n\n"
            "net = hk.transform(net_fn)\n\n\n"
            "def main():\n    rng = jax.random.PRNGKey(42)\n    x = jnp.ones((8, 5))\n"
            "    params = net.init(rng, x)\n    for _ in range(3):\n        net.apply(params, rng, x)\n"
            "    b = net.apply(params, rng, x)\n    return b\n")
    assert _messages(tmp_path, monkeypatch, "m.py", text)[1:] == [
        ("JAX301", 19, 9, "`rng` was already consumed by `hk.dropout` via `net.apply` on line 18: both "
         "calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(rng)`, and "
         "give each call its own key")]


LOOP_ONE_USE = (
    "JAX promises independent random numbers only for a key used once (with `jax_debug_key_reuse` on, the "
    "second use raises KeyReuseError for a typed key from `jax.random.key`)")


def test_a_draw_carried_to_the_next_iterations_split_is_not_called_the_same_bits(tmp_path, monkeypatch):
    """ott's Monge-gap notebook: `rng, rng_x = split(rng)` at the top of a loop, `randint(rng)` at
    the bottom (a typed key: KeyReuseError on the next split under `jax_debug_key_reuse`, JAX 0.10.2;
    `bits(k, (4,))` differs from `key_data(split(k))`): the one-use promise, not the same bits.  Two
    spellings (`jax.random.*` and `from jax import random as jr`); a draw carried to a draw keeps
    "the same random bits"."""
    text = ("import jax\nfrom jax import random as jr\n\n\ndef loop(rng, n):\n    out = []\n"
            "    for _ in range(n):\n        rng, rng_x = jax.random.split(rng)\n"
            "        out.append(jax.random.normal(rng_x, (3,)))\n"
            "        out.append(jax.random.randint(rng, [], minval=0, maxval=9))\n    return out\n\n\n"
            "def loop2(key, n):\n    out = []\n    while n > 0:\n        key, sub = jr.split(key)\n"
            "        out.append(jr.uniform(sub, (3,)) + jr.bernoulli(key, 0.5))\n        n -= 1\n"
            "    return out\n")
    assert _messages(tmp_path, monkeypatch, "m.py", text) == [
        ("JAX301", 10, 20, "`rng` is consumed by `random.randint` here and carried to the next iteration of the "
         "loop, where `random.split` on line 8 consumes it again: " + LOOP_ONE_USE + ". Give this call a subkey "
         "(`rng, sub = jax.random.split(rng)` and pass `sub`)"),
        ("JAX301", 18, 44, "`key` is consumed by `random.bernoulli` here and carried to the next iteration of the "
         "loop, where `random.split` on line 17 consumes it again: " + LOOP_ONE_USE + ". Give this call a subkey "
         "(`key, sub = jax.random.split(key)` and pass `sub`)"),
    ]
