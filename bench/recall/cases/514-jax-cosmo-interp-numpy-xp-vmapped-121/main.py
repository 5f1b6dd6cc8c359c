import numpy

import jax_cosmo_lite as jc


if __name__ == "__main__":
    print(jc.scipy.interpolate.interp(numpy.array([0.5, 1.5]), numpy.array([0., 1., 2.]), numpy.array([0., 1., 2.])))
