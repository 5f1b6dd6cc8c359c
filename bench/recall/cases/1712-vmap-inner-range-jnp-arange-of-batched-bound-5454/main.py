from jax import vmap
import jax.numpy as jnp
import numpy as np
import jax
from jax import grad,jit

def testSimpleRangeInVMap( parts ):
    def innerRange( i ):
        inds = jnp.arange(i)
        selected = parts[inds]
        p = jnp.sum( selected, axis= 0)
        return p

    print( "innerRange(3)")
    print( innerRange(3) )

    print("innerRange(4)")
    print( innerRange(4) )

    bounds = jnp.array([3, 4], dtype="int32")
    res = vmap(innerRange)(bounds)

    return res

if __name__ == "__main__":
    parts = jnp.array( np.random.randn(40,2) )
    try:
        print( testSimpleRangeInVMap( parts ) )
    except jax.errors.ConcretizationTypeError as err:
        print("ConcretizationTypeError:", str(err).splitlines()[0])
