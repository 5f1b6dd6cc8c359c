import jax.numpy as jnp
from jax import random

from privacy import add_noise

if __name__ == "__main__":
    grads = {"w1": jnp.zeros((3,)), "w2": jnp.zeros((3,))}
    g = add_noise(grads, random.PRNGKey(0), 1.0, 1.0)
    print(g)
    print("same noise:", bool((g["w1"] == g["w2"]).all()))
