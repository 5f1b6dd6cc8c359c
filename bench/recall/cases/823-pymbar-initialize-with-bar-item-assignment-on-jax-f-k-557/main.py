import numpy as np

import pymbar_lite

if __name__ == "__main__":
    rng = np.random.default_rng(0)
    N_k = np.array([50, 50, 50])
    x = np.concatenate([rng.normal(mu, 1.0, n) for mu, n in zip([0.0, 0.5, 1.0], N_k)])
    u_kn = np.stack([0.5 * (x - mu) ** 2 for mu in [0.0, 0.5, 1.0]])

    mbar = pymbar_lite.MBAR(u_kn, N_k=N_k, initialize="BAR")
    print("f_k:", np.asarray(mbar.f_k))
    mbar = pymbar_lite.MBAR(u_kn, N_k=N_k, initialize="BAR", n_bootstraps=5)
    print("f_k boots:", mbar.f_k_boots.std(axis=0))
