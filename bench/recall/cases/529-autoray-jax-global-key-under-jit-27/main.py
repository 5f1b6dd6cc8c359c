import jax

import autoray_lite as ar


@jax.jit
def sampler():
    return ar.do("random.normal", like='jax')
    # return jax.random.normal(key=ar.autoray.jax_random_get_key())


if __name__ == "__main__":
    ar.jax_random_seed(0)
    draws = [float(sampler()) for _ in range(10)]
    for d in draws:
        print(d)
    print("all equal:", len(set(draws)) == 1)
