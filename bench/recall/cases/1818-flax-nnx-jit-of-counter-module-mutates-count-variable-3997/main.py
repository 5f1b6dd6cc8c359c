from flax import nnx

from counters import Counter

counter = Counter()

counter()                   # works fine

if __name__ == "__main__":
    try:
        nnx.jit(counter)()       # fails
        print("count:", int(counter.count.value))
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0])
