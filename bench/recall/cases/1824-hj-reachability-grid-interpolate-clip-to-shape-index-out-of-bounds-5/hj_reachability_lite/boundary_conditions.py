import jax.numpy as jnp


def periodic(x, pad_width):
    return jnp.concatenate([x[-pad_width:], x, x[:pad_width]])


def extrapolate_away_from_zero(x, pad_width):
    return jnp.pad(x, ((pad_width, pad_width)), "edge")
