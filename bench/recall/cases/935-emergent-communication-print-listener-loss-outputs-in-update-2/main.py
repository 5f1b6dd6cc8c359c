import jax
import jax.numpy as jnp

from ecas_lite.agent import SpeakerListenerGame


if __name__ == "__main__":
  game = SpeakerListenerGame()
  update = jax.jit(game.update)
  key = jax.random.key(0)
  params = {'w': jnp.zeros((4, 3))}
  games = {'features': jax.random.normal(key, (8, 4)), 'labels': jnp.arange(8) % 3}
  for step in range(3):
    params, stats = update(params, key, games)
    print("step", step, "listener_loss", float(stats['listener_loss']))
