from pyscfad_lite.gto.eval_gto import _eval_gto_jvp_r


def eval_ao_tangent(mol, grid_coords, grid_coords_t):
    """Tangent of the AO values on the grid when the grid moves (one call per gradient)."""
    nao = mol[0].shape[0]
    return _eval_gto_jvp_r(mol, 'GTOval_sph', grid_coords, grid_coords_t,
                           1, None, None, None, nao)
