def sgd_update(params, grads, learning_rate=0.1):
    # params and grads are lists of jax.numpy.ndarray
    for param, gradient in zip(params, grads):
        # params does not get updated
        param -= learning_rate * gradient
    return params
