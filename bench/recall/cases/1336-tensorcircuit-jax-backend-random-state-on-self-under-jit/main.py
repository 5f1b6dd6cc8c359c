import jax
import jax.numpy as jnp

import tensorcircuit_lite as tc


@tc.backend.jit
def f(key):
    tc.backend.set_random_state(key)
    r = []
    for _ in range(3):
        r.append(tc.backend.implicit_randu()[0])
    return jnp.stack(r)


if __name__ == "__main__":
    r1 = f(jax.random.PRNGKey(43))
    r2 = f(jax.random.PRNGKey(44))
    print(r1, r2)
    print(f"draws depend on the key: {not bool(jnp.array_equal(r1, r2))}")
