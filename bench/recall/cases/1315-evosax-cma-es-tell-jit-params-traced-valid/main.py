import jax
import jax.numpy as jnp

from evosax_lite.strategies.cma_es import ask, init_strategy, tell


def sphere(x):
    return jnp.sum(x ** 2, axis=-1)


if __name__ == "__main__":
    params, memory = init_strategy(jnp.ones(3), sigma=0.5, population_size=8, mu=4)
    rng = jax.random.PRNGKey(0)
    try:
        for gen in range(3):
            rng, rng_ask = jax.random.split(rng)
            x, memory = ask(rng_ask, memory, params)
            memory = tell(x, sphere(x), params, memory)
        print(f"ran 3 generations, sigma {float(memory['sigma']):.3f}")
    except ValueError as e:
        print(f"ValueError: {str(e).splitlines()[0][:60]}")
