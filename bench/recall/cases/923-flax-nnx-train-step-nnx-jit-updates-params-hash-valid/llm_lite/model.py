from flax import nnx


class ShellLLM(nnx.Module):
    """The "shell" of the LLM: token embeddings wired directly to the output head."""

    def __init__(self, vocab_size, emb_dim, rngs):
        self.tok_emb = nnx.Embed(vocab_size, emb_dim, rngs=rngs)
        self.out_head = nnx.Linear(emb_dim, vocab_size, use_bias=False, rngs=rngs)

    def __call__(self, tokens):
        return self.out_head(self.tok_emb(tokens))
