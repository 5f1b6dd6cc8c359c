import jax.numpy as jnp

if __name__ == "__main__":
    out = jnp.array([0.0]).at[jnp.array([-1])].add(jnp.array([1.0]), mode="drop")
    print("Returns", out)
    print("update dropped:", bool(out[0] == 0.0))
