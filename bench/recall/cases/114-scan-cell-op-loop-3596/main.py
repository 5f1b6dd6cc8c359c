import jax
import jax.numpy as jnp
from jax import jit, random

time_step = 60
batch_size = 20


def get_cell(OP_NUM):
    def cell(inputs, state):
        x, observers = inputs
        acc = x
        for i in range(OP_NUM):
            acc = acc + observers[i]
        return inputs, state

    return cell


def rnn_test(X, state, OP_NUM):
    cell = get_cell(OP_NUM)
    observer_vars = [jnp.zeros([time_step, 1]) for v in range(OP_NUM)]
    _, y = jax.lax.scan(cell, [X, observer_vars], state)
    return y


rng = jax.random.PRNGKey(0)
X = random.normal(rng, [time_step, batch_size])
state = jnp.zeros((batch_size,))

rnn_jit = jit(rnn_test, static_argnums=(2,))

if __name__ == "__main__":
    small = len(jax.make_jaxpr(rnn_test, static_argnums=(2,))(X, state, 5).eqns[-1].params["jaxpr"].eqns)
    big = len(jax.make_jaxpr(rnn_test, static_argnums=(2,))(X, state, 75).eqns[-1].params["jaxpr"].eqns)
    print("unrolled:", big > small)
