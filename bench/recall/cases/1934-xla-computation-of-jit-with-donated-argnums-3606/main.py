from jax import jit, random, xla_computation, numpy as np

x = random.normal(random.PRNGKey(1), (10, 10))

def f(x):
  return 2 * x  @ x.T

f_jit = jit(f)

f_jit_donate = jit(f, donate_argnums=0)

if __name__ == "__main__":
  print(xla_computation(f_jit_donate)(x).GetHloText())
