from functools import partial

import jax
import jax.numpy as jnp


def init_state(start, goal, num_dreams=20, num_layers=2, num_points=64):
    return {
        "start": start,
        "goal": goal,
        "num_dreams": num_dreams,
        "num_layers": num_layers,
        "num_points": num_points,
    }


@partial(jax.jit, static_argnames=("num_dreams", "num_layers", "num_points"))
def _plan(keys, start, goal, num_dreams, num_layers, num_points):
    def one(key):
        pts = jax.random.uniform(key, (num_layers, num_points, start.shape[0]))
        costs = jnp.linalg.norm(pts - start, axis=-1) + jnp.linalg.norm(pts - goal, axis=-1)
        idx = jnp.argmin(costs, axis=-1)
        return jnp.take_along_axis(pts, idx[:, None, None], axis=1)[:, 0]

    return jax.vmap(one)(keys)


def gtmp(keys, gtmp_state):
    return _plan(keys, gtmp_state["start"], gtmp_state["goal"],
                 gtmp_state["num_dreams"], gtmp_state["num_layers"], gtmp_state["num_points"])
