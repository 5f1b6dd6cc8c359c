import jax
import jax.numpy as jnp
from jax import jit

f = jit(lambda x: jnp.mean(jnp.asarray(x)))

if __name__ == "__main__":
    print(f([float(i) for i in range(1000)]))
    jaxpr = jax.make_jaxpr(lambda x: jnp.mean(jnp.asarray(x)))([float(i) for i in range(1000)])
    print("traced inputs:", len(jaxpr.jaxpr.invars))
