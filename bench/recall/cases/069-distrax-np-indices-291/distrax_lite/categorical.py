import jax
import jax.numpy as jnp

from distrax_lite import distribution


class Categorical:
    def __init__(self, logits):
        self.logits = logits

    @property
    def batch_shape(self):
        return self.logits.shape[:-1]

    def __getitem__(self, index):
        index = distribution.to_batch_shape_index(self.batch_shape, index)
        return Categorical(logits=self.logits[index])

    def entropy(self):
        p = jax.nn.softmax(self.logits)
        return -jnp.sum(p * jnp.log(p), axis=-1)
