import jax.numpy as jnp

from jcm_lite.model import Model

if __name__ == "__main__":
    model = Model()
    boundaries = {"t_surface": jnp.full((8, 16), 288.0)}
    state = {"temperature": jnp.full((8, 16), 250.0), "sim_time": jnp.float32(0.0)}
    # an ensemble of runs (e.g. a parameter sweep over initial states): same shapes every call
    for member in range(3):
        initial = dict(state, temperature=state["temperature"] + member)
        final, predictions = model.run_from_state(initial, boundaries, save_interval=1.0, total_time=4.0)
    print("final mean temperature:", float(predictions["mean_temperature"][-1]))
