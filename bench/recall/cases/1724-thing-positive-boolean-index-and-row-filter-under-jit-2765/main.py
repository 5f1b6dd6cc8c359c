import jax
import jax.numpy as jnp


@jax.jit
def keep_positive(thing):
    thing = thing[thing > 0]
    return thing.sum()


@jax.jit
def rows_with_positive_first(arr):
    result = [x for x in arr if any(x[0][x[0] > 0])]
    return len(result)


if __name__ == "__main__":
    failed = []
    try:
        keep_positive(jnp.array([-1.0, 2.0, 3.0]))
    except jax.errors.NonConcreteBooleanIndexError as err:
        print("thing[thing > 0]:", str(err).splitlines()[0])
        failed.append(1)
    try:
        rows_with_positive_first(jnp.array([[[1.0, -2.0], [0.0, 0.0]],
                                            [[-1.0, -2.0], [0.0, 0.0]]]))
    except jax.errors.NonConcreteBooleanIndexError as err:
        print("x[0][x[0] > 0]:", str(err).splitlines()[0])
        failed.append(2)
    print("both boolean indices fail under jit:", failed == [1, 2])
