import jax
from flax import nnx
from jax import numpy as jnp


@nnx.jit
def forward(model, x):
    return model(x)


if __name__ == "__main__":
    module = nnx.Dropout(0.5, rngs=nnx.Rngs(0))
    first = forward(module, jnp.ones((3, 5)))
    second = forward(module, jnp.ones((3, 5)))
    print("same mask:", bool(jnp.all(first == second)))
