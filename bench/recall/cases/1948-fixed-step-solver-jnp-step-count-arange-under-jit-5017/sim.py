import jax
import jax.numpy as jnp

from odesolve_lite import jaxfixedsolve

def sim_function(coeff):

    def rhs(t, y):
        return coeff * y
    
    return jaxfixedsolve(rhs, t_span=[0, 0.5], y0=jnp.array(1., dtype=float), max_dt = 0.1)

if __name__ == "__main__":
    print("unjitted:", sim_function(1.0))
    try:
        print("jitted:", jax.jit(sim_function)(1.0))
    except Exception as e:
        print(f"{type(e).__name__}: {str(e).splitlines()[0]}")
