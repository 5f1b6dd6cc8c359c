import jax

if __name__ == "__main__":
    jax.jit(lambda x: x + 1, static_argnums=(0,))(jax.numpy.array([0, 1]))  # same error
