import jax
import jax.numpy as jnp

from netket_lite.sampler import MetropolisSampler


class Machine:
    # log-amplitude of a product state
    def apply(self, parameters, σ):
        return jnp.sum(parameters["a"] * σ, axis=-1)


if __name__ == "__main__":
    sampler = MetropolisSampler()
    machine = Machine()
    parameters = {"a": jnp.full((4,), 0.3)}
    state = sampler.init_state(0)
    sample_next = jax.jit(sampler._sample_next, static_argnums=0)
    state, σ = sample_next(machine, parameters, state)
    print("accepted:", int(state.n_accepted_proc), "of", state.n_steps_proc)
