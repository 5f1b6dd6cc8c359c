import logging

import jax

logger = logging.getLogger(__name__)


class NICERLikelihood:
    def __init__(self, psr_name, amsterdam_flow, maryland_flow, N_masses_evaluation=100, seed=42):
        self.psr_name = psr_name
        self.amsterdam_flow = amsterdam_flow
        self.maryland_flow = maryland_flow

        # Pre-sample masses ONCE at initialization
        logger.info(
            f"Pre-sampling {N_masses_evaluation} masses with seed={seed} for {psr_name}"
        )
        key = jax.random.key(seed)
        key_amsterdam, key_maryland = jax.random.split(key)
        amsterdam_samples = self.amsterdam_flow.sample(key_amsterdam, (N_masses_evaluation,))
        maryland_samples = self.maryland_flow.sample(key_maryland, (N_masses_evaluation,))
        # Extract only masses, discard radius values from flow
        self.amsterdam_fixed_mass_samples = amsterdam_samples[:, :1]  # Shape: [N, 1]
        self.maryland_fixed_mass_samples = maryland_samples[:, :1]  # Shape: [N, 1]
