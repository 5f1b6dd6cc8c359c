import jax
import jax.numpy as jnp


# BREAKS — n is a Tracer under plain jit; output shape unknown at trace time
def repeat_v1(x, n):
    out = jnp.zeros((n * x.shape[0],))  # n is a tracer; shape error
    for i in range(n):  # range(tracer) also errors
        out = out.at[i * x.shape[0]:(i + 1) * x.shape[0]].set(x)
    return out


if __name__ == "__main__":
    print("eager:", repeat_v1(jnp.array([1.0, 2.0]), 3))
    try:
        jax.jit(repeat_v1)(jnp.array([1.0, 2.0]), 3)
    except Exception as e:
        print(f"{type(e).__name__}: {str(e).splitlines()[0]}")
