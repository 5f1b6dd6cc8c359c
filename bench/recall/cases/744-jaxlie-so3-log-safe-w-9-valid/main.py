import jax
import jax.numpy as jnp

from jaxlie_lite import SO3

a = jnp.array([jnp.pi, 0, 0], dtype=jnp.float32)
def func(x):
  return SO3.exp(x).log().sum()

if __name__ == "__main__":
  print("value:", func(a))
  print("grad:", jax.grad(func)(a))
