import numpy as np


def to_batch_shape_index(batch_shape, index):
    new_index = [x[index] for x in np.indices(batch_shape)]
    return tuple(new_index)
