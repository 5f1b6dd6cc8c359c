import logging
import numpy as np
from pymbar_lite import mbar_solvers

logger = logging.getLogger(__name__)


class ConvergenceError(Exception):
    pass


class MBAR:
    """Multistate Bennett acceptance ratio method (reduced to initialisation, solve and bootstrap)."""

    def __init__(self, u_kn, N_k, initialize="zeros", n_bootstraps=0, rseed=None):
        self.u_kn = np.asarray(u_kn, dtype=np.float64)
        self.N_k = np.asarray(N_k, dtype=np.int64)
        K = len(self.N_k)
        self.K = K
        self.x_kindices = np.repeat(np.arange(K), self.N_k)
        self.states_with_samples = np.where(self.N_k > 0)[0]
        self.rng = np.random.default_rng(rseed)

        self.f_k = np.zeros([self.K], dtype=np.float64)
        if initialize == "BAR":
            self.f_k = self._initialize_with_bar(self.u_kn)

        self.f_k = mbar_solvers.solve_mbar_for_all_states(
            self.u_kn, self.N_k, self.f_k, self.states_with_samples, "robust"
        )

        if n_bootstraps > 0:
            self.n_bootstraps = n_bootstraps
            self.f_k_boots = np.zeros([self.n_bootstraps, self.K])
            allN = int(np.sum(N_k))
            for b in range(self.n_bootstraps):
                f_k_init = np.array(self.f_k.copy())
                # picking random samples from the same N_k states.
                rints = np.zeros(allN, int)
                for k in range(K):
                    k_indices = np.where(self.x_kindices == k)[0]
                    new_kindices = k_indices[self.rng.integers(int(N_k[k]), size=int(N_k[k]))]
                    rints[k_indices] = new_kindices
                # If we initialized with BAR, then BAR, starting from the provided initial_f_k as well.
                if initialize == "BAR":
                    f_k_init = self._initialize_with_bar(self.u_kn[:, rints], f_k_init=self.f_k)
                self.f_k_boots[b, :] = mbar_solvers.solve_mbar_for_all_states(
                    self.u_kn[:, rints], self.N_k, f_k_init, self.states_with_samples, "robust"
                )

    def _initialize_with_bar(self, u_kn, f_k_init=None):
        """

        Internal method for initializing free energies simulations with BAR.
        Only useful to do when the states are in order.

        """

        from pymbar_lite.other_estimators import bar

        initialization_order = np.where(self.N_k > 0)[0]
        # Initialize all f_k to zero.
        if f_k_init is None:
            f_k_init = np.zeros(len(self.f_k))

        starting_f_k_init = f_k_init.copy()
        for index in range(0, np.size(initialization_order) - 1):
            k = initialization_order[index]
            l = initialization_order[index + 1]
            # forward work
            w_F = u_kn[l, self.x_kindices == k] - u_kn[k, self.x_kindices == k]
            # reverse work
            w_R = u_kn[k, self.x_kindices == l] - u_kn[l, self.x_kindices == l]

            if len(w_F) > 0 and len(w_R) > 0:
                try:
                    f_k_init[l] = (
                        f_k_init[k]
                        + bar(
                            w_F,
                            w_R,
                            method="bisection",  # Fast, so be more certain.
                            DeltaF=starting_f_k_init[l] - starting_f_k_init[k],
                            relative_tolerance=0.00001,
                            verbose=False,
                            maximum_iterations=100,
                            compute_uncertainty=False,
                        )["Delta_f"]
                    )
                except ConvergenceError:
                    logger.warning("WARNING: BAR did not converge to within tolerance")
                    f_k_init[l] = f_k_init[k]  # just assume zero if didn't converge.
            else:
                f_k_init[l] = 0

        return f_k_init
