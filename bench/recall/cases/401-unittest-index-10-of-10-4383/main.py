import unittest


class NumPyTestCase(unittest.TestCase):
    def test(self):
        with self.assertRaises(IndexError) as context:
            import numpy as np
            a = np.random.random((10, 10))
            a[10, :]


class JaxTestCase(unittest.TestCase):
    def test(self):
        with self.assertRaises(IndexError) as context:
            import jax.random as random
            import jax.numpy as jnp
            a = random.normal(random.PRNGKey(2020), (10, 10))
            a[10, :]


if __name__ == "__main__":
    np_test_case = NumPyTestCase()
    np_test_case.test()
    jax_test_case = JaxTestCase()
    try:
        jax_test_case.test()
        print("jax raised IndexError: True")
    except AssertionError:
        print("jax raised IndexError: False")
