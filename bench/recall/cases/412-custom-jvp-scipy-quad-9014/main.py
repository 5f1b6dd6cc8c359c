import jax
from scipy.integrate import quad

@jax.custom_jvp
def F(c1, c2):
    val, err = quad(lambda x: c1/(1.0 + x**2), a=c2, b=jax.numpy.inf)
    return val

@F.defjvp
def F_jvp(primals, tangents):
    c1, c2 = primals
    c1_dot, c2_dot = tangents
    primal_out = F(c1, c2)
    tangent_out = -(c1/(1.0 + c2**2)) * c2_dot + quad(lambda x: c1_dot * (1/(1.0 + x**2)), a=c2, b=jax.numpy.inf)
    return primal_out, tangent_out

grad_F = jax.grad(F)

c1 = -1.0
c2 = 0.0

if __name__ == "__main__":
    print(F(c1, c2))
    # -1.5707963267948966
    grad_F(c1, c2)
