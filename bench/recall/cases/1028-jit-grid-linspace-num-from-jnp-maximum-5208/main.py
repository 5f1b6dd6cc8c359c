import jax
import jax.numpy as jnp


@jax.jit
def grid1():
    print('re-compiling ...')
    t0, tf, num_steps = 0., 1., 10
    ts = jnp.linspace(t0, tf, num_steps + 1)
    return ts


@jax.jit
def grid2():
    print('re-compiling ...')
    t0, tf, dt = 0., 1., 1e-1
    num_steps = jnp.maximum(jnp.abs((tf - t0)/dt), 1)
    ts = jnp.linspace(t0, tf, num_steps + 1)
    return ts


if __name__ == "__main__":
    print(grid1())
    print(grid2())
