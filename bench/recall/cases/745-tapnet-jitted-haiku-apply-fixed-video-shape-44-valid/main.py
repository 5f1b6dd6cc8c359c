import haiku as hk
import jax
import jax.numpy as jnp

from model import build_model

model = hk.transform_with_state(build_model)
model_apply = jax.jit(model.apply)   ## highlight 2


def inference(params, state, frames, query_points):
    rng = jax.random.PRNGKey(42)
    outputs, _ = model_apply(params, state, rng, frames, query_points)   ## highlight 1
    return outputs["tracks"], outputs["occlusion"] < 0


if __name__ == "__main__":
    frames0 = jnp.zeros((1, 4, 16, 16, 3))
    queries0 = jnp.zeros((1, 5, 3))
    params, state = model.init(jax.random.PRNGKey(0), frames0, queries0)
    videos = [(n_frames, 16 + 8 * n_frames) for n_frames in (4, 6, 8)]
    max_frames, max_size = 8, 16 + 8 * 8
    for n_frames, size in videos:
        frames = jnp.zeros((1, n_frames, size, size, 3))
        # pad every video to one fixed input size, as the thread advises
        frames = jnp.pad(frames, ((0, 0), (0, max_frames - n_frames),
                                  (0, max_size - size), (0, max_size - size), (0, 0)))
        tracks, visibles = inference(params, state, frames, queries0)   ## highlight 3
    print("done")
