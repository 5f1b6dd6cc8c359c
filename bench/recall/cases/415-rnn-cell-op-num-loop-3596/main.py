from time import time

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
        # inputs[0] = jnp.sum(observers, axis=0)
        return inputs, state

    return cell


def rnn_test(X, state, OP_NUM):
    cell = get_cell(OP_NUM)
    observer_vars = [jnp.zeros([time_step, 1]) for v in range(OP_NUM)]
    # observer_vars = jnp.stack(observer_vars, axis=1)
    _, y = jax.lax.scan(cell, [X, observer_vars], state)
    return y


rng = jax.random.PRNGKey(0)
X = random.normal(rng, [time_step, batch_size])
state = jnp.zeros((batch_size,))

rnn_jit = jit(rnn_test, static_argnums=(2,))


def rnn_jit_time(OP_NUM):
    ts = time()
    rnn_jit(X, state, OP_NUM).block_until_ready()
    print(f'{OP_NUM} Init time: {time() - ts:.3f} sec')


if __name__ == "__main__":
    rnn_jit_time(75)
    rnn_jit_time(150)
    jaxpr = jax.make_jaxpr(rnn_test, static_argnums=(2,))(X, state, 150)
    print("adds staged in the cell:", str(jaxpr).count(" = add "))
