import jax
import numpy as np


@jax.jit
def print_yay(arr, msg):
    print(msg)
    print(arr)


if __name__ == "__main__":
    try:
        print_yay(np.array([5, 3, 2, 2020]), "this is my message!")
    except TypeError as e:
        print("TypeError:", e)
