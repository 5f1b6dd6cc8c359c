from dataclasses import dataclass
import time

from flax.training.train_state import TrainState
import optax
import jax
import jax.numpy as jnp

from models.tokenizer import TokenizerVQVAE


@dataclass
class Args:
    num_steps: int = 5
    batch_size: int = 16
    seq_len: int = 4
    patch_dim: int = 48
    seed: int = 0


args = Args()


def tokenizer_loss_fn(params, state, inputs):
    outputs = state.apply_fn(
        params, inputs, training=True, rngs={"dropout": inputs["dropout_rng"]}
    )
    mse = jnp.square(inputs["videos"] - outputs["recon"]).mean()
    return mse, (outputs["recon"], dict(mse=mse))


@jax.jit
def train_step(state, inputs):
    grad_fn = jax.value_and_grad(tokenizer_loss_fn, has_aux=True, allow_int=True)
    (loss, (recon, metrics)), grads = grad_fn(state.params, state, inputs)
    state = state.apply_gradients(grads=grads)
    return state, loss, recon, metrics


if __name__ == "__main__":
    rng = jax.random.PRNGKey(args.seed)
    tokenizer = TokenizerVQVAE(patch_dim=args.patch_dim)
    rng, _rng = jax.random.split(rng)
    dummy = dict(videos=jnp.zeros((args.batch_size, args.seq_len, args.patch_dim)))
    init_params = tokenizer.init(_rng, dummy, training=False)
    train_state = TrainState.create(apply_fn=tokenizer.apply, params=init_params, tx=optax.adam(1e-3))

    step = 0
    print(f"Starting training from step {step}...")
    while step < args.num_steps:
        # --- Train step ---
        rng, _rng, _rng_data, _rng_dropout = jax.random.split(rng, 4)
        videos = jax.random.uniform(_rng_data, (args.batch_size, args.seq_len, args.patch_dim))

        inputs = dict(videos=videos, rng=_rng, dropout_rng=_rng_dropout)
        start_time = time.time()
        train_state, loss, recon, metrics = train_step(train_state, inputs)
        elapsed_time = (time.time() - start_time) * 1000
        print(f"Step {step}, loss: {loss}, step time: {elapsed_time}ms")
        step += 1
