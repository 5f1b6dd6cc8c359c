import jax
import jax.numpy as jnp
import numpy as np

from tpm import Tpm


def model_log_density(params, MRT):
    pos, eff, sig, mean_time, sigma = params
    array = np.array([[pos,eff,sig,mean_time]],dtype=np.float64)
    ran = np.arange(0,100)
    mrt = Tpm(ran,array)
    return jnp.sum(jax.scipy.stats.norm.logpdf(MRT, mrt, sigma))


if __name__ == "__main__":
    params = jnp.array([10.0, 0.5, 1.0, 10.0, 1.0])
    MRT = np.ones(100)
    print(model_log_density(params, MRT))
    print(jax.grad(model_log_density)(params, MRT))
