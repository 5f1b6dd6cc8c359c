import jax.lax as lax


def main():
    iterator = iter(range(10))

    def iterator_fori_loop():

        def body_fun(i, cnt):
            cnt += next(iterator)
            return cnt

        return lax.fori_loop(0, 10, body_fun, 0)

    return iterator_fori_loop()


if __name__ == "__main__":
    print("sum:", main())
