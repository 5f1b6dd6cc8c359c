import jax

if __name__ == "__main__":
    print('=== EXAMPLE 3: redefining function in a loop')
    for _ in range(2):
      jax.jit(lambda x: 2 * x)(3)
