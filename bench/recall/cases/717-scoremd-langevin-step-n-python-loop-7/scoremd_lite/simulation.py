from functools import partial

import jax
import jax.numpy as jnp


class LangevinSimulator:
    def __init__(self, force_fn, dt=1e-3, gamma=1.0, kbT=1.0, mass=1.0):
        self.force_fn = force_fn
        self.dt = dt
        self.gamma = gamma
        self.kbT = kbT
        self.mass = mass

    def step_single(self, x, v, key, **kwargs):
        alpha = jnp.exp(-self.gamma * self.dt)
        f = self.force_fn(x, **kwargs)
        v = v + 0.5 * self.dt * f / self.mass
        x = x + 0.5 * self.dt * v
        noise = jax.random.normal(key, v.shape)
        v = alpha * v + jnp.sqrt((1 - alpha**2) * self.kbT / self.mass) * noise
        x = x + 0.5 * self.dt * v
        f = self.force_fn(x, **kwargs)
        v = v + 0.5 * self.dt * f / self.mass
        return x, v

    @partial(jax.jit, static_argnums=(0, 4))
    def step_n(self, x, v, key, num_steps, **kwargs):
        for _ in range(num_steps):
            key, subkey = jax.random.split(key)
            x, v = self.step_single(x, v, subkey, **kwargs)
        return x, v, key
