import jax


def draw_seed(seed):
    if seed is None:
        seed = 1337
    if isinstance(seed, int):
        return jax.random.PRNGKey(seed)
    raise ValueError(
        "Argument `seed` must be either an integer or an instance of "
        f"`SeedGenerator`. Received: seed={seed} (of type {type(seed)})"
    )
