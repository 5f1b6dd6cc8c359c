import jax


class A: pass


if __name__ == "__main__":
    try:
        jax.jit(lambda x: x)(A())
    except TypeError as e:
        print("TypeError:", e)
