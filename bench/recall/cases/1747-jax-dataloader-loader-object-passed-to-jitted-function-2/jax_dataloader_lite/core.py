import numpy as np


class Dataset:
    """A dataset of arrays indexed along their first axis."""

    def __init__(self, *arrays):
        assert all(arrays[0].shape[0] == arr.shape[0] for arr in arrays)
        self.arrays = arrays

    def __len__(self):
        return self.arrays[0].shape[0]

    def __getitem__(self, index):
        return tuple(arr[index] for arr in self.arrays)


class DataLoaderJax:
    """Batches of a Dataset, as numpy arrays."""

    def __init__(self, dataset, batch_size=1, shuffle=False, drop_last=False):
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.drop_last = drop_last

    def __iter__(self):
        indices = np.arange(len(self.dataset))
        if self.shuffle:
            np.random.shuffle(indices)
        for start in range(0, len(indices), self.batch_size):
            batch_idx = indices[start:start + self.batch_size]
            if self.drop_last and len(batch_idx) < self.batch_size:
                break
            yield self.dataset[batch_idx]
