if __name__ == "__main__":
    try:
        import numpy as np
        from numpyro_lite.distributions.discrete import Poisson

        counts = np.array([0, 0, 3, 0, 1])
        lp = Poisson(np.full(5, 0.5), is_sparse=True).log_prob(counts)
        print("log_prob:", np.round(np.asarray(lp), 3))
    except ImportError as exc:
        print("ImportError", exc)
