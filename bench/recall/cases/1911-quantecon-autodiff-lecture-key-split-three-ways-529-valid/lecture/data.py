import jax


def simulate_data(key, n=100):
    key, x_key, eps_key = jax.random.split(key, 3)
    x = jax.random.uniform(x_key, (n,))

    α, β, σ = 0.5, 1.0, 0.1
    ϵ = jax.random.normal(eps_key, (n,))

    y = α * x + β + σ * ϵ
    return x, y
