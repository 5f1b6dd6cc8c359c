import jax

from algorithms.ppo_s5 import make_train as make_train_s5

if __name__ == "__main__":
    config = {"H": 4, "P": 8, "T": 5}
    out = jax.jit(make_train_s5(config))(jax.random.PRNGKey(0))
    print(out.shape)
