import jax

def f(x):
    return jax.numpy.piecewise(x, [x<0,0<x<1], [-x, x])

f_jit=jax.jit(f)

if __name__ == "__main__":
    print(f(0.5)) # 0.5
    try:
        print(f_jit(0.5)) # Error
    except jax.errors.TracerBoolConversionError as err:
        print("TracerBoolConversionError:", str(err).splitlines()[0])
