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
    return data * config.some_value


def summon_up_evaluation_data():
    return jnp.arange(3.0)


def evaluate():
    config = Config(2)
    data = summon_up_evaluation_data()
    return do_stuff(data, config)


if __name__ == "__main__":
    print(evaluate())
    print(evaluate())
