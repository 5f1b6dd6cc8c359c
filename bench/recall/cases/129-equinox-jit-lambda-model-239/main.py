import equinox as eqx
import jax


def loss_fn(model, x, y):
    return (model(x) - y) ** 2


model = eqx.nn.Lambda(jax.nn.relu)

if __name__ == "__main__":
    jax.jit(loss_fn)(model, 0, 0)  # error
