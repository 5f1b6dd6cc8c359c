import jax
import jax.numpy as jnp

from netket_lite.utils import timing


@timing.timed(name="expect")
@jax.jit
def expect(x):
    for _ in range(20):
        x = jnp.tanh(x @ x.T) @ x
    return x.sum()


if __name__ == "__main__":
    x = jax.random.normal(jax.random.key(0), (400, 400)) * 0.01
    expect(x).block_until_ready()  # compile
    with timing.Timer() as timer:
        e = expect(x)
        print(float(e))
    print(f"total {timer.total:.4f} s, expect {timer.sub_timers['expect'].total:.4f} s")
