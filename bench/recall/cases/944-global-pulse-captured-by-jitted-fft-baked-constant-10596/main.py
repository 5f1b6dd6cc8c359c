import time
import jax
import numpy as np
import jax.numpy as jnp

pulse = jax.device_put(np.random.rand(8000))

def f():
    sigTx = jnp.fft.fft(pulse)
    return sigTx

if __name__ == "__main__":
    t0 = time.time()
    a = jax.jit(f, backend='cpu')()
    t1 = time.time()
    print('time cost on cpu:', t1 - t0)
    lowered = jax.jit(f, backend='cpu').lower().as_text()
    print("pulse baked into the program as a constant:",
          "stablehlo.constant dense<" in lowered and "tensor<8000xf32>" in lowered)
