import jax

jax.config.update('jax_check_tracer_leaks', True)


class A:
    def __init__(self, dct):
        self.dct = dct


a = A({})


def sketch(x):
    a.dct['hi'] = [lambda: x]
    return x


if __name__ == "__main__":
    jax.vmap(sketch)(jax.numpy.arange(3))
