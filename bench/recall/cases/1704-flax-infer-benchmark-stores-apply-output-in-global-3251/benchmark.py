import time

import jax
import jax.numpy as jnp

from bench_pkg import init_model

input_shape = (1, 32, 32, 3)
output = None
model, params = init_model(input_shape)


@jax.jit
def infer(x):
    global output
    output = model.apply(params, x)


if __name__ == "__main__":
    ret = infer(jnp.ones(input_shape))
    print("infer returned:", ret)
    print("global output is a tracer:", isinstance(output, jax.core.Tracer))

    s = time.time()
    for i in range(20):
        output = infer(jnp.ones(input_shape))
        output = None
    e = time.time()
    print(20 / (e - s))
