import jax.numpy as jnp
from jax.lax import scan
import numpy as np

def jaxfixedsolve(rhs, t_span, y0, max_dt):

    delta_t = t_span[1] - t_span[0]
    steps = jnp.array(delta_t // max_dt).astype(int)
    h = delta_t / steps

    def scan_func(carry, step):
        eval_time = t_span[0] + (h * step)
        return (carry + rhs(eval_time, carry)*h, None)

    yf = scan(scan_func, y0, jnp.arange(steps))[0]
    return yf
