import equinox as eqx
import jax
import jax.random as jrandom

from net import Net


@eqx.filter_jit
def forward(model, x):
    return jax.vmap(model)(x)


if __name__ == "__main__":
    model = Net()
    random_image = jax.random.uniform(key=jrandom.PRNGKey(0), shape=(1, 3, 224, 224))
    output = forward(model, random_image)
    print("shape:", output.shape)
