import jax.numpy as jnp

from jcm_lite.model import Model
from jcm_lite.physics import speedy_physics

if __name__ == "__main__":
    m = Model(coords=8, physics=speedy_physics(), time_step=30.0)
    T1 = m.run(save_interval=0.5, total_time=0.5)

    term = next(t for t in m.physics.terms if t.name == "speedy_vertical_diffusion")
    term.params.set_value(term.params.get_value().__class__(trvdi=jnp.array(2.0)))

    # a new Model around the changed physics: a new static , so run_from_state is traced again
    m = Model(coords=8, physics=m.physics, time_step=30.0)
    T2 = m.run(save_interval=0.5, total_time=0.5)
    print("unchanged after parameter change:", bool(jnp.allclose(T1, T2)))
