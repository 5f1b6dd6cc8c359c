import jax
import numpy as np

x = 0.
f = jax.jit(lambda x: x + np.float32(0.))

if __name__ == "__main__":
    y = f(x)
    z = f(y)
    print("y weak:", y.weak_type, "z weak:", z.weak_type)
