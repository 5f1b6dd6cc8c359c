from functools import partial

from jax import jit, checkpoint

@partial(jit, static_argnums=1)
@partial(checkpoint, static_argnums=1)
def f(x, flag=False):
    if flag:
        x += 1
    return x

if __name__ == "__main__":
    print(f(5, False))  # fine
    f(5, flag=False)  # raise error below, no problem if only jit though
