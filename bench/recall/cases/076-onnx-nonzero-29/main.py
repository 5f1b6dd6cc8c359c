import jax
import jax.numpy as jnp


def onnx_nonzero(x):
    return jnp.stack(jnp.nonzero(x))


if __name__ == "__main__":
    jit_func = jax.jit(onnx_nonzero)
    jit_func(jnp.array([[1, 0], [0, 3]]))
