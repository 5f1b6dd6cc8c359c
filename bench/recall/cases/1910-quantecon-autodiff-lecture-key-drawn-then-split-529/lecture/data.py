import jax


def simulate_data(key, n=100):
    x = jax.random.uniform(key, (n,))

    α, β, σ = 0.5, 1.0, 0.1
    key, subkey = jax.random.split(key)
    ϵ = jax.random.normal(subkey, (n,))

    y = α * x + β + σ * ϵ
    return x, y
