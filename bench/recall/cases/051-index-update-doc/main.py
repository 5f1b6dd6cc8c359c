import jax

x = jax.numpy.ones((5, 6))

if __name__ == "__main__":
    print(jax.ops.index_update(x, jax.ops.index[::2, 3:], 6.))
