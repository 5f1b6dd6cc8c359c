import jax
import jax.numpy as jnp

@jax.jit
def f(x):
  for _ in range(10000):
    x = jnp.sin(x)
  return x

if __name__ == "__main__":
  f(3.)
  print("jaxpr equations:", len(jax.make_jaxpr(f.__wrapped__)(3.).eqns))
