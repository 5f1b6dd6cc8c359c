import jax

key = jax.random.PRNGKey(0)
before = jax.random.normal(key)

import gpjax_lite as gpx  # noqa: E402

after = jax.random.normal(key)

if __name__ == "__main__":
    print("before import:", before, before.dtype)
    print("after import: ", after, after.dtype)
    print("draw changed:", bool(before.dtype != after.dtype or float(before) != float(after)))
    print(gpx.RBF()(jax.numpy.zeros(2), jax.numpy.ones(2)).dtype)
