import jax.numpy as jnp
from flax import nnx

from nnx_pkg import Model


def inference_fn(model, x):
    y = model(x)
    return y


if __name__ == "__main__":
    model = Model(nnx.Rngs(0))
    xs = jnp.ones((4, 8))
    ys = nnx.vmap(inference_fn, in_axes=(None, 0))(model, xs)
    kept = ys != 0
    print("same dropout mask for every batch element:", bool((kept == kept[0]).all()))
