import numpy as np
import jax.numpy as jnp

numpy_array = np.array([10, 20])
numpy_array_new = numpy_array
numpy_array_new += 10
print(numpy_array)      # the original is modified too: [20 30]

jax_array = jnp.array([10, 20])
jax_array_new = jax_array
jax_array_new += 10
print(jax_array_new)  # `jax_array_new` is rebound to a new value [20, 30], but...
print(jax_array)      # the original value is unmodified as [10, 20] !

if __name__ == "__main__":
    print("original unchanged:", jax_array.tolist() == [10, 20])
