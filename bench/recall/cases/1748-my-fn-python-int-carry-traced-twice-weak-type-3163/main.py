import jax
import jax.numpy as np

my_fn_calls = 0

@jax.jit
def my_fn(x, y):
    # side effect to detect multiple tracing
    global my_fn_calls
    my_fn_calls += 1
    print("my_fn")

    return x + y

x = 0

if __name__ == "__main__":
    for i in range(10):
        x = my_fn(x, i)

    print("my_fn_calls:", my_fn_calls)
    assert(my_fn_calls == 1) # fails because my_fn_calls == 2
