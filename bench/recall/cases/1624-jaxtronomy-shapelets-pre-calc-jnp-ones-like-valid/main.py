import jax.numpy as jnp

from jaxtronomy_lite.LightModel.Profiles.shapelets import Shapelets

if __name__ == "__main__":
    shapelets = Shapelets(stable_cut=False)
    x = jnp.linspace(-1.0, 1.0, 5)
    phi_x, phi_y = shapelets.pre_calc(x, x, 1.0, 3, 0.0, 0.0)
    print("phi_x:", phi_x.shape)
