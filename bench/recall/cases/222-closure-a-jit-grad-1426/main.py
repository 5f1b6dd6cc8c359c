import jax
import jax.numpy as np


def test_retain():
    a = 10
    def loss_sum(val):
        loss = np.sum(val[:2]**2 + val[2:]**3) * a
        return loss
    grad = jax.jit(jax.grad(loss_sum))     # added JIT
    gs = grad(np.array([2, 3, 4, 5], dtype=float))
    assert np.allclose(gs, np.array([  40.,  60.,  480., 750.]))
    a = 20
    gs = grad(np.array([2, 3, 4, 5], dtype=float))
    return np.allclose(gs, np.array([  80.,  120.,  960., 1500.]))


if __name__ == "__main__":
    print("stale:", not bool(test_retain()))
