import jax
import jax.numpy as jnp

import pdequinox_lite as pdeqx

if __name__ == "__main__":
    block = pdeqx.ClassicResBlock(
        1, 2, jax.nn.relu, boundary_mode="periodic", key=jax.random.PRNGKey(0)
    )
    y = block(jnp.ones((2, 16)))
    print("y:", y.shape)
    print("same:", bool(jnp.array_equal(block.conv_1.weight, block.conv_2.weight)))
