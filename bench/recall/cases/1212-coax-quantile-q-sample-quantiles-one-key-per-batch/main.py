import jax.numpy as jnp

from coax_lite._core.quantile_q import QuantileQ

if __name__ == "__main__":
    quantiles = QuantileQ.example_data(num_quantiles=8, batch_size=4, random_seed=13)
    same = bool(jnp.all(quantiles == quantiles[:1]))
    print(f"quantiles {quantiles.shape}, every example the same fractions: {same}")
