import numpy as np

from advection import test_should_fail

data = np.ones((100, 100))
u = np.random.randn(50, 30)

if __name__ == "__main__":
    out = test_should_fail(data, u)
    print("shape:", out.shape)
    print("no IndexError under jit: True")
