import jax
import jax.numpy as jnp

import keras_lite as keras

if __name__ == "__main__":
    x1 = jnp.array(1, dtype=jnp.float32)
    x2 = jnp.array(0, dtype=jnp.float32)
    print("value:", keras.ops.divide_no_nan(x1, x2))
    print("grad:", jax.grad(keras.ops.divide_no_nan)(x1, x2))
