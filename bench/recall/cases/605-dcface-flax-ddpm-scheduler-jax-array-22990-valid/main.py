from typing import Optional, Tuple, Union

import flax
import jax
import jax.numpy as jnp
from jax import random


@flax.struct.dataclass
class DDPMSchedulerState:
    # setable values
    timesteps: jnp.ndarray
    num_inference_steps: Optional[int] = None

    @classmethod
    def create(cls, num_train_timesteps: int):
        return cls(timesteps=jnp.arange(0, num_train_timesteps)[::-1])


@flax.struct.dataclass
class FlaxDDPMSchedulerOutput:
    prev_sample: jnp.ndarray
    state: DDPMSchedulerState


class FlaxDDPMScheduler:
    def __init__(self, num_train_timesteps: int = 1000, beta_start: float = 0.0001, beta_end: float = 0.02):
        self.num_train_timesteps = num_train_timesteps
        self.betas = jnp.linspace(beta_start, beta_end, num_train_timesteps, dtype=jnp.float32)
        self.alphas = 1.0 - self.betas
        self.alphas_cumprod = jnp.cumprod(self.alphas, axis=0)

    def create_state(self):
        return DDPMSchedulerState.create(num_train_timesteps=self.num_train_timesteps)

    def step(
        self,
        state: DDPMSchedulerState,
        model_output: jnp.ndarray,
        timestep: int,
        sample: jnp.ndarray,
        key: jax.Array,
        predict_epsilon: bool = True,
        return_dict: bool = True,
    ) -> Union[FlaxDDPMSchedulerOutput, Tuple]:
        t = timestep
        alpha_prod_t = self.alphas_cumprod[t]
        alpha_prod_t_prev = self.alphas_cumprod[t - 1] if t > 0 else jnp.array(1.0)
        beta_prod_t = 1 - alpha_prod_t
        pred_original_sample = (sample - beta_prod_t ** (0.5) * model_output) / alpha_prod_t ** (0.5)
        pred_prev_sample = alpha_prod_t_prev ** (0.5) * pred_original_sample
        noise = random.normal(key=key, shape=model_output.shape, dtype=model_output.dtype)
        variance = (1 - alpha_prod_t_prev) / (1 - alpha_prod_t) * self.betas[t]
        pred_prev_sample = pred_prev_sample + (variance ** 0.5) * noise
        if not return_dict:
            return (pred_prev_sample, state)
        return FlaxDDPMSchedulerOutput(prev_sample=pred_prev_sample, state=state)


if __name__ == "__main__":
    scheduler = FlaxDDPMScheduler()
    state = scheduler.create_state()
    x = jnp.ones((1, 4))
    out = scheduler.step(state, jnp.zeros_like(x), 10, x, jax.random.PRNGKey(0))
    print("prev_sample", out.prev_sample.shape)
