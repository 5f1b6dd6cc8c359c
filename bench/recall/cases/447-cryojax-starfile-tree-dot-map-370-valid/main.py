import jax
import jax.numpy as jnp


def _write_simulated_image_stack_from_starfile_vmap(compute_image, per_particle_args, constant_args):
    # trace the first particle to get the image shape
    first_image = compute_image(
        jax.tree.map(lambda x: x[0:1], per_particle_args),
        constant_args,
    )
    images = jax.vmap(compute_image, in_axes=(0, None))(per_particle_args, constant_args)
    return first_image.shape, images


def compute_image(particle_args, constant_args):
    return particle_args["pose"] * constant_args["scale"]


if __name__ == "__main__":
    per_particle_args = {"pose": jnp.arange(12.0).reshape(4, 3)}
    shape, images = _write_simulated_image_stack_from_starfile_vmap(compute_image, per_particle_args, {"scale": 2.0})
    print("first image shape:", shape)
