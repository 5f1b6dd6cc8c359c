import jax
import jax.numpy as jnp

# jax relies on the stablehlo.gather OOB clamp (XLA CPU clamps to the last row):
f = lambda: jnp.zeros(256, dtype=jnp.int32)[jnp.arange(65536)]
g = lambda: jnp.argsort(jnp.zeros(256))[jnp.arange(65536)]


if __name__ == "__main__":
    out = jax.jit(f)()
    perm = jax.jit(g)()
    print("rows:", out.shape[0], "max index:", int(perm.max()))
    print("clamped:", out.shape[0] > 256 and int(perm.max()) == 255)
