import jax

@jax.jit
def f(x,y):
  if x > y:
    return x
  else:
    return y

if __name__ == "__main__":
  print(f(1, 2))
