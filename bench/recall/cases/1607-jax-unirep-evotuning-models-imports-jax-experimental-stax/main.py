import jax.numpy as np
from jax.random import PRNGKey

from jax_unirep_lite.evotuning_models import mlstm64

if __name__ == "__main__":
    init_fun, apply_fun = mlstm64()
    _, params = init_fun(PRNGKey(42), input_shape=(-1, 26))
    out = apply_fun(params, np.ones((7, 26)))
    print("out:", out.shape)
