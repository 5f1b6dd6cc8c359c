import equinox as eqx

from .module import MyModule


@eqx.filter_jit
def _step(module):
    return MyModule(x=module.x + 1, y=module.y * 0.5)


def fit(module, max_iter=10):
    for it in range(max_iter):
        module = _step(module)
    return module
