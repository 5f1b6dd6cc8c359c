import jax, jax.numpy as jnp
x = jnp.linspace(0.0, 1.0, 1000)
acc = jnp.zeros(1000)
for i in range(300):
    acc = acc + jnp.sin(x * i) * jnp.exp(-x)
    acc = jnp.where(acc > 10, 10.0, acc)
print(float(acc.sum()))
