import jax


def non_jit_func(x):
    print("Non-JIT print:", x)  # Executes every call
    return x * 2


jit_func = jax.jit(non_jit_func)

if __name__ == "__main__":
    print("JIT output:", jit_func(5))  # Prints only once
    print("JIT output:", jit_func(5))  # No print, cached result
