import jax
import jax.numpy as jnp

from perceiver_ar_lite.experiment import Experiment
from perceiver_ar_lite.model import model

if __name__ == "__main__":
    exp = Experiment()
    # one device, two microbatches of two sequences of 6 events
    events = jnp.arange(24).reshape(1, 2, 2, 6) % 16
    params, state = model.init(jax.random.PRNGKey(0), events[0, 0, :, :-1])
    opt_state = exp._optimizer.init(params)
    bcast = lambda t: jax.tree_util.tree_map(lambda x: x[None], t)
    update = jax.pmap(exp._update_func, axis_name='i', static_broadcasted_argnums=(5,))
    try:
        out = update(bcast(params), bcast(state), bcast(opt_state), {'events': events},
                     jax.random.PRNGKey(1)[None], 0)
        print("total_loss:", float(out[3]['total_loss'][0]))
    except AttributeError as exc:
        print("AttributeError", str(exc).splitlines()[0])
