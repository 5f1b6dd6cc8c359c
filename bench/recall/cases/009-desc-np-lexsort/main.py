import jax
import jax.numpy as jnp
import numpy as np


def _check_inputs_fft(modes):
    id2 = np.lexsort((modes[:, 1], modes[:, 0], modes[:, 2]))
    return modes[id2]


@jax.jit
def compute_scaled_error(modes):
    return _check_inputs_fft(modes).sum()


if __name__ == "__main__":
    compute_scaled_error(jnp.arange(12).reshape(4, 3))
