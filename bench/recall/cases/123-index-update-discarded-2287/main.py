import jax
import numpy as onp
import jax.numpy as np

dt = 1e-3
N = 100
x0 = 1.5
v0 = 0

tab_x = np.zeros(N)
tab_v = np.zeros(N)
tab_t = np.arange(N) * dt
c = 4 * onp.pi**2

if __name__ == "__main__":
    x = x0
    v = v0
    for i in range(N):
        x = x + v * dt
        v = v - c * np.sin(x) * dt
        jax.ops.index_update(tab_x, i, x)
        jax.ops.index_update(tab_v, i, v)
