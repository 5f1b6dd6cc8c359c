import jax.numpy as jnp

from solver import project_nonnegative

if __name__ == "__main__":
    q = jnp.array([-1.0, 0.5, -0.2, 2.0])
    print("projected:", project_nonnegative(q).tolist() == [0.0, 0.5, 0.0, 2.0])
