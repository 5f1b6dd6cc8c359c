import jax
import jax.numpy as jnp
from jax import lax

buf = jnp.arange(10, dtype=jnp.float32)


def read(buf, i, j):
    return lax.dynamic_slice(lax.dynamic_slice(buf, (i,), (4,)), (j,), (1,))[0]


if __name__ == "__main__":
    results = []
    for i, j in [(9, 0), (3, 5), (6, 0)]:
        jit_val = float(jax.jit(read)(buf, i, j))
        eager_val = float(read(buf, i, j))
        print(f"i={i} j={j}: jit reads buf[{jit_val:.0f}], op-by-op reads buf[{eager_val:.0f}]")
        results.append(jit_val == eager_val)
    print("out-of-range starts silently clamped, inconsistently:", not all(results))
