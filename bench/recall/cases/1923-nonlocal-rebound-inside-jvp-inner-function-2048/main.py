import jax

def D(f, x):
    return jax.jvp(f, (x,), (1.0,))[1]

def f(x):
    def inner(y):
        nonlocal x
        x = y
        return x
    return D(inner, x)*x

def test():
    x = 1
    def inner(y):
        nonlocal x
        x = x*y
        return x
    a = D(inner, 1.0)
    b = D(inner, 1.0)
    return b

if __name__ == "__main__":
    for run in (lambda: D(f, 1.0), test):
        try:
            print(run())
        except jax.errors.UnexpectedTracerError as e:
            print("UnexpectedTracerError:", str(e).splitlines()[0][:60])
