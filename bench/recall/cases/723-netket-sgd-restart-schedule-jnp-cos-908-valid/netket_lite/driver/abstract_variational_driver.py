from functools import partial

import jax
import jax.numpy as jnp
import optax


@partial(jax.jit, static_argnums=0)
def apply_gradient(optimizer_fun, optimizer_state, dp, params):
    updates, new_optimizer_state = optimizer_fun(dp, optimizer_state, params)
    new_params = optax.apply_updates(params, updates)
    return new_optimizer_state, new_params


class VMC:
    def __init__(self, energy, optimizer, params):
        self._energy = energy
        self.optimizer = optimizer
        self.parameters = params
        self._optimizer_state = optimizer.init(params)
        self.step_count = 0

    def iter(self, n_steps):
        for _ in range(n_steps):
            dp = jax.grad(self._energy)(self.parameters)
            self._optimizer_state, self.parameters = apply_gradient(
                self.optimizer.update, self._optimizer_state, dp, self.parameters
            )
            self.step_count += 1
            yield self.step_count

    def run(self, n_iter):
        for _ in self.iter(n_iter):
            pass
        return self._energy(self.parameters)
