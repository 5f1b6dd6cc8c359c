import jax
import jax.numpy as jnp

from herculens_lite.MassModel.mass_model import MassModel

if __name__ == "__main__":
    lens_mass_model = MassModel(['SIS'])
    y_image = jnp.array([0.3, -0.2])

    def time_delay_term(x_image, theta_E):
        # the image positions and the Einstein radius are model parameters
        kwargs_lens = [{'theta_E': theta_E, 'center_x': 0.0, 'center_y': 0.0}]
        return lens_mass_model.fermat_potential(x_image, y_image, kwargs_lens)

    x_image = jnp.array([1.0, -0.8])
    print("plain call:", time_delay_term(x_image, 1.2))
    print("jitted:", jax.jit(time_delay_term)(x_image, 1.2))
