import jax.numpy as jnp

from jaxampler_lite.rvs import Binomial

if __name__ == "__main__":
    rv = Binomial(p=0.5, n=10)
    print("pmf(3):", rv.pmf_x(3))
    try:
        print("cdf(3):", rv.cdf_x(3))
    except Exception as e:
        print("cdf:", type(e).__name__, str(e).splitlines()[0])
