import jax
import jax.numpy as jnp

def simple_fn(x):
    print(f'Inside function, x type: {type(x)}')
    y = x + 1
    z = y * 2
    return z

print('=== UNCOMPILED EXECUTION ===')
result_uncompiled = simple_fn(jnp.array([1.0, 2.0, 3.0]))
print(f'Result: {result_uncompiled}')

print('\n=== JIT COMPILED EXECUTION ===')
jit_fn = jax.jit(simple_fn)
result_jit1 = jit_fn(jnp.array([1.0, 2.0, 3.0]))
result_jit2 = jit_fn(jnp.array([4.0, 5.0, 6.0]))

if __name__ == "__main__":
    print(f'Results: {result_jit1} {result_jit2}')
