import jax

def foo(tot):
  @jax.jit
  def increment(x):
    tot[0] += x
    return tot[0]
  return increment

if __name__ == "__main__":
  incrementer = foo([0.])
  print(incrementer(1.))
  print(incrementer(1.))
  out = incrementer(1.)
  print("third call:", float(out))
