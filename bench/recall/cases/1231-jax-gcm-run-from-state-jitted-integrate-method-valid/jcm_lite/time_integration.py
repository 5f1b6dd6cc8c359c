"""Time integration (reduced from dinosaur.time_integration)."""

import jax


def repeated(fn, steps):
    """Returns a repeatedly applied version of fn()."""

    def f_repeated(x_initial):
        g = lambda x, _: (fn(x), None)
        x_final, _ = jax.lax.scan(g, x_initial, xs=None, length=steps)
        return x_final

    return f_repeated


def trajectory_from_step(step_fn, outer_steps, inner_steps, *, start_with_input=False,
                         post_process_fn=lambda x: x):
    """Returns a function that accumulates repeated applications of `step_fn`."""
    if inner_steps != 1:
        step_fn = repeated(step_fn, inner_steps)

    def step(carry_in, _):
        carry_out = step_fn(carry_in)
        frame = carry_in if start_with_input else carry_out
        return carry_out, post_process_fn(frame)

    def multistep(values):
        return jax.lax.scan(step, values, xs=None, length=outer_steps)

    return multistep
