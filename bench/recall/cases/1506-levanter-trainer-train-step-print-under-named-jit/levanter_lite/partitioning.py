import equinox as eqx


def named_jit(fn=None, axis_resources=None, out_axis_resources=None, donate_args=None):
    """Stand-in for haliax.partitioning.named_jit on one device: equinox's filter_jit."""
    if fn is None:
        return lambda f: named_jit(f, axis_resources, out_axis_resources, donate_args)
    return eqx.filter_jit(fn)
