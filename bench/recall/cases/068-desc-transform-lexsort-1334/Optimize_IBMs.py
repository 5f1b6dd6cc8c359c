import jax.numpy as jnp

from desc.objectives.objective_funs import ObjectiveFunction
from desc.transform import Transform

if __name__ == "__main__":
    modes = jnp.array([[0, 0, 0], [1, 1, 0], [2, 0, 1], [1, -1, 1]])
    obj = ObjectiveFunction(Transform(modes))
    obj.compute_scaled_error(modes)
