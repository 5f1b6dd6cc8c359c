import time
import jax
import numpy as np
import jax.numpy as jnp

pulse = jax.device_put(np.random.rand(10000))

def f(pulse):
    return jnp.fft.fft(pulse)

if __name__ == "__main__":
    t0 = time.time()
    a = jax.jit(f, backend='cpu')(pulse)
    t1 = time.time()
    print('time cost on cpu:', t1 - t0)
    lowered = jax.jit(f, backend='cpu').lower(pulse).as_text()
    print("pulse baked into the program as a constant:", "stablehlo.constant dense<\"" in lowered)
