import numpy as np
import jax.numpy as jnp

array1 = np.arange(5, dtype=np.int32)
array2 = jnp.arange(5, dtype=jnp.int32)

print("Original ndarray: ", array1)
print("Original DeviceArray: ", array2)

# Item assignment
array1[4] = 10
print("\nModified ndarray: ", array1)

if __name__ == "__main__":
    try:
        array2[4] = 10
        print("Modified DeviceArray: ", array2)
    except TypeError as e:
        print("TypeError:", str(e).splitlines()[0])
