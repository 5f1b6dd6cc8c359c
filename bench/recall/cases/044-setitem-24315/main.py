import jax

x = jax.numpy.arange(4)

if __name__ == "__main__":
    x[0] = 1
