import jax.numpy as jnp
from flax import nnx
from flax.nnx import RngState

from nnx_pkg import Model

state_axes = nnx.StateAxes({RngState: 0, ...: None}) # vectorize RngState, broadcast the rest


@nnx.split_rngs(splits=4)
@nnx.vmap(in_axes=(state_axes, 0))
def inference_fn(model, x):
    y = model(x)
    return y


if __name__ == "__main__":
    model = Model(nnx.Rngs(0))
    xs = jnp.ones((4, 8))
    ys = inference_fn(model, xs)
    kept = ys != 0
    print("same dropout mask for every batch element:", bool((kept == kept[0]).all()))
