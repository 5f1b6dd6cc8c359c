from typing import Any, NamedTuple

import jax.numpy as jnp
from jax import grad, jit
from jax.lax import scan
from optax import adam


class State(NamedTuple):
    parameters: float
    gt_state: Any


def loss(parameters):
    return jnp.square(parameters - 1.0)


def inference(gt: Any):
    global compiled_times
    compiled_times += 1

    def do_one(state: State, _: None):
        gradient = grad(loss)(state.parameters)
        new_gradient, gt_state = gt.update(gradient, state.gt_state, state.parameters)
        parameters = state.parameters + new_gradient
        return State(parameters, gt_state), parameters

    state = State(0.0, gt.init(0.0))
    final_state, trajectory = scan(do_one, state, None, 100)
    return trajectory  # final_state.parameters


if __name__ == "__main__":
    compiled_times = 0
    for _ in range(100):
        gt1 = adam(0.05)
        jit(inference, static_argnums=0)(gt1)
    print(f"optax compiled {compiled_times} times")
