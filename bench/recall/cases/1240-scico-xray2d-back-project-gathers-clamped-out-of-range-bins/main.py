import numpy as np

import jax
import jax.numpy as jnp

from scico_lite.linop.xray import XRayTransform2D

if __name__ == "__main__":
    N = 32
    angles = np.linspace(0, np.pi, 8, endpoint=False)
    # a detector narrower than the image diagonal: some pixels project outside it
    A = XRayTransform2D((N, N), angles, det_count=24)
    x = jax.random.uniform(jax.random.PRNGKey(0), (N, N))
    y = jax.random.uniform(jax.random.PRNGKey(1), A.output_shape)
    lhs = jnp.vdot(A.project(x), y)  # <A x, y>
    rhs = jnp.vdot(x, A.back_project(y))  # <x, A^T y>
    rel = float(jnp.abs(lhs - rhs) / jnp.abs(lhs))
    print(f"adjoint relative mismatch {rel:.2e}, back projection is the adjoint: {rel < 1e-4}")
