import jax

CounterState = int


class CounterV2:

    def count(self, n: CounterState) -> tuple[int, CounterState]:
        # You could just return n+1, but here we separate its role as
        # the output and as the counter state for didactic purposes.
        return n+1, n+1

    def reset(self) -> CounterState:
        return 0


counter = CounterV2()

if __name__ == "__main__":
    state = counter.reset()
    fast_count = jax.jit(counter.count)

    for _ in range(3):
        value, state = fast_count(state)
        print("fast:", value)
