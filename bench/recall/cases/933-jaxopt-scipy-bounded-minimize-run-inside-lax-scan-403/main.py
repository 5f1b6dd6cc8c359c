import jax
import jax.numpy as jnp
from typing import NamedTuple

from jaxopt_lite import ScipyBoundedMinimize


class Model(NamedTuple):
    grid: jax.Array
    beta: float


def state_action_value_jax(c, data):
    y, v, model = data
    # utility of consuming c out of wealth y, plus discounted value of what is left
    return -(jnp.log(c[0]) + model.beta * jnp.interp(y - c[0], model.grid, v))


solver = ScipyBoundedMinimize(fun=state_action_value_jax, method="l-bfgs-b")


def T_jax(v, model):
    def update_v(carry, y):
        b = (jnp.array([1e-5]), jnp.array([y]))
        result = solver.run(jnp.array([y / 2]), bounds=b, data=(y, v, model)).params
        return carry + 1, (result.x, -result.fun, result.success)
    _, v_values = jax.lax.scan(update_v, 0, model.grid)
    return v_values


if __name__ == "__main__":
    model = Model(grid=jnp.linspace(1e-3, 2.0, 8), beta=0.96)
    v = jnp.log(model.grid)
    print(T_jax(v, model))
