import jax
import jax.numpy as jnp


def power_iteration_sr(A, num_iterations=15, seed=1234):
    " Estimates the spectral radius of A via power iteration. "

    # Initialize
    key = jax.random.PRNGKey(seed)
    b_k = jax.random.normal(key, (A.shape[1],))
    sr = 0

    for _ in range(num_iterations):
        # calculate the matrix-by-vector product Ab
        b_k1 = jnp.dot(A, b_k)

        # calculate the norm
        b_k1_norm = jnp.linalg.norm(b_k1)

        # Record the current estimate of the spectral radius
        sr = jnp.sum(b_k1 * b_k)/jnp.sum(b_k * b_k)

        # re-normalize the vector and continue
        b_k = b_k1 / b_k1_norm

    return sr


power_iteration_sr = jax.jit(power_iteration_sr, static_argnums=(1,2))


if __name__ == "__main__":
    Q = jnp.array([[0.9, 0.1], [0.2, 0.8]]) * 0.95
    sr = power_iteration_sr(Q)
    print(sr)
    # a reader who wants more iterations
    sr = power_iteration_sr(Q, num_iterations=50)
    print(sr)
