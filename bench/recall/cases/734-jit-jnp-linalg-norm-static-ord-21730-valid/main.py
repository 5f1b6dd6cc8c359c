import jax
import jax.numpy as jnp

if __name__ == "__main__":
    a_fun = jax.jit(jnp.linalg.norm, static_argnames="ord")
    print("norm:", a_fun(jnp.array([1.0,1.0]),ord=1))
