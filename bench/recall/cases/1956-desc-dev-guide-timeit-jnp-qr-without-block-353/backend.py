import timeit

import numpy as np
import jax.numpy as jnp

A = np.random.default_rng(0).normal(size=(400, 400))
A_jnp = jnp.asarray(A)

if __name__ == "__main__":
    t_np = timeit.timeit(lambda: np.linalg.qr(A), number=20)
    t_jnp = timeit.timeit(lambda: jnp.linalg.qr(A_jnp), number=20)
    print(f"numpy qr: {t_np / 20 * 1e3:.2f} ms per loop")
    print(f"jax qr:   {t_jnp / 20 * 1e3:.2f} ms per loop")
