import jax
import jax.numpy as jnp

from flashbax_lite.buffers.mixer import make_mixer
from flashbax_lite.buffers.trajectory_buffer import make_trajectory_buffer

if __name__ == "__main__":
    buffer_a = make_trajectory_buffer(max_length_time_axis=16, min_length_time_axis=4, sample_batch_size=8)
    buffer_b = make_trajectory_buffer(max_length_time_axis=16, min_length_time_axis=4, sample_batch_size=8)
    example = {"obs": jnp.zeros(3), "reward": jnp.zeros(())}
    state_a = buffer_a.add(buffer_a.init(example), {"obs": jnp.ones((6, 3)), "reward": jnp.ones(6)})
    state_b = buffer_b.add(buffer_b.init(example), {"obs": jnp.ones((5, 3)), "reward": jnp.ones(5)})
    mixer = make_mixer([buffer_a, buffer_b], sample_batch_size=8, proportions=[1, 1])
    try:
        can = jax.jit(mixer.can_sample)([state_a, state_b])
        print(f"can sample under jit: {bool(can)}")
    except jax.errors.TracerBoolConversionError as e:
        print(f"TracerBoolConversionError: {str(e).splitlines()[0][:70]}")
