import numpy as np
import jax
import jax.numpy as jnp
import time

dtype = jnp.float32
num_devices = jax.device_count()


@jax.jit
def pipeline(prompt_ids, params, rng):
    # stand-in for FlaxStableDiffusionXLPipeline(..., jit=True): the denoising loop on device
    latents = jax.random.normal(rng, (prompt_ids.shape[0], 64, 64, 4), dtype=dtype)
    for _ in range(4):
        latents = jnp.tanh(latents @ params["w"]) + latents
    return latents


def generate(prompt_ids, params, rng):
    images = pipeline(prompt_ids, params, rng)
    return images


params = {"w": jnp.eye(4, dtype=dtype)}
prompt_ids = jnp.ones((8, 77), dtype=jnp.int32)
rng = jax.random.PRNGKey(0)
generate(prompt_ids, params, rng)  # compile

start = time.time()
images = generate(prompt_ids, params, rng)
finished = time.time() - start
print(f"8-image generation time: {finished}")

start = time.time()
images = np.array(images)
print(f"jax to numpy: {time.time() - start}")
