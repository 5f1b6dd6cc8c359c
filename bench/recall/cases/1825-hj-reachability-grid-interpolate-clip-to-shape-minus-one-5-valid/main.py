import numpy as np

import hj_reachability_lite as hj

bl = np.array((0., 0.))
tr = np.array((1., 1.))
grid = hj.Grid.from_lattice_parameters_and_boundary_conditions(hj.sets.Box(bl, tr), (10, 10))
values = np.random.random((10, 10))

if __name__ == "__main__":
    try:
        print("interpolated:", grid.interpolate(values, np.array((1., 1.))))
    except IndexError as e:
        print("IndexError:", e)
