import jax

from lax_numpy_lite import sinc

if __name__ == "__main__":
  print("sinc(0.):", sinc(0.))
  print("grad(sinc)(0.):", jax.grad(sinc)(0.))
