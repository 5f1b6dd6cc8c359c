import jax
import jax.numpy as jnp


class Integrator:
    def __init__(self, state):
        self.state = state

    def _kick(self, dt):
        self.state = self.state + dt

    def advance(self, dt):
        self._kick(dt)
        return self.state


def body(carry, dt):
    sim = Integrator(carry)
    out = sim.advance(dt)
    return out, out


def run(xs):
    return jax.lax.scan(body, jnp.zeros(()), xs)
