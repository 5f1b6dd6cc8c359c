import dataclasses
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


class LbfgsState(NamedTuple):
    iter_num: jnp.ndarray
    error: jnp.ndarray
    failed_linesearch: jnp.ndarray


@dataclasses.dataclass(eq=False)
class LBFGS:
    fun: Callable
    maxiter: int = 50
    tol: float = 1e-3
    stepsize: float = 0.1
    stop_if_linesearch_fails: bool = False

    def _cond_fun(self, inputs):
        _, state = inputs
        return ((state.error > self.tol)
                & (state.iter_num < self.maxiter)
                & (not self.stop_if_linesearch_fails | ~state.failed_linesearch))

    def _body_fun(self, inputs):
        params, state = inputs
        grad = jax.grad(self.fun)(params)
        params = params - self.stepsize * grad
        return params, LbfgsState(state.iter_num + 1, jnp.linalg.norm(grad), jnp.asarray(False))

    def run(self, init_params):
        state = LbfgsState(jnp.asarray(0), jnp.asarray(jnp.inf), jnp.asarray(False))
        return jax.lax.while_loop(self._cond_fun, self._body_fun, (init_params, state))


if __name__ == "__main__":
    solver = LBFGS(fun=lambda x: jnp.sum((x - 1.0) ** 2), stop_if_linesearch_fails=True)
    print(jax.jit(solver.run)(jnp.zeros(3)))
