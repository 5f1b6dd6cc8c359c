from time import time

import jax
import numpy as np


@jax.jit
def my_function(x, y):
    # Matrix multiplication
    return x @ y


# Apply vmap to process matrices in batches
vectorized_function = jax.vmap(my_function, in_axes=(0, None))

shape = (10_000, 1_000)  # Simulating large-scale computation
x = np.ones(shape)
y = np.ones(shape[1])

if __name__ == "__main__":
    # --- First execution (t_1) ---
    start = time()
    vectorized_function(x, y).block_until_ready()
    t_1 = time() - start

    # --- Second execution (t_2) ---
    start = time()
    vectorized_function(x, y).block_until_ready()
    t_2 = time() - start

    print(f'{t_1 = }\n{t_2 = }')
