import jax

from noise import uniform_noise

if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    a = uniform_noise(key, (10, 10))
    b = uniform_noise(key, (10, 10))
    print("same:", bool((a == b).all()))
