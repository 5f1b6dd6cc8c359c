import jax.numpy as jnp

from jaxopt_lite.gradient_descent import GradientDescent


def fun(w):
  return jnp.sum((w - 3.0) ** 2)


if __name__ == "__main__":
  for target in range(5):
    solver = GradientDescent(fun=fun, maxiter=100)
    w = solver.run(jnp.zeros(2))
  print("w:", w)
