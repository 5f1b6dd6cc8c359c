import flax.linen as nn
import jax
import jax.numpy as jnp


class LSTMScratch(nn.Module):
    num_inputs: int
    num_hiddens: int
    sigma: float = 0.01

    def setup(self):
        init_weight = lambda name, shape: self.param(name, nn.initializers.normal(self.sigma), shape)
        triple = lambda name : (
            init_weight(f'W_x{name}', (self.num_inputs, self.num_hiddens)),
            init_weight(f'W_h{name}', (self.num_hiddens, self.num_hiddens)),
            self.param(f'b_{name}', nn.initializers.zeros, (self.num_hiddens)))
        self.W_xi, self.W_hi, self.b_i = triple('i')  # Input gate
        self.W_xf, self.W_hf, self.b_f = triple('f')  # Forget gate
        self.W_xo, self.W_ho, self.b_o = triple('o')  # Output gate
        self.W_xc, self.W_hc, self.b_c = triple('c')  # Input node

    def __call__(self, inputs, H_C=None):
        # Use initial state with shape: (batch_size, num_hiddens)
        if H_C is None:
            batch_size = inputs.shape[1]
            H = jnp.zeros((batch_size, self.num_hiddens))
            C = jnp.zeros((batch_size, self.num_hiddens))
        else:
            H, C = H_C
        outputs = []
        for X in inputs:
            I = jax.nn.sigmoid(jnp.matmul(X, self.W_xi) + jnp.matmul(H, self.W_hi) + self.b_i)
            F = jax.nn.sigmoid(jnp.matmul(X, self.W_xf) + jnp.matmul(H, self.W_hf) + self.b_f)
            O = jax.nn.sigmoid(jnp.matmul(X, self.W_xo) + jnp.matmul(H, self.W_ho) + self.b_o)
            C_tilde = jnp.tanh(jnp.matmul(X, self.W_xc) + jnp.matmul(H, self.W_hc) + self.b_c)
            C = F * C + I * C_tilde
            H = O * jnp.tanh(C)
            outputs.append(H)
        return outputs, (H, C)


if __name__ == "__main__":
    num_steps, batch_size, vocab = 64, 2, 28
    model = LSTMScratch(num_inputs=vocab, num_hiddens=32)
    X = jnp.ones((num_steps, batch_size, vocab))
    params = model.init(jax.random.PRNGKey(0), X)
    eqns = jax.make_jaxpr(lambda p, x: model.apply(p, x))(params, X).jaxpr.eqns
    print("unrolled:", len(eqns) >= num_steps)
