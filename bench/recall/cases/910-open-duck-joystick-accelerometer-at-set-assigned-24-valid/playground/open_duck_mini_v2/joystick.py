import jax
import jax.numpy as jnp


class Joystick:
    def get_accelerometer(self, data):
        return data["accelerometer"]

    def _get_obs(self, data, info):
        accelerometer = self.get_accelerometer(data)
        accelerometer = accelerometer.at[0].set(accelerometer[0] + 1.3)

        state = jnp.hstack([
            accelerometer,
            info["command"],
        ])
        return state
