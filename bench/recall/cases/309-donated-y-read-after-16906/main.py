import jax


def fn(x, y):
    return x, y


fn = jax.jit(fn, donate_argnums=1)

x = {'A': 1.0, 'B': 2.0}
y = 3.0
x = jax.tree_util.tree_map(lambda x: jax.device_put(x, jax.local_devices()[0]), x)
y = jax.tree_util.tree_map(lambda x: jax.device_put(x, jax.local_devices()[0]), y)

if __name__ == "__main__":
    fn(x, y)

    print(x)  # x wasn't donated at all
    print(y)  # y was donated (as expected)
