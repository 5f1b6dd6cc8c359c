import jax
import jax.numpy as jnp
import flax.linen as nn

from s5_lite.train_helpers import create_train_state, train_epoch


class StackedEncoderModel(nn.Module):
    training: bool = True

    @nn.compact
    def __call__(self, x):
        for _ in range(4):
            x = nn.gelu(nn.Dense(256)(x))
            x = nn.Dropout(0.1, deterministic=not self.training)(x)
        return nn.Dense(1)(x)


if __name__ == "__main__":
    key = jax.random.key(0)
    state = create_train_state(StackedEncoderModel, key, 64, 1e-3)
    trainloader = [(jax.random.normal(jax.random.key(i), (128, 64)), jnp.zeros((128, 1))) for i in range(20)]
    state, loss, epoch_time = train_epoch(state, key, StackedEncoderModel, trainloader)
    print(f"loss {float(loss):.4f}, measured train time {float(epoch_time):.4f}s")
