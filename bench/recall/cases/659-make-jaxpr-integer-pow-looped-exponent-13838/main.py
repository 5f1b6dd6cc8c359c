import jax

x: float = jax.numpy.arange(100, dtype=float)
y: int = 4

if __name__ == "__main__":
    print(jax.make_jaxpr(jax.lax.integer_pow)(x, y))
