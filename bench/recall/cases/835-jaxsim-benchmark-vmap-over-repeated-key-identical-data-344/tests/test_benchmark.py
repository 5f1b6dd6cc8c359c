import jax

import jaxsim_lite.api as js


def vectorize_data(model: js.model.JaxSimModel, batch_size: int):
    key = jax.random.PRNGKey(seed=0)

    return jax.vmap(
        lambda key: js.data.random_model_data(
            model=model,
            key=key,
        )
    )(jax.numpy.repeat(key[None, :], repeats=batch_size, axis=0))
