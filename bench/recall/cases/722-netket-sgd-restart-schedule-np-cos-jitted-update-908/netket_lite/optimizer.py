import optax


def Sgd(learning_rate):
    r"""Stochastic Gradient Descent Optimizer (a schedule may be passed as learning_rate)."""
    return optax.sgd(learning_rate)
