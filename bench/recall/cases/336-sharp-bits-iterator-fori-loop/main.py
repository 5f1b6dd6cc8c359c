from jax import lax

if __name__ == "__main__":
    iterator = iter(range(10))
    out = lax.fori_loop(0, 10, lambda i, x: x + next(iterator), 0)  # unexpected result 0
    print(out)
    print("sum of range(10):", out == 45)
