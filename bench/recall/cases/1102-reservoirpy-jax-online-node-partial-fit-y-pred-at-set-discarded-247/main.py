import jax.numpy as jnp

from reservoirpy_lite.nodes import LMS

if __name__ == "__main__":
    x = jnp.linspace(0.1, 1.0, 30).reshape(10, 3)
    y = jnp.sum(x, axis=1, keepdims=True)
    lms = LMS(learning_rate=0.1)
    y_pred = lms.partial_fit(x, y)
    print("weights trained:", bool(jnp.any(lms.Wout != 0.0)))
    print("predictions all zeros:", bool(jnp.all(y_pred == 0.0)))
