import jax.numpy as jnp
import jax.random as jr

from efax_lite import ComplexUnitVarianceNormalNP

if __name__ == "__main__":
    q = ComplexUnitVarianceNormalNP(jnp.zeros(3, dtype=jnp.complex64))
    x = q.sample(jr.key(0), (4,))
    print("shape:", x.shape)
    print("same:", bool(jnp.array_equal(x.real, x.imag)))
