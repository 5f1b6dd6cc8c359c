import jax.numpy as jnp

from jaxopt_lite._src.gradient_descent import GradientDescent


def fun(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


if __name__ == "__main__":
    x = jnp.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
    y = jnp.array([1.0, 2.0, 2.0])
    solver = GradientDescent(fun, stepsize=0.1, maxiter=4, verbose=True, jit=True)
    params, state = solver.run(jnp.zeros(2), x, y)
    print("iterations:", int(state.iter_num))
