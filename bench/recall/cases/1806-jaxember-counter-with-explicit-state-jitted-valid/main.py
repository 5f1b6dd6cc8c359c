import jax

from counters import CounterWithState

counter = CounterWithState()
state = counter.reset()
jit_count = jax.jit(counter.count)

if __name__ == "__main__":
    values = []
    for _ in range(5):
        value, state = jit_count(state)
        values.append(int(value))
    print(values)
    print("stuck:", values == [1, 1, 1, 1, 1])
