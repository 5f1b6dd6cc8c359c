import jax

key = jax.random.PRNGKey(0)
a = jax.random.uniform(key, (10, 10))
b = jax.random.uniform(key, (10, 10))

if __name__ == "__main__":
    print("same:", bool((a == b).all()))
