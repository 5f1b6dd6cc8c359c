import jax.numpy as jnp
from jax import random, tree_util


def add_noise(aggregated_clipped_grads, rng, l2_norm_clip, noise_multiplier, batch_size):
    clipped_grads_flat, grads_treedef = tree_util.tree_flatten(aggregated_clipped_grads)
    rngs = random.split(rng, len(clipped_grads_flat))
    std_dev = l2_norm_clip * noise_multiplier
    noised_aggregated_clipped_grads = [
        g + std_dev * random.normal(r, g.shape)
        for r, g in zip(rngs, clipped_grads_flat)]
    normalized_noised_aggregated_clipped_grads = [
        g / batch_size for g in noised_aggregated_clipped_grads]
    return tree_util.tree_unflatten(grads_treedef, normalized_noised_aggregated_clipped_grads)


if __name__ == "__main__":
    grads = {"w1": jnp.zeros((3,)), "w2": jnp.zeros((3,))}
    g = add_noise(grads, random.PRNGKey(0), 1.0, 1.0, 4)
    print("same noise:", bool((g["w1"] == g["w2"]).all()))
