import jax.numpy as jnp

import jaxsim_lite.api as js
from tests.test_benchmark import vectorize_data

if __name__ == "__main__":
    data = vectorize_data(model=js.model.JaxSimModel(), batch_size=8)
    pos = data.base_position
    print("base positions:", pos[:3])
    print("every batch element identical:", bool(jnp.all(pos == pos[0])))
