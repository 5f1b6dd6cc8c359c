import jax
import jax.numpy as jnp

# initialise mock input and vmap mock function
vec_input = jnp.array([1,1])
def mock_fn_vec(x):
    return jax.vmap(mock_fn)(x)

# define mock function and jit version of mock function
mock_fn = lambda x: x
mock_fn_vec_jit = jax.jit(mock_fn_vec)

print(mock_fn_vec_jit(vec_input))
print(mock_fn_vec(vec_input))


# overwrite mock function and jit version of mock function
mock_fn = lambda x: -x
mock_fn_vec_jit = jax.jit(mock_fn_vec)

print(mock_fn_vec_jit(vec_input)) # these last lines do not give the same result
print(mock_fn_vec(vec_input))
print("stale:", bool((mock_fn_vec_jit(vec_input) != mock_fn_vec(vec_input)).all()))
