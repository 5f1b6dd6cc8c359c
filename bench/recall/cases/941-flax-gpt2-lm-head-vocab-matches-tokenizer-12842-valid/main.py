import jax
import jax.numpy as jnp
import optax

from model import FlaxGPT2LMHeadModule, GPT2Config
from tokenizer import ByteLevelTokenizer


def loss_fn(params, model, input_ids):
    logits = model.apply(params, input_ids[:, :-1])
    return optax.softmax_cross_entropy_with_integer_labels(logits, input_ids[:, 1:]).mean()


if __name__ == "__main__":
    tokenizer = ByteLevelTokenizer(vocab_size=128)
    config = GPT2Config(vocab_size=tokenizer.vocab_size)
    model = FlaxGPT2LMHeadModule(config)
    input_ids = jnp.array([tokenizer("Hello, JAX world! ~~~")])
    params = model.init(jax.random.key(0), input_ids)
    loss = jax.jit(loss_fn, static_argnums=1)(params, model, input_ids)
    print("max token id:", int(input_ids.max()), "vocab:", config.vocab_size)
    print("error raised: False, loss finite:", bool(jnp.isfinite(loss)))
