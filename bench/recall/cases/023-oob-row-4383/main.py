import jax.random as random

a = random.normal(random.PRNGKey(2020), (10, 10))
row = a[10, :]

if __name__ == "__main__":
    print("clamped to last row:", bool((row == a[9, :]).all()))
