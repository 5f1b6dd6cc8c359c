import jax

import numpyro_lite.distributions as dist

if __name__ == "__main__":
    my_dist = dist.TwoSidedTruncatedDistribution(dist.Normal(0.0, 1.0), low=-1.0, high=2.0)
    jit_lp = jax.jit(my_dist.log_prob)
    print(jit_lp(1.0))
    try:
        print(f"eager log_prob: {my_dist.log_prob(0.5):.4f}")
    except Exception as exc:
        print(type(exc).__name__, str(exc).splitlines()[0])
