import jax
import jax.numpy as jnp

from evosax_lite.strategies.simple_es import Simple_ES

if __name__ == "__main__":
    strategy = Simple_ES(num_dims=3, popsize=8)
    try:
        params = strategy.default_params
        state = strategy.initialize(jax.random.PRNGKey(0), params)
        rng = jax.random.PRNGKey(1)
        for gen in range(3):
            rng, rng_ask = jax.random.split(rng)
            x, state = strategy.ask(rng_ask, state, params)
            state = strategy.tell(x, jnp.sum((x - 1.0) ** 2, axis=-1), state, params)
        print(f"ran 3 generations, best fitness {float(state['best_fitness']):.3f}")
    except AttributeError as e:
        print(f"AttributeError: {e}")
