from functools import partial

import jax
import jax.numpy as jnp


class Layer:
    def __init__(self, threshold):
        self.threshold = threshold

    @partial(jax.jit, static_argnums=0)
    def __call__(self, x):
        if x.mean() > self.threshold:
            return x
        return x * 0.0


if __name__ == "__main__":
    print(Layer(0.5)(jnp.arange(4.0)))
