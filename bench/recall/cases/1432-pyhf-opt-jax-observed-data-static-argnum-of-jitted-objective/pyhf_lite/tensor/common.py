import numpy as np

from .. import get_backend


class _TensorViewer(object):
    def __init__(self, indices, batch_size=None, names=None):
        # self.partition_indices has the "target" indices
        # of the stitched vector.
        self.batch_size = batch_size
        self.names = names
        self._partition_indices = indices
        # pyhf's default_backend is its numpy backend
        _concat_indices = np.asarray(
            np.concatenate(self._partition_indices), dtype='int'
        )
        self._sorted_indices = _concat_indices.argsort().tolist()
        self._precompute()

    def _precompute(self):
        tensorlib, _ = get_backend()
        self.sorted_indices = tensorlib.astensor(self._sorted_indices, dtype='int')
        self.partition_indices = [
            tensorlib.astensor(idx, dtype='int') for idx in self._partition_indices
        ]

    def stitch(self, data):
        tensorlib, _ = get_backend()
        assert len(self.partition_indices) == len(data)

        data = tensorlib.concatenate(data, axis=-1)
        if len(tensorlib.shape(data)) == 1:
            stitched = tensorlib.gather(data, self.sorted_indices)
        else:
            data = tensorlib.einsum('...j->j...', data)
            stitched = tensorlib.gather(data, self.sorted_indices)
            stitched = tensorlib.einsum('j...->...j', stitched)
        return stitched
