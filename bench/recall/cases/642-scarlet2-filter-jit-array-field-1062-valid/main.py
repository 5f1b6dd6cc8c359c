import jax.numpy as jnp

from scarlet2_lite import MyModule, fit

if __name__ == "__main__":
    module = fit(MyModule(x=jnp.asarray(0), y=jnp.ones(3)), max_iter=10)
    print("x:", int(module.x))
