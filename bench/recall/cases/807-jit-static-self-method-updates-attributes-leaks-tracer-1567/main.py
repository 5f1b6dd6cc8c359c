import jax
import jax.numpy as np
from jax import jit
from functools import partial


class World:
    def __init__(self, p, v):
        self.p = p
        self.v = v

    @partial(jit, static_argnums=(0,))
    def step(self, dt):
        a = - 9.8
        self.v += a * dt
        self.p += self.v *dt


if __name__ == "__main__":
    world = World(np.array([0, 0]), np.array([1, 1]))

    for i in range(1000):
        world.step(0.01)
    print(world.p)
    print("position is a tracer:", isinstance(world.p, jax.core.Tracer))
