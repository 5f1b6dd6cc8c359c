def bar(x):
    return x[x > 0]  # dynamic index, not jit-able
