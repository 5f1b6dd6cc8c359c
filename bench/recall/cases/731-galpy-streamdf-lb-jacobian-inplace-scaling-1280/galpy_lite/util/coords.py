from galpy_lite.util.backend import xp


def lbd_to_XYZ_jac(l, b, d, vlos, pmll, pmbb, degree=False):
    """Jacobian of the (l, b, d, vlos, pmll, pmbb) -> (X, Y, Z, vx, vy, vz) transformation."""
    np = xp()
    cl, sl = np.cos(l), np.sin(l)
    cb, sb = np.cos(b), np.sin(b)
    out = np.zeros((6, 6))
    out = out + np.diag(np.array([d * cb, d, 1.0, 1.0, d, d]))
    out = out + 0.01 * np.outer(np.array([cl, sl, cb, sb, 1.0, vlos]), np.ones(6))
    return out
