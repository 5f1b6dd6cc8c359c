import jax
import jax.numpy as jnp

if __name__ == "__main__":
    counter = jnp.array(5)
    result = jax.lax.cond(
        counter >= 10,
        lambda x: x, lambda x: (0., dict()),  # Dummy.
        (1., dict(a=3, b=4)))  # Extra can be unknown apriori.
    print(result)
