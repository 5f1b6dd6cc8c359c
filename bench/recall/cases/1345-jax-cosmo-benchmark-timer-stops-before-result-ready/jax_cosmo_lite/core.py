from typing import NamedTuple


class Cosmology(NamedTuple):
    Omega_c: float
    Omega_b: float
    Omega_k: float
    h: float
    sigma8: float
    n_s: float
    w0: float
    wa: float
