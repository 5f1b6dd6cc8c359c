import settings


def impure_uses_globals(x):
    return x + settings.g
