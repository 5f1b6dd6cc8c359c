from functools import partial

import jax
import jax.numpy as jnp
from jax import core
from jax.interpreters import xla


# Primitives ==========================================================================

solve_f64 = core.Primitive("solve_f64")
coo_mul_vec_f64 = core.Primitive("coo_mul_vec_f64")


# XLA Implementations =================================================================


def xla_register_cpu(primitive, cpp_fun):
    name = primitive.name.encode()

    def decorator(fun):
        # xla_client.register_custom_call_target(name, cpp_fun()) needs the compiled klujax_cpp
        xla.backend_specific_translations["cpu"][primitive] = partial(fun, name)
        return fun

    return decorator


@xla_register_cpu(solve_f64, None)
@xla_register_cpu(coo_mul_vec_f64, None)
def coo_vec_operation_xla(primitive_name, c, Ai, Aj, Ax, b):
    Ax_shape = c.get_shape(Ax)
    Ai_shape = c.get_shape(Ai)
    return Ax_shape, Ai_shape


if __name__ == "__main__":
    print(jnp.zeros(3))
