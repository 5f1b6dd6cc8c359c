import numpy as np

from demo.funcs import f

if __name__ == "__main__":
    x = np.random.randn(3, 4)
    y = np.random.randn(4)
    f(x, y)

    x2 = np.random.randn(3, 4)
    y2 = np.random.randn(4)
    f(x2, y2)
    print("calls: 2")
