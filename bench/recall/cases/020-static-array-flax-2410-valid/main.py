import jax

if __name__ == "__main__":
    print(jax.jit(lambda x: x + 1)(jax.numpy.array([0, 1])))  # works
