import jax.numpy as jnp

from evo.workflow import foo

if __name__ == "__main__":
    print(foo(jnp.array([-1.0, 2.0, 3.0])))
