import numpy

from pyscfad_lite.dft.numint import eval_ao_tangent

if __name__ == "__main__":
    mol = (numpy.array([[0.0, 0.0, 0.0], [0.0, 0.0, 1.4]]), 0.8)
    rng = numpy.random.default_rng(0)
    grid_coords = rng.normal(size=(50, 3))
    grid_coords_t = rng.normal(size=(50, 3))
    for step in range(3):
        # one tangent per gradient evaluation, as in repeated jax.grad calls on dft.RKS
        t = eval_ao_tangent(mol, grid_coords, grid_coords_t)
    print("tangent shape:", t.shape)
