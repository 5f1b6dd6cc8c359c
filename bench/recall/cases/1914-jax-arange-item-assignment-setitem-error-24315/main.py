import jax

if __name__ == "__main__":
    x = jax.numpy.arange(4)
    try:
        x[0] = 1
        print("assigned:", x)
    except TypeError as e:
        print("TypeError:", e)
