import jax
import jax.numpy as np

scene_type = "forwardfacing"
if scene_type == "forwardfacing":
    import numpy as np  # NumPy while the data loads, jax.numpy again below

    def load_poses(raw):
        poses = np.concatenate([raw, raw], 0)
        poses[:, 0] = 1.0
        return poses

    poses = load_poses(np.zeros((3, 4)))
    import jax.numpy as np


@jax.jit
def render(rays):
    return np.asarray(rays) * 2.0


image = render(np.ones(3))
import numpy as np

print(np.mean(image))
