import jax.numpy as jnp

from datagen import DataGenerator

if __name__ == "__main__":
    gen = DataGenerator(0)
    vals = gen.gen_data(jnp.zeros(3))
    steps = jnp.diff(vals, axis=0)
    print("same noise every step:", bool(jnp.allclose(steps, steps[0])))
    print("self.key after scan:", type(gen.key).__name__)
