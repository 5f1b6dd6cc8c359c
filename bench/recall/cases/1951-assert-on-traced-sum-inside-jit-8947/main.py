import jax
import jax.numpy as jnp

N = 10

@jax.jit
def f():
  result = sum(jnp.add(1, 1) for _ in range(N))
  assert result > 0

if __name__ == "__main__":
  try:
    f()
  except jax.errors.TracerBoolConversionError as e:
    print(f"{type(e).__name__}: {str(e).splitlines()[0]}")
