if __name__ == "__main__":
    try:
        import jax.numpy as np
        from ssm_lite.hmm import GaussianHMM

        hmm = GaussianHMM(2, np.zeros((2, 3)), np.ones((2, 3)))
        print("same params:", bool(hmm.same_params(hmm)))
    except (ImportError, AttributeError) as exc:
        print(type(exc).__name__, exc)
