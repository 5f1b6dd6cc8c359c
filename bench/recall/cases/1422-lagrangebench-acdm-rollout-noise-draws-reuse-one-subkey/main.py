from types import SimpleNamespace

import haiku as hk
import jax
import jax.numpy as jnp

from lagrangebench_lite.evaluate.rollout import _forward_eval_acdm


def make_acdm_config(diffusion_steps=3, num_conditioning_steps=2):
    betas = jnp.linspace(1e-4, 0.2, diffusion_steps)
    alphas = 1.0 - betas
    alphas_cumprod = jnp.cumprod(alphas)
    alphas_cumprod_prev = jnp.concatenate([jnp.ones(1), alphas_cumprod[:-1]])
    return SimpleNamespace(
        diffusionSteps=diffusion_steps,
        num_conditioning_steps=num_conditioning_steps,
        betas=betas,
        sqrtAlphasCumprod=jnp.sqrt(alphas_cumprod),
        sqrtOneMinusAlphasCumprod=jnp.sqrt(1.0 - alphas_cumprod),
        sqrtRecipAlphas=jnp.sqrt(1.0 / alphas),
        sqrtPosteriorVariance=jnp.sqrt(betas * (1.0 - alphas_cumprod_prev) / (1.0 - alphas_cumprod)),
    )


def model_fn(inputs):
    features, _ = inputs
    x = jnp.concatenate([features["noised_data"], features["k"][:, None]], axis=1)
    return {"noise": hk.nets.MLP([16, 2 + 4])(x)}


if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    model = hk.without_apply_rng(hk.transform_with_state(model_fn))
    n = 8
    features = {"vel_hist": jnp.zeros((n, 4)), "conditioning_data": jnp.ones((n, 4))}
    particle_type = jnp.zeros(n, jnp.int32)
    positions = jnp.zeros((n, 3, 2))
    features["noised_data"] = jnp.zeros((n, 6))
    features["k"] = jnp.zeros(n)
    params, state = model.init(jax.random.PRNGKey(0), (features, particle_type))
    acdm_config = make_acdm_config()

    @jax.jit
    def step(params, state, features, positions, key):
        return _forward_eval_acdm(params, state, features, particle_type, positions,
                                  model.apply, key, acdm_config)

    try:
        positions, state = step(params, state, features, positions, jax.random.key(1))
        print("KeyReuseError: False", positions.shape)
    except Exception as e:  # jax.errors.KeyReuseError
        print(f"{type(e).__name__}: {str(e).splitlines()[0][:70]}")
