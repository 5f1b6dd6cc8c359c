from functools import partial

import jax
import jax.numpy as jnp

from utils import jx_warp


@partial(jax.jit, static_argnums=(2, 3))
def warp_boxes(boxes, M, width, height):
    return jx_warp(boxes, M, width, height)


if __name__ == "__main__":
    boxes = jnp.array([[1.0, 2.0, 3.0, 4.0]])
    print(warp_boxes(boxes, jnp.eye(3), 10, 10))
