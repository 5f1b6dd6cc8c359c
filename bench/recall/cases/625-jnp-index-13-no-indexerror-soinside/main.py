import numpy as np
import jax.numpy as jnp

x = np.arange(10)
#print(x[13]) # this will throw an error
x = jnp.array(x)
# indexing for single index
print(x[13]) # this will not throw an error and returns 9
print(x[-13]) # this will not throw an error and returns 0
# indexing for range of values
print(x[13:15]) # this will not throw an error but returns and empty array
print(x[-13:-15]) # this will not throw an error but returns and empty array

if __name__ == "__main__":
    print("no IndexError")
