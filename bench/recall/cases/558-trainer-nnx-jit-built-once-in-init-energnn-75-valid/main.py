import jax.numpy as jnp
from flax import nnx

import trainer
from trainer import Trainer

if __name__ == "__main__":
    model = nnx.Linear(4, 1, rngs=nnx.Rngs(0))
    t = Trainer(model)
    batch = {"x": jnp.ones((8, 4)), "y": jnp.zeros((8, 1))}
    for step in range(3):
        loss = t.training_step(batch)
    print("traces:", trainer.traces)
