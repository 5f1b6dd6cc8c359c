import jax

from integrals.lorentz import F

grad_F = jax.grad(F)

if __name__ == "__main__":
    c1 = -1.0
    c2 = 0.0
    print(F(c1, c2))
    grad_F(c1, c2)
