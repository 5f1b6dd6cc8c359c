from jax import lax

import loop
from loop import body_fun, cond_fun

### xla
lax.while_loop(cond_fun, body_fun, 0)
print('xla', loop.u)
