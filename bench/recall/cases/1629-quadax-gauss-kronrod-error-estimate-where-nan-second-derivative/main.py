import jax
import jax.numpy as jnp

from quadax_lite import GaussKronrodRule


def integrand(x, c):
    return c * x**2


def error_estimate(c):
    rule = GaussKronrodRule(order=15)
    y, err, y_abs, y_mmn = rule.integrate(integrand, 0.0, 1.0, (c,))
    return err


if __name__ == "__main__":
    print("err:", float(error_estimate(2.0)))
    print("d2 err is nan:", bool(jnp.isnan(jax.grad(jax.grad(error_estimate))(2.0))))
