import jax.numpy as np
from jax import grad, jit, lax, vmap
from jax.example_libraries import optimizers


def get_total_fp_loss_fun(rnn_fun):
    batch_rnn_fun = vmap(rnn_fun, in_axes=(0,))
    return jit(lambda h: np.mean((h - batch_rnn_fun(h)) ** 2))


def optimize_fp_core(batch_idx_start, num_batches, update_fun, opt_state):
    def run_update(batch_idx, opt_state):
        opt_state = update_fun(batch_idx, opt_state)
        return opt_state

    lower = batch_idx_start
    upper = batch_idx_start + num_batches
    return lax.fori_loop(lower, upper, run_update, opt_state)


optimize_fp_core_jit = jit(optimize_fp_core, static_argnums=(1, 2, 3))


def optimize_fps(rnn_fun, fp_candidates, hps):
    total_fp_loss_fun = get_total_fp_loss_fun(rnn_fun)

    def get_update_fun(opt_update, get_params):
        def update(i, opt_state):
            params = get_params(opt_state)
            grads = grad(total_fp_loss_fun)(params)
            return opt_update(i, grads, opt_state)

        return update

    opt_init, opt_update, get_params = optimizers.adam(step_size=hps['step_size'])
    opt_state = opt_init(fp_candidates)
    update_fun = get_update_fun(opt_update, get_params)

    num_batches = hps['num_batches']
    print_every = hps['opt_print_every']
    num_opt_loops = int(num_batches / print_every)
    for oidx in range(num_opt_loops):
        batch_idx_start = oidx * print_every
        opt_state = optimize_fp_core_jit(batch_idx_start, print_every, update_fun,
                                         opt_state)
    return get_params(opt_state)


if __name__ == "__main__":
    rnn_fun = lambda h: np.tanh(0.5 * h)
    hps = {'step_size': 0.1, 'num_batches': 20, 'opt_print_every': 10}
    print(optimize_fps(rnn_fun, np.ones((4, 3)), hps))
