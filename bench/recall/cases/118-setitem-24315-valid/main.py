import jax

x = jax.numpy.arange(4)

if __name__ == "__main__":
    x = x.at[0].set(1)
    print(x)
