import jax
import jax.numpy as jnp

global_list = []

def log2(x):
  global_list.append(x)
  ln_x = jnp.log(x)
  ln_2 = jnp.log(2.0)
  return ln_x / ln_2

print(jax.make_jaxpr(log2)(3.0))

if __name__ == "__main__":
  print(jax.jit(log2)(4.0))
  print(jax.jit(log2)(8.0))
  print("list holds tracers:", all(isinstance(v, jax.core.Tracer) for v in global_list), len(global_list))
