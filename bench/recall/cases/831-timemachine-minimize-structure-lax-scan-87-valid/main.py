import jax
import numpy as onp

from tests.test_optimizers import loss

if __name__ == "__main__":
    initial_params = onp.array([10.0, 3.0, 5.5], dtype=onp.float32)
    # very slow for long loops, since JITing is super-linear
    loss_grad_fn = jax.jit(jax.grad(loss, argnums=(0,)))
    print("loss grad:", loss_grad_fn(initial_params)[0])
    n_eqns = len(jax.make_jaxpr(jax.grad(loss))(initial_params).eqns)
    print("traced equations:", n_eqns)
    print("75 steps unrolled:", n_eqns > 300)
