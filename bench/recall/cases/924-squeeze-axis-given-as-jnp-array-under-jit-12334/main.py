import jax

def f(x):
  return jax.numpy.squeeze(x, jax.numpy.array(1))

if __name__ == "__main__":
  jax.jit(f)(jax.numpy.arange(5))
