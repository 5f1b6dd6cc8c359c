import jax

from counters import Counter

counter = Counter()

for _ in range(5):
    print(counter.count())

counter.reset()

jit_count = jax.jit(counter.count)

if __name__ == "__main__":
    values = [int(jit_count()) for _ in range(5)]
    print(values)
    print("stuck:", values == [1, 1, 1, 1, 1])
