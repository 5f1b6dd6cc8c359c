from jax import random, tree_util


def add_noise(grads, rng, l2_norm_clip, noise_multiplier):
    std_dev = l2_norm_clip * noise_multiplier
    noise_ = lambda n: n + std_dev * random.normal(rng, n.shape)
    return tree_util.tree_map(noise_, grads)
