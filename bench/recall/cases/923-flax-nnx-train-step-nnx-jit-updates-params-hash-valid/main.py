import hashlib

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx

from llm_lite.model import ShellLLM
from llm_lite.train import train_step


def params_hash(model):
    h = hashlib.sha256()
    for leaf in jax.tree.leaves(nnx.state(model, nnx.Param)):
        h.update(np.asarray(leaf).tobytes())
    return h.hexdigest()


if __name__ == "__main__":
    model = ShellLLM(vocab_size=64, emb_dim=16, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adamw(1e-2), wrt=nnx.Param)
    tokens = jnp.arange(32) % 64
    before = params_hash(model)
    losses = [float(train_step(model, optimizer, tokens, tokens)) for _ in range(5)]
    print("losses:", losses)
    print("parameters unchanged:", params_hash(model) == before)
