import jax
import jax.numpy as jnp

global_list = []


def log2(x):
    global_list.append(x)
    ln_x = jnp.log(x)
    ln_2 = jnp.log(2.0)
    return ln_x / ln_2


print(jax.make_jaxpr(log2)(3.0))

if __name__ == "__main__":
    print(global_list)
    print("tracer kept:", isinstance(global_list[0], jax.core.Tracer))
