import jax

if __name__ == "__main__":
    jax.jit(bool)(jax.numpy.arange(5))
