import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Config:
    some_value: int
    # many other values omitted


@functools.partial(jax.jit, static_argnums=1)
def do_stuff(data, config):
    # do some stuff
    return data * config.some_value


def summon_up_evaluation_data():
    return jnp.arange(4.0)


def evaluate():
    config = Config(3)
    data = summon_up_evaluation_data()
    return do_stuff(data, config)


if __name__ == "__main__":
    print(evaluate())
