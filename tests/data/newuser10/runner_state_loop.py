import jax


def step(state):
    rng, params = state
    rng, sub = jax.random.split(rng)
    return (rng, params + jax.random.normal(sub))


def main():
    rng_train = jax.random.PRNGKey(0)
    runner_state = (rng_train, 0.0)
    n_repeats = 2
    for _ in range(3):
        runner_state = step((jax.random.split(runner_state[0], n_repeats)[0], runner_state[1]))

    return runner_state
