import jax
from jax import numpy as jp
from flax import struct


@struct.dataclass
class PipelineState:
  time: jax.Array
  xpos: jax.Array
  cvel: jax.Array


@struct.dataclass
class State:
  pipeline_state: PipelineState
  obs: jax.Array
  reward: jax.Array
  done: jax.Array
  metrics: dict = struct.field(default_factory=dict)


class MultiQuadEnv:
  """Two quadrotors carrying a payload (reduced: point masses, no physics engine)."""

  def __init__(self, dt=0.01, max_thrust=1.0, obs_noise=0.01):
    self.dt = dt
    self.max_thrust = max_thrust
    self.obs_noise = obs_noise
    self.payload_body_id = 0
    self.target_position = jp.array([0.0, 0.0, 1.5])

  def pipeline_step(self, data, action_scaled):
    # reduced: every body is pushed up by the mean thrust against gravity
    acc = jp.mean(action_scaled) * 20.0 - 9.81
    vel = data.cvel.at[:, 5].add(acc * self.dt)
    xpos = data.xpos + vel[:, 3:6] * self.dt
    return data.replace(time=data.time + self.dt, xpos=xpos, cvel=vel)

  def step(self, state: State, action: jax.Array) -> State:
    """Advances the environment by one control step."""
    # Scale actions from [-1, 1] to thrust commands in [0, max_thrust].
    thrust_cmds = 0.5 * (action + 1.0)
    action_scaled = thrust_cmds * self.max_thrust

    data0 = state.pipeline_state
    pipeline_state = self.pipeline_step(data0, action_scaled)

    # Generate a noise_key using pipeline_state fields.
    seed = int(pipeline_state.time * 1e6) + int(jp.sum(pipeline_state.xpos) * 1e3) + int(jp.sum(pipeline_state.cvel) * 1e3)
    noise_key = jax.random.PRNGKey(seed)

    obs = self._get_obs(pipeline_state, self.target_position, noise_key)
    payload_error = self.target_position - pipeline_state.xpos[self.payload_body_id]
    reward = -jp.linalg.norm(payload_error)
    done = (pipeline_state.time > 5.0) * 1.0
    metrics = {'time': pipeline_state.time, 'reward': reward}
    return state.replace(pipeline_state=pipeline_state, obs=obs, reward=reward, done=done, metrics=metrics)

  def _get_obs(self, data, target_position, noise_key):
    """Constructs the observation vector from simulation data."""
    payload_pos = data.xpos[self.payload_body_id]
    payload_linvel = data.cvel[self.payload_body_id][3:6]
    payload_error = target_position - payload_pos
    obs = jp.concatenate([payload_error, payload_linvel])
    return obs + self.obs_noise * jax.random.normal(noise_key, obs.shape)
