import numpy
from jax import jit
from jax import numpy as np

_MAX_DERIV_ORDER = 4
# components of the next derivative order that are the x, y, z derivatives of each order
_XYZ_ID = ((1, 2, 3), (4, 5, 6))


def _eval_gto(mol, eval_name, grid_coords, comp, shls_slice, non0tab,
              ao_loc, cutoff, out):
    # stand-in for pyscf's eval_gto: s-type gaussians and their derivatives on the grid
    centers, alpha = mol
    d = numpy.asarray(grid_coords)[:, None, :] - centers[None, :, :]
    g = numpy.exp(-alpha * (d ** 2).sum(-1))
    ao = [g] + [-2 * alpha * d[..., i] * g for i in range(3)]
    ao += [(4 * alpha ** 2 * d[..., i] ** 2 - 2 * alpha) * g for i in range(3)]
    return np.asarray(numpy.stack(ao))


# NOTE the AO-derivative contraction kernel is defined at module level
# (rather than as a -decorated closure inside the JVP rule) so that it is
# created once; it is left un-jitted: the grid is fixed, so it runs with
# concrete inputs.
def _contract_grad_tangent_r(ao1, grid_coords_t, order):
    tangent_out = []
    for iorder in range(order+1):
        tmp = 0
        for i in range(3):
            tmp += np.einsum('gi,g->gi',
                             ao1[_XYZ_ID[iorder][i]],
                             grid_coords_t[:,i])
        tangent_out.append(tmp[None])
    tangent_out = np.concatenate(tangent_out)
    return tangent_out


def _eval_gto_jvp_r(mol, eval_name, grid_coords, grid_coords_t,
                    comp, shls_slice, non0tab, ao_loc, nao):
    if 'deriv' not in eval_name:
        order = 0
        new_eval = eval_name + '_deriv1'
    else:
        tmp = eval_name.split('deriv', 1)
        order = int(tmp[1])
        new_eval = tmp[0] + 'deriv' + str(order + 1)
    if order + 1 > _MAX_DERIV_ORDER:
        raise NotImplementedError

    ao1 = _eval_gto(mol, new_eval, grid_coords, None, shls_slice, non0tab,
                    ao_loc, None, None)

    tangent_out = _contract_grad_tangent_r(ao1, grid_coords_t, order=order)
    if order == 0:
        tangent_out = tangent_out[0]
    return tangent_out
