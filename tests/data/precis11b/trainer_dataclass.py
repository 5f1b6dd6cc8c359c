import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.tree_util.register_dataclass, data_fields=["w", "steps"], meta_fields=[])
@dataclasses.dataclass
class Trainer:
    w: jax.Array
    steps: jax.Array

    @partial(jax.pmap, axis_name="devices")
    def train_step(self, x):
        loss = jnp.sum((self.w * x) ** 2)
        self.w = self.w - 0.1 * x
        self.steps = self.steps + 1
        return loss, self


trainer = Trainer(jnp.ones((1, 3)), jnp.zeros((1,)))
loss, trainer = trainer.train_step(jnp.ones((1, 3)))
