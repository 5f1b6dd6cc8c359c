import jax


class config:
    num_envs_per_device = 4


if __name__ == "__main__":
    rng = jax.random.PRNGKey(0)
    rng, _rng1, _rng2 = jax.random.split(rng, num=3)
    ruleset_rng = jax.random.split(rng, num=config.num_envs_per_device)
    reset_rng = jax.random.split(rng, num=config.num_envs_per_device)
    print("same keys:", bool((ruleset_rng == reset_rng).all()))
