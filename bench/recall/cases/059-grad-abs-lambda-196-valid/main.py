from jax import grad

if __name__ == "__main__":
    print(grad(lambda x: x if x > 0 else -x)(-3.0))
