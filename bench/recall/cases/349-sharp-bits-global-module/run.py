from jax import jit

import settings
from model import impure_uses_globals

f = jit(impure_uses_globals)

if __name__ == "__main__":
    print("First call: ", f(4.))
    settings.g = 10.  # Update the global
    print("Second call: ", f(5.))
