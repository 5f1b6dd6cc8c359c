import jax.numpy as np

x_train = np.zeros((30000, 2, 2, 1))


def load(i):
    return np.ones((10000, 2, 2, 1)) * i


if __name__ == "__main__":
    for i in range(1, 4):
        data = load(i)
        x_train[(i - 1) * 10000 : i * 10000, :, :, :] = data
