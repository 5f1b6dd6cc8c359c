import jax.numpy as jnp

from scarlet2_lite import Box


def render_in_frame(bbox, model, frame_shape):
    # as Source.__call__(frame) of the fix commit: the model put into a blank frame
    model = bbox.insert_into(jnp.zeros(frame_shape), model)
    return model


if __name__ == "__main__":
    model = jnp.ones((2, 3, 3))
    bbox = Box(model.shape) + (0, 2, 2)
    image = render_in_frame(bbox, model, (2, 7, 7))
    print("flux:", float(image.sum()))
