from jax import grad

from piecewise_lite import func

if __name__ == "__main__":
    try:
        df = grad(func, argnums=1)(1, 0.5)
        print("df:", df)
    except Exception as e:
        print(f"{type(e).__name__}: {str(e).splitlines()[0]}")
