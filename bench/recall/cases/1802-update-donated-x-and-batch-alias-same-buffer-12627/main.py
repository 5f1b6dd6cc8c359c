import jax.numpy as jnp

from trainer import update


def main():
    # x takes 1GB memory
    x = jnp.zeros((1 * 1024 * 1024 // 4), dtype=jnp.float32)

    # A training loop
    for _ in range(10):
        batch = x

        x = update(x, batch)
    return x


if __name__ == "__main__":
    try:
        main().block_until_ready()
        print("ran")
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0])
