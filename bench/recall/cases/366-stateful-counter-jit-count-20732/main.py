import jax


class Counter:
    """A simple counter."""

    def __init__(self):
        self.n = 0

    def count(self) -> int:
        """Increments the counter and returns the new value."""
        self.n += 1
        return self.n

    def reset(self):
        """Resets the counter to zero."""
        self.n = 0


counter = Counter()

if __name__ == "__main__":
    for _ in range(3):
        print(counter.count())

    counter.reset()
    fast_count = jax.jit(counter.count)

    for _ in range(3):
        print("fast:", fast_count())
