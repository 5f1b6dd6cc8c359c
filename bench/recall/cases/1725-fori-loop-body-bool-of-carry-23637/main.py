import jax
def body(_, c): return bool(c)

if __name__ == "__main__":
    try:
        jax.lax.fori_loop(0, 5, body, 3.)
    except jax.errors.TracerBoolConversionError as err:
        print("TracerBoolConversionError:", str(err).splitlines()[0])
