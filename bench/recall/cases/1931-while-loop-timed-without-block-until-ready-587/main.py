import time
import jax.numpy as np
from jax import jit, lax

def f(x):
    return np.mean(x - np.ones(10000))

x = np.array(0.)

if __name__ == "__main__":
    t = time.time()
    f(x)
    print("time to evaluate f       :", time.time() - t)

    jf = jit(f)
    jf(x)

    t = time.time()
    jf(x)
    print("time to evaluate jitted f:", time.time() - t)

    t = time.time()
    lax.while_loop(lambda x: x < 0, jf, np.array(0.))
    print("time for while_loop f    :", time.time() - t)

    t = time.time()
    lax.while_loop(lambda x: x < 0, jf, np.array(0.))
    print("time for while_loop f    :", time.time() - t)
