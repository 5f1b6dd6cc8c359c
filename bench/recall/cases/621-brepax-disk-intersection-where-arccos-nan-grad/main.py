import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)

eps = 1e-6


def disk_disk_intersection_area(c1, r1, c2, r2):
    """Analytical intersection area of two disks (lens formula)."""
    d = jnp.linalg.norm(c1 - c2)
    disjoint = d >= r1 + r2
    contained = d <= jnp.abs(r1 - r2)
    cos_alpha = (d**2 + r1**2 - r2**2) / (2 * d * r1)  # division by d
    cos_beta = (d**2 + r2**2 - r1**2) / (2 * d * r2)
    alpha = jnp.arccos(cos_alpha)  # arccos at boundary
    beta = jnp.arccos(cos_beta)
    lens = r1**2 * (alpha - jnp.sin(2 * alpha) / 2) + r2**2 * (beta - jnp.sin(2 * beta) / 2)
    contained_area = jnp.pi * jnp.minimum(r1, r2) ** 2
    return jnp.where(disjoint, 0.0, jnp.where(contained, contained_area, lens))


def disk_disk_union_area(c1, r1, c2, r2):
    return jnp.pi * r1**2 + jnp.pi * r2**2 - disk_disk_intersection_area(c1, r1, c2, r2)


if __name__ == "__main__":
    c1, r1, r2 = jnp.array([0.0, 0.0]), jnp.array(1.5), jnp.array(0.5)
    c2 = jnp.array([5.0, 0.0])  # disjoint disks
    area = disk_disk_union_area(c1, r1, c2, r2)
    g = jax.grad(lambda r: disk_disk_union_area(c1, r, c2, r2))(r1)
    print("area:", float(area), "grad nan:", bool(jnp.isnan(g)))
