import jax

import autoray_lite as ar


@jax.jit
def sampler():
    return ar.do("random.normal", like="jax")
    # return jax.random.normal(key=ar.autoray.jax_random_get_key())


if __name__ == "__main__":
    samples = [float(sampler()) for _ in range(10)]
    for s in samples:
        print(s)
    print("all samples identical:", len(set(samples)) == 1)
