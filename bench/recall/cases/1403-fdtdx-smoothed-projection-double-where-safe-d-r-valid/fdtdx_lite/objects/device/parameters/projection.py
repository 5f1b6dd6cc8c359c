import jax
import jax.numpy as jnp


def tanh_projection(x: jax.Array, beta: float, eta: float) -> jax.Array:
    is_inf = jnp.isinf(beta)
    is_zero = beta == 0
    safe_beta = jnp.where(is_inf | is_zero, 1.0, beta)
    dividend = jnp.tanh(safe_beta * eta) + jnp.tanh(safe_beta * (x - eta))
    divisor = jnp.tanh(safe_beta * eta) + jnp.tanh(safe_beta * (1 - eta))
    tanh_result = dividend / divisor
    inf_result = jnp.where(x > eta, 1.0, 0.0)
    zero_result = jnp.clip(x, 0, 1)
    result = jnp.where(is_zero, zero_result, jnp.where(is_inf, inf_result, tanh_result))
    return result


def smoothed_projection(
    rho_filtered: jax.Array,
    beta: float,
    eta: float,
    resolution: float,
) -> jax.Array:
    # sanity checks
    assert rho_filtered.ndim == 2
    # Note that currently, the underlying assumption is that the smoothing
    # kernel is a circle, which means dx = dy.
    dx = dy = 1 / resolution
    R_smoothing = 0.55 * dx

    rho_projected = tanh_projection(rho_filtered, beta=beta, eta=eta)

    rho_filtered_grad = jnp.gradient(rho_filtered)
    rho_filtered_grad_helper = (rho_filtered_grad[0] / dx) ** 2 + (rho_filtered_grad[1] / dy) ** 2

    nonzero_norm = jnp.abs(rho_filtered_grad_helper) > 0

    rho_filtered_grad_norm = jnp.sqrt(jnp.where(nonzero_norm, rho_filtered_grad_helper, 1))
    rho_filtered_grad_norm_eff = jnp.where(nonzero_norm, rho_filtered_grad_norm, 1)

    # The distance for the center of the pixel to the nearest interface
    d = (eta - rho_filtered) / rho_filtered_grad_norm_eff

    needs_smoothing = nonzero_norm & (jnp.abs(d) < R_smoothing)

    # https://github.com/google/jax/issues/1052#issuecomment-5140833520
    d_R = d / R_smoothing
    # Double-where trick: when needs_smoothing is False, d_R can be enormous (tiny norm_eff),
    # causing d_R**4 to overflow to inf in float32. JAX evaluates all branches, so the
    # polynomial gradient (dpoly/dd_R = inf) is computed everywhere. The jnp.where mask
    # then computes 0 * inf = NaN. Using safe_d_R = 0 in the masked-out branch keeps
    # dpoly/dd_R finite everywhere, eliminating the NaN.
    safe_d_R = jnp.where(needs_smoothing, d_R, 0.0)
    F = jnp.where(needs_smoothing, 0.5 - 15 / 16 * safe_d_R + 5 / 8 * safe_d_R**3 - 3 / 16 * safe_d_R**5, 1.0)
    # F(-d)
    F_minus = jnp.where(needs_smoothing, 0.5 + 15 / 16 * safe_d_R - 5 / 8 * safe_d_R**3 + 3 / 16 * safe_d_R**5, 1.0)

    # Determine the upper and lower bounds of materials in the current pixel (before projection).
    rho_filtered_minus = rho_filtered - R_smoothing * rho_filtered_grad_norm_eff * F
    rho_filtered_plus = rho_filtered + R_smoothing * rho_filtered_grad_norm_eff * F_minus

    # Finally, we project the extents of our range.
    rho_minus_eff_projected = tanh_projection(rho_filtered_minus, beta=beta, eta=eta)
    rho_plus_eff_projected = tanh_projection(rho_filtered_plus, beta=beta, eta=eta)

    # Only apply smoothing to interfaces
    rho_projected_smoothed = (1 - F) * rho_minus_eff_projected + F * rho_plus_eff_projected
    return jnp.where(
        needs_smoothing,
        rho_projected_smoothed,
        rho_projected,
    )
