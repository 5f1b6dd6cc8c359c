import numpy as np

g = lambda i: np.zeros((3, 3))[i, :]
