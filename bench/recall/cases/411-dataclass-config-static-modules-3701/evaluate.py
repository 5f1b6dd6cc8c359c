import jax.numpy as jnp

from experiment import config as cfg
from experiment.ops import do_stuff


def summon_up_evaluation_data():
    return jnp.arange(4.0)


def evaluate():
    data = summon_up_evaluation_data()
    return do_stuff(data, cfg.EVAL_CONFIG)


if __name__ == "__main__":
    print(evaluate())
