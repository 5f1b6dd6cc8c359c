import jax
import jax.numpy as jnp

TEMPERATURE = 1.0


@jax.jit
def soften(logits):
    return logits / TEMPERATURE


def anneal(logits, factor):
    global TEMPERATURE
    before = soften(logits)
    TEMPERATURE = TEMPERATURE * factor
    return soften(logits) - before


if __name__ == "__main__":
    print(anneal(jnp.array([1.0, 2.0, 3.0]), 2.0))
