import jax


class _JAX:
    def __init__(self) -> None:
        self.key = jax.random.PRNGKey(0)


class _Config:
    def __init__(self) -> None:
        self.jax = _JAX()


config = _Config()
