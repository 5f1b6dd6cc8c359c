import jax
import jax.numpy as jnp


def main_fn(logits, where, curse):
    """
    logit: t
    where: t
    returns: ()
    """
    attn = jax.nn.softmax(logits, axis=0, where=where)  # t
    if curse:
        attn = attn * jnp.sum(attn) ** -1
    return jnp.sum(attn * -jnp.log2(attn), where=where, initial=1.0)


if __name__ == '__main__':

    grad_fn = jax.grad(main_fn)
    logits = jnp.array([1.0, 2.0, 3.0, 4.0])
    where = jnp.array([True, True, False, True])
    print(main_fn(logits, where, True))
    g = grad_fn(logits, where, True)
    print(g)
    print("nan grad:", bool(jnp.isnan(g).any()))
