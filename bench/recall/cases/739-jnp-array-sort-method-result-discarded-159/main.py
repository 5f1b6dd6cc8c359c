import jax.numpy as jnp

if __name__ == "__main__":
    a = jnp.array((2, 1))
    a.sort()
    print(a)
    print("sorted in place:", a.tolist() == [1, 2])
