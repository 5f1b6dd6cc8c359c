import jax
import jax.numpy as np

from jax_cosmo_lite.background import transverse_comoving_distance
from jax_cosmo_lite.core import Cosmology

if __name__ == "__main__":
    cosmo = Cosmology(Omega_c=0.2545, Omega_b=0.0485, h=0.682, n_s=0.971, sigma8=0.801,
                      Omega_k=0.01, w0=-1.0, wa=0.0)
    a = np.array([0.5, 0.8])
    try:
        # the cosmology is a pytree: under jit its parameters are traced (e.g. in a likelihood)
        print("f_k:", jax.jit(transverse_comoving_distance)(cosmo, a))
    except jax.errors.TracerBoolConversionError as e:
        print("TracerBoolConversionError:", str(e).splitlines()[0])
