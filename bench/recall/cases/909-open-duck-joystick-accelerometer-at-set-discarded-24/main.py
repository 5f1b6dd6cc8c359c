import jax.numpy as jnp

from playground.open_duck_mini_v2.joystick import Joystick


if __name__ == "__main__":
    env = Joystick()
    raw = jnp.array([0.2, 0.0, 9.81])
    obs = env._get_obs({"accelerometer": raw}, {"command": jnp.zeros(3)})
    print("bias applied:", bool(jnp.isclose(obs[0], raw[0] + 1.3)))
