from jax import jit
from jax.experimental import host_callback


def progress_bar(i, n_iter, print_rate):
    if i%print_rate==0:
        print(f"Iteration {i}/{n_iter}")
    else:
        pass


@jit
def my_python_loop():
    """
    Python loop that increments `a` 100 times
    """
    n_iter, print_rate = 100, 10
    a = 0
    for i in range(n_iter):
        host_callback.id_tap(progress_bar, i, n_iter=n_iter, print_rate=print_rate)
        a += 1
    return a


if __name__ == "__main__":
    my_python_loop()
