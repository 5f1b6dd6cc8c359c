import numpy as np

from probpipe_lite import Normal, function


@function(seed=114514, n_broadcast_samples=16, dispatch="sequential")
def twice(x):
    return 2 * x


if __name__ == "__main__":
    dist = Normal(0.0, 1.0, name="x")
    a = twice(dist)
    b = twice(dist)

    print("same batch:", np.array_equal(np.asarray(a.samples), np.asarray(b.samples)))
