import jax
import jax.numpy as jnp


def score_fn(x):
    return -x  # score of a standard normal


class LangevinSampler:
    def __init__(self, score_fn, key, step_size=0.01):
        self.score_fn = score_fn
        self.key = key
        self.step_size = step_size
        self.langevin_fn = jax.jit(self.langevin_step)

    def langevin_step(self, x):
        noise = jax.random.normal(self.key, x.shape)
        return x + self.step_size * self.score_fn(x) + jnp.sqrt(2 * self.step_size) * noise

    def random_sample(self, x, n_steps=3):
        samples = []
        for _ in range(n_steps):
            self.key, _ = jax.random.split(self.key)
            x = self.langevin_fn(x)
            samples.append(x)
        return samples


if __name__ == "__main__":
    sampler = LangevinSampler(score_fn, jax.random.PRNGKey(0))
    x0 = jnp.zeros(4)
    s = sampler.random_sample(x0)
    noise1 = s[1] - (s[0] + 0.01 * score_fn(s[0]))
    noise0 = s[0] - (x0 + 0.01 * score_fn(x0))
    print("same noise every step:", bool(jnp.allclose(noise0, noise1)))
