import jax.numpy as jnp
from jax import grad, random, tree_util, vmap


def loss(params, batch):
    inputs, targets = batch
    preds = inputs @ params["w1"] + inputs @ params["w2"]
    return jnp.mean((preds - targets) ** 2)


def private_grad(params, batch, rng, l2_norm_clip, noise_multiplier, batch_size):
    """Return differentially private gradients for params, evaluated on batch."""

    def _clipped_grad(params, single_example_batch):
        """Evaluate gradient for a single-example batch and clip its grad norm."""
        grads = grad(loss)(params, single_example_batch)
        nonempty_grads, tree_def = tree_util.tree_flatten(grads)
        total_grad_norm = jnp.linalg.norm(
            jnp.array([jnp.linalg.norm(neg.ravel()) for neg in nonempty_grads]))
        divisor = jnp.maximum(total_grad_norm / l2_norm_clip, 1.)
        normalized_nonempty_grads = [g / divisor for g in nonempty_grads]
        return tree_util.tree_unflatten(tree_def, normalized_nonempty_grads)

    px_clipped_grad_fn = vmap(lambda b: _clipped_grad(params, b))
    std_dev = l2_norm_clip * noise_multiplier
    noise_ = lambda n: n + std_dev * random.normal(rng, n.shape)
    normalize_ = lambda n: n / float(batch_size)
    tree_map = tree_util.tree_map
    sum_ = lambda n: jnp.sum(n, 0)  # aggregate
    aggregated_clipped_grads = tree_map(sum_, px_clipped_grad_fn(batch))
    noised_aggregated_clipped_grads = tree_map(noise_, aggregated_clipped_grads)
    normalized_noised_aggregated_clipped_grads = (
        tree_map(normalize_, noised_aggregated_clipped_grads)
    )
    return normalized_noised_aggregated_clipped_grads


if __name__ == "__main__":
    params = {"w1": jnp.zeros((3,)), "w2": jnp.zeros((3,))}
    batch = (jnp.zeros((4, 1, 3)), jnp.zeros((4, 1)))
    g = private_grad(params, batch, random.PRNGKey(0), 1.0, 1.0, 4)
    print(g)
    print("same noise:", bool((g["w1"] == g["w2"]).all()))
