import jax
import numpy as np

from openpi_lite.models.pi0_fast import Pi0FAST
from openpi_lite.policies.policy import Policy

if __name__ == "__main__":
    model = Pi0FAST()
    obs = {"state": np.zeros((4,), np.float32)}

    # the policy server: sample_kwargs={"temperature": 0.7} reach the jitted sample_actions
    policy = Policy(model, sample_kwargs={"temperature": 0.7})
    try:
        policy.infer(obs)
        bool_error = False
    except jax.errors.TracerBoolConversionError:
        bool_error = True

    # the same decoding loop outside jit: every step samples with the same key
    tokens = np.asarray(model.sample_actions(jax.random.key(3), {"state": np.zeros((1, 4), np.float32)}, temperature=0.7))
    same = bool((tokens == tokens[:, :1]).all())
    print(f"bool error: {bool_error}, same token every step: {same}")
