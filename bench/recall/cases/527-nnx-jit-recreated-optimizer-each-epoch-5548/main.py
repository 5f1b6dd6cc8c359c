import jax.numpy as jnp
import optax
from flax import nnx

from models import Discriminator

traces = 0


@nnx.jit
def train_one_epoch(dis, dis_opt, x):
    global traces
    traces += 1

    def loss_fn(dis):
        return jnp.mean(dis(x) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(dis)
    dis_opt.update(dis, grads)
    return loss


if __name__ == "__main__":
    rngs = nnx.Rngs(0)
    x = jnp.ones((8, 4))
    n_epochs = 3
    for epoch in range(n_epochs):
        dis = Discriminator(rngs=rngs)
        dis_opt = nnx.Optimizer(
            dis,
            optax.adam(1e-3),
            wrt=nnx.Param,
        )

        train_one_epoch(dis, dis_opt, x)
    print("traces:", traces)
