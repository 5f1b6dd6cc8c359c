import unittest
import jax.numpy as jnp
from jcm_lite.physical_constants import grdscp, grdsig

class TestConvectionUnit(unittest.TestCase):
    def test_get_convective_tendencies_moist_adiabat(self):
        ix, il, kx = 96, 48, 8

        psa = jnp.ones((ix, il)) #normalized surface pressure

        test_dfse = jnp.array([  0., 0., 0., 0. ,-29.774475, 402.0166, 171.78418, 0.])
        test_dfqa = jnp.array([ 0., 0., 0., 0.01235308,  0.07379276, -0.15330768, -0.08423203, -0.05377656])

        rhs = 1/psa
        test_ttend = test_dfse
        test_ttend = test_ttend.at[1:].set(test_dfse[1:] * rhs[0,0] * grdscp[1:-1])

        test_qtend = test_dfqa
        test_qtend = test_qtend.at[1:].set(test_dfqa[1:] * rhs[0,0] * grdsig[1:-1])

        #check a few values of the fluxes
        self.assertAlmostEqual(float(test_ttend[5]), 402.0166 * float(grdscp[5]), places=2)
        self.assertAlmostEqual(float(test_qtend[5]), -0.15330768 * float(grdsig[5]), places=2)
