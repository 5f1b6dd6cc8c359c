import jax

import jaxsim_lite.api as js


def vectorize_data(model: js.model.JaxSimModel, batch_size: int):
    key = jax.random.PRNGKey(seed=0)
    keys = jax.random.split(key, num=batch_size)

    return jax.vmap(
        lambda key: js.data.random_model_data(
            model=model,
            key=key,
        )
    )(keys)
