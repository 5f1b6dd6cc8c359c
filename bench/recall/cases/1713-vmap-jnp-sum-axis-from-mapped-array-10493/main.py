from jax import vmap
import jax
import jax.numpy as jnp

x = jnp.ones((3, 2, 2))
y = jnp.array([[0, 1]] * 3)

if __name__ == "__main__":
    print(jnp.sum(x[0], y[0]))
    try:
        print(vmap(lambda x, y: jnp.sum(x, y))(x,y))
    except jax.errors.ConcretizationTypeError as err:
        print("ConcretizationTypeError:", str(err).splitlines()[0])
