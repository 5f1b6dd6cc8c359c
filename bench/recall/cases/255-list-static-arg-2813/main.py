import jax

def g(x, y):
  print("recompiling")
  return x + y[0]

f = jax.jit(g, static_argnums=(1,))

if __name__ == "__main__":
    f(1, [2, 3])
    f(1, [2, 3])
