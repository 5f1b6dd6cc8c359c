import jax.numpy as jnp

from solver import project_nonnegative

if __name__ == "__main__":
    q = jnp.array([-1.0, 0.5, -0.2, 2.0])
    try:
        print(project_nonnegative(q))
    except TypeError as e:
        print("TypeError:", str(e).splitlines()[0])
