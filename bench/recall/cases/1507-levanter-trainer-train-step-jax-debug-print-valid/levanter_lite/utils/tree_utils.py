import equinox as eqx


def inference_mode(tree, value: bool):
    """Stand-in for levanter's inference_mode: sets `inference` on every module that has it."""
    return eqx.nn.inference_mode(tree, value)
