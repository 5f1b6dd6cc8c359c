import jax.numpy as jnp

r = jnp.ones(3)
value = r[10]

if __name__ == "__main__":
    print(repr(value))
    print("index 10 of 3 returned:", float(value))
