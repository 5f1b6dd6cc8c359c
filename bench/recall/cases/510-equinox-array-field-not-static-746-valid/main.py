import jax
import jax.numpy as np
import equinox as eqx

from data import Data


class Model(eqx.Module):
    foo: jax.Array

    def __init__(self, foo):
        self.foo = np.array(foo)


@eqx.filter_jit
@eqx.filter_value_and_grad
def loss_fn(model, data):
    return np.sum(model.foo - data.data)


if __name__ == "__main__":
    model = Model(1.0)
    data0, data1 = Data(0), Data(1)

    loss, grads = loss_fn(model, data0)  # This call evaluates fine
    loss, grads = loss_fn(model, data1)
    print("second loss finite:", bool(np.isfinite(loss)))
