from collections.abc import Callable
from typing import TypeVar, ParamSpec
import time
import inspect
import functools
import contextlib

import jax

T = TypeVar("T")
P = ParamSpec("P")

CURRENT_TIMER_STACK = []


class Timer:
    """
    Measures how much time was spent in a timer, with possible
    sub-timers.
    """

    def __init__(self):
        self.total = 0.0
        self.sub_timers = {}
        self._start_time = 0.0

    def get_subtimer(self, name: str):
        if name not in self.sub_timers:
            self.sub_timers[name] = Timer()
        return self.sub_timers[name]

    def __enter__(self):
        global CURRENT_TIMER_STACK
        CURRENT_TIMER_STACK.append(self)
        self._start_time = time.perf_counter()
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        t_end = time.perf_counter()
        current_timer = t_end - self._start_time
        self.total += current_timer
        _ = CURRENT_TIMER_STACK.pop()
        assert _ is self


@contextlib.contextmanager
def timed_scope(name: str = None, force: bool = False):
    """
    Context manager used to mark a scope to be timed individually
    by NetKet timers.
    """
    __tracebackhide__ = True
    global CURRENT_TIMER_STACK
    if force or len(CURRENT_TIMER_STACK) > 0:
        if name is None:
            caller_frame = inspect.stack()[2]
            frame = caller_frame[0]
            info = inspect.getframeinfo(frame)
            name = f"{info.filename}:{info.lineno}"
        if len(CURRENT_TIMER_STACK) == 0:
            timer = Timer()
        else:
            timer = CURRENT_TIMER_STACK[-1].get_subtimer(name)
        with timer:
            yield timer
    else:  # disabled
        yield None


def timed(
    fun: Callable[P, T] = None, name: str | None = None, block_until_ready: bool = True
) -> Callable[P, T]:
    """
    Marks the decorated function to be timed individually in
    NetKet timing scopes.
    """
    if fun is None:
        return functools.partial(timed, name=name, block_until_ready=block_until_ready)

    if name is None:
        name = fun.__qualname__

    @functools.wraps(fun)
    def timed_function(*args, **kwargs):
        __tracebackhide__ = True
        with timed_scope(name) as ts:
            result = fun(*args, **kwargs)
            if block_until_ready and ts is not None:
                return jax.block_until_ready(result)
            return result

    return timed_function
