import numpy as np

from keras_lite import random

if __name__ == "__main__":
    x = np.arange(10)
    print(random.shuffle(x, seed=42))
