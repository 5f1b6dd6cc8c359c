from jax import random
from jax.example_libraries import optimizers
from jax.random import PRNGKey

from numpyro_lite.svi import SVI, elbo


def model(data):
    pass


def guide(data):
    pass


def main(num_steps=20, learning_rate=0.1):
    # Generate some data.
    data = random.normal(PRNGKey(0), shape=(100,)) + 3.0

    # Construct an SVI object so we can do variational inference on our
    # model/guide pair.
    opt_init, opt_update, get_params = optimizers.adam(learning_rate)
    svi = SVI(model, guide, opt_init, opt_update, elbo, get_params)

    # Basic training loop
    opt_state = None
    for i in range(num_steps):
        loss, opt_state = svi.step(i, data, opt_state=opt_state)
        if i % 10 == 0:
            print("step {} loss = {}".format(i, loss))

    params = get_params(opt_state)
    for name, value in params.items():
        print("{} = {}".format(name, value))


if __name__ == "__main__":
    main()
