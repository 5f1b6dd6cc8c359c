import jax.numpy as jnp
import numpy as np
from flax import nnx

from bonsai_lite.models.qwen3_vl import modeling

IMAGE_TOKEN_ID = 7


def main():
    flax_model = modeling.Qwen3VLForConditionalGeneration(vocab=16, hidden=8, rngs=nnx.Rngs(0))
    # what the processor returns for one 1x4x4 image (torch tensors in the original)
    inputs_vision = {
        "input_ids": np.array([[1, 7, 7, 2]]),
        "pixel_values": np.zeros((16, 8), np.float32),
        "image_grid_thw": np.array([[1, 4, 4]]),
    }
    input_ids_vision = jnp.array(inputs_vision["input_ids"])

    # Check for vision inputs
    if "pixel_values" in inputs_vision:
        pixel_values = jnp.array(inputs_vision["pixel_values"])
        image_grid_thw = jnp.array(inputs_vision["image_grid_thw"])

        token_type_ids = (input_ids_vision == IMAGE_TOKEN_ID).astype(jnp.int32)
        logits, _ = modeling.forward_vision(flax_model, None, input_ids_vision, pixel_values, image_grid_thw, token_type_ids)
        print("logits:", logits.shape)


if __name__ == "__main__":
    main()
