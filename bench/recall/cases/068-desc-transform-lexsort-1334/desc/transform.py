import numpy as np


class Transform:
    def __init__(self, modes):
        self.modes = modes

    def _check_inputs_fft(self, modes):
        id2 = np.lexsort((modes[:, 1], modes[:, 0], modes[:, 2]))
        return modes[id2]
