from jax import jit

def foo(num):
    for _ in range(num):
        pass

if __name__ == "__main__":
    print(foo(0))  # works without jit
    jit(foo)(0)
