import jax

N = 5


def do_something_random(key):
    return jax.random.normal(key, (3,))


if __name__ == "__main__":
    base_key = jax.random.PRNGKey(0)
    for i in range(N):
        do_something_random(jax.random.fold_in(base_key, i))
