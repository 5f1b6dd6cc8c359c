import numpy as np


def distance(param):
    return np.sqrt(np.sum(param * np.asarray([3.0, 4.0])))
