import jax.numpy as jnp

from coax_lite.proba_dists._discretized_interval import DiscretizedIntervalDist

if __name__ == "__main__":
    dist = DiscretizedIntervalDist(low=-10.0, high=10.0, num_bins=11)
    dist_params = {'logits': jnp.zeros((3, dist.num_bins))}
    gamma, reward = 0.9, jnp.array([1.0, 0.0, -1.0])
    target = dist.affine_transform(dist_params, gamma, reward)
    print("projected probabilities sum:", jnp.exp(target['logits']).sum(axis=1))
