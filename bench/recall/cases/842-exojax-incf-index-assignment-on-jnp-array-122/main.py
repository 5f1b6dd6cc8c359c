import jax.numpy as jnp

a=jnp.zeros(5)
indx=jnp.array([1,2])
val=jnp.array([10.0,3.0])

if __name__ == "__main__":
    a[indx]=val #error
    print(a)
