import time


def jit_test(fn, fn_args=(), fn_kwargs=None):
    """Time a first (compiling) call and a second (cached) call of fn."""
    if fn_kwargs is None:
        fn_kwargs = {}
    start_time = time.time()
    fn(*fn_args, **fn_kwargs)
    end_time = time.time()
    pre_delta = end_time - start_time
    start_time = time.time()
    fn(*fn_args, **fn_kwargs)
    end_time = time.time()
    post_delta = end_time - start_time
    return pre_delta, post_delta
