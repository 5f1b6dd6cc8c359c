import unittest

from jcm_lite.convection_test import TestConvectionUnit

if __name__ == "__main__":
    suite = unittest.TestSuite([TestConvectionUnit("test_get_convective_tendencies_moist_adiabat")])
    result = unittest.TextTestRunner(verbosity=0).run(suite)
    for _, tb in result.errors + result.failures:
        print(tb.strip().splitlines()[-1])
    print("passed:", result.wasSuccessful())
