from jax import jit
import numpy as np

if __name__ == "__main__":
    try:
        jit(lambda x: x)(np.array(['hi']))
    except TypeError as e:
        print("TypeError:", e)
