import jax
import numpyro
import numpyro.distributions as dist
from numpyro import sample
from numpyro.infer import Predictive


def sleep_model():
    # Very likely to feel lazy
    feeling_lazy = sample("feeling_lazy", dist.Bernoulli(0.9))
    if feeling_lazy:
        # Only going to (possibly) ignore my alarm if I'm feeling lazy
        ignore_alarm = sample("ignore_alarm", dist.Bernoulli(0.8))
        # Will sleep more if I ignore my alarm
        amount_slept = sample("amount_slept",
                              dist.Normal(8 + 2 * ignore_alarm, 1))
    else:
        amount_slept = sample("amount_slept", dist.Normal(6, 1))
    return amount_slept


if __name__ == "__main__":
    prior = Predictive(sleep_model, num_samples=100)
    samples = prior(jax.random.PRNGKey(0))
    print(samples["amount_slept"].mean())
