import jax
import jax.numpy as jnp
import numpy as np

initial_guess = lambda t: 0.0 + np.sin(t)


@jax.jit
def pulse(t):
    return initial_guess(t)


if __name__ == "__main__":
    print(pulse(jnp.linspace(0.0, 1.0, 100)))
